import {
  ACTIVE_STATUSES,
  type ProjectSummary,
  type SummaryResponse,
} from '../../server/contract.ts';
import {
  formatDuration as formatDurationOf,
  rateBand,
  statusLabel,
  timeAgo as timeAgoOf,
} from '../../renderer/lib/format.ts';

/** How the table is drawn. */
export interface RenderOptions {
  /** ANSI colours (stdout is a TTY and NO_COLOR is unset). */
  color: boolean;
  /** Terminal width in columns; the project column shrinks to fit. */
  width: number;
  now: Date;
}

const ESC = '\x1b[';
const paint = (on: boolean, code: string, text: string) =>
  on ? `${ESC}${code}m${text}${ESC}0m` : text;
const RUNNING: ReadonlySet<string> = new Set(ACTIVE_STATUSES);

/** `3725` → `1h 2m`; null → `-` (the dashboard's formatter with a plain-ASCII empty mark). */
export function formatDuration(seconds: number | null | undefined): string {
  return formatDurationOf(seconds, '-');
}

/** `5m ago`, `3h ago`, `2d ago`, `just now`; null → `-`. */
export function timeAgo(iso: string | null | undefined, now: Date): string {
  return timeAgoOf(iso, now, '-');
}

const RATE_COLOUR = { none: '2', good: '32', fair: '33', poor: '31' } as const;

function rateColour(rate: number, finished: number): string {
  return RATE_COLOUR[rateBand(rate, finished)];
}

function statusCell(
  status: string | undefined,
  color: boolean,
  compact: boolean,
): { text: string; plainLength: number } {
  if (!status) return { text: '-', plainLength: 1 };
  // Narrow terminals get the first word: `waiting for resource` → `waiting`.
  const label = compact ? statusLabel(status).split(' ')[0]! : statusLabel(status);
  let symbol: string;
  let code: string;
  if (status === 'success') [symbol, code] = ['✓', '32'];
  else if (status === 'failed') [symbol, code] = ['✗', '31'];
  else if (RUNNING.has(status)) [symbol, code] = ['●', '36'];
  else [symbol, code] = ['○', '2'];
  const plain = color ? `${symbol} ${label}` : label;
  return { text: paint(color, code, plain), plainLength: plain.length };
}

/** Shortens `text` in the middle, keeping its start and its end. */
function truncateMiddle(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  const tail = Math.floor((width - 1) / 2);
  return `${text.slice(0, width - 1 - tail)}…${text.slice(text.length - tail)}`;
}

/**
 * Fits a project path into `width`: the project's own name (the last segment) stays whole and the
 * namespace before it shortens (`pla…/notifications`), since the name is what tells rows apart.
 */
function fitPath(path: string, width: number): string {
  if (path.length <= width) return path;
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  if (slash === -1 || name.length + 2 > width) return truncateMiddle(name, width);
  const room = width - name.length - 2;
  return `${path.slice(0, room)}…/${name}`;
}

/** The `group/` prefix every name shares (up to a slash), or '' when they do not all share one. */
function sharedPrefix(names: readonly string[]): string {
  if (names.length < 2) return '';
  let prefix = names[0]!.slice(0, names[0]!.lastIndexOf('/') + 1);
  for (const n of names)
    while (prefix && !n.startsWith(prefix))
      prefix = prefix.slice(0, prefix.slice(0, -1).lastIndexOf('/') + 1);
  return prefix;
}

/** Joins `parts` with ` · `, starting a new line (indented) instead of passing `width`. */
function wrapParts(parts: { text: string; plainLength: number }[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let length = 0;
  for (const part of parts) {
    if (length > 0 && length + 3 + part.plainLength > width) {
      lines.push(line);
      line = `  ${part.text}`;
      length = 2 + part.plainLength;
    } else {
      line += (length > 0 ? ' · ' : '') + part.text;
      length += (length > 0 ? 3 : 0) + part.plainLength;
    }
  }
  if (length > 0) lines.push(line);
  return lines;
}

/** Pads `text` whose visible length is `visible` (colour codes excluded). */
function pad(text: string, visible: number, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - visible));
  return align === 'left' ? text + fill : fill + text;
}

interface Column {
  title: string;
  align: 'left' | 'right';
  cell: (p: ProjectSummary) => { text: string; plainLength: number };
  /**
   * When the terminal is too narrow for every column, columns go in this order (1 first); absent:
   * never dropped. What goes is on the Overall line (passed, running, average) or follows from
   * what stays (failed and the rate).
   */
  dropOrder?: number;
}

function plain(text: string, color = false, code = ''): { text: string; plainLength: number } {
  return { text: code ? paint(color, code, text) : text, plainLength: text.length };
}

/** Below this many columns headers and statuses shorten so an 80-column terminal never wraps. */
const COMPACT_BELOW = 100;
/** Project names get at least this many columns before another column is dropped for them. */
const MIN_NAME_WIDTH = 16;
/** Narrower terminals are drawn this wide (and wrap). */
const MIN_WIDTH = 40;
const GAP = 2;

/**
 * The terminal view of a summary: one row per project (pipelines, passed, failed, running, success
 * rate, average duration, latest status and when), then an overall line. Pure: the caller decides
 * colour and width (TTY or pipe) and passes the clock. At narrow widths headers shorten, names lose
 * the group prefix they all share and are shortened in the middle, and the lines around wrap; when
 * names would still get fewer than 16 columns, the least telling columns go (average, running,
 * passed, total — the Overall line still has them), so no row wraps at 60 columns either.
 */
export function renderSummaryTable(summary: SummaryResponse, options: RenderOptions): string {
  const { color, now } = options;
  const width = Math.max(MIN_WIDTH, options.width || 100);
  const compact = width < COMPACT_BELOW;
  const status = summary.status;
  const lines: string[] = [];
  const title = [
    plain('Pipeline summary', color, '1'),
    status
      ? {
          text: `group ${paint(color, '1', status.group)}`,
          plainLength: 6 + status.group.length,
        }
      : null,
    status ? plain(`last ${status.since}`) : null,
    status?.last_updated ? plain(`updated ${timeAgo(status.last_updated, now)}`) : null,
  ].filter((x) => x !== null);
  lines.push(...wrapParts(title, width));
  if (status?.state === 'degraded' && status.last_error) {
    lines.push(paint(color, '33', `! GitLab problem: ${status.last_error}`));
  }
  lines.push('');

  const allColumns: Column[] = [
    {
      title: compact ? 'TOTAL' : 'PIPELINES',
      align: 'right',
      cell: (p) => plain(String(p.total_pipelines)),
      dropOrder: 4,
    },
    {
      title: compact ? 'PASS' : 'PASSED',
      align: 'right',
      cell: (p) => plain(String(p.successful), color && p.successful > 0, '32'),
      dropOrder: 3,
    },
    {
      title: compact ? 'FAIL' : 'FAILED',
      align: 'right',
      cell: (p) => plain(String(p.failed), color && p.failed > 0, '31'),
    },
    {
      title: compact ? 'RUN' : 'RUNNING',
      align: 'right',
      cell: (p) => plain(String(p.running), color && p.running > 0, '36'),
      dropOrder: 2,
    },
    {
      title: compact ? 'RATE' : 'SUCCESS',
      align: 'right',
      cell: (p) => {
        const finished = p.successful + p.failed;
        return plain(
          finished ? `${p.success_rate.toFixed(1)}%` : '-',
          color,
          rateColour(p.success_rate, finished),
        );
      },
    },
    {
      title: compact ? 'AVG' : 'AVG DUR',
      align: 'right',
      // The server's number (pipelines with a duration only), never recomputed here.
      cell: (p) => plain(formatDuration(p.total_pipelines ? (p.average_duration ?? null) : null)),
      dropOrder: 1,
    },
    {
      title: 'LATEST',
      align: 'left',
      cell: (p) => statusCell(p.recent_pipelines[0]?.status, color, compact),
    },
    {
      title: 'WHEN',
      align: 'right',
      cell: (p) => plain(timeAgo(p.recent_pipelines[0]?.created_at, now)),
    },
  ];
  let names = summary.projects.map((p) => p.project_path ?? p.project_name);
  const { columns, cells, widths, room } = fitColumns(
    allColumns,
    summary.projects,
    width,
    Math.min(MIN_NAME_WIDTH, Math.max(7, ...names.map((n) => n.length))),
  );
  const gap = GAP;
  // On a narrow terminal, names that do not fit first lose the group prefix every row shares (the
  // title names the group), then shorten in the middle.
  if (compact && Math.max(0, ...names.map((n) => n.length)) > room) {
    const prefix = sharedPrefix(names);
    if (prefix) names = names.map((n) => n.slice(prefix.length));
  }
  const nameWidth = Math.max(
    4,
    Math.min(12, room),
    Math.min(Math.max(7, ...names.map((n) => n.length)), room),
  );

  const header =
    pad('PROJECT', 7, nameWidth, 'left') +
    columns
      .map((c, i) => ' '.repeat(gap) + pad(c.title, c.title.length, widths[i]!, c.align))
      .join('');
  lines.push(paint(color, '2', header));
  if (summary.projects.length === 0) {
    lines.push(paint(color, '2', 'No pipelines in this window.'));
  }
  summary.projects.forEach((_, r) => {
    const name = fitPath(names[r]!, nameWidth);
    lines.push(
      pad(name, name.length, nameWidth, 'left') +
        columns
          .map(
            (c, i) =>
              ' '.repeat(gap) +
              pad(cells[r]![i]!.text, cells[r]![i]!.plainLength, widths[i]!, c.align),
          )
          .join(''),
    );
  });
  const s = summary.summary;
  const finished = s.successful + s.failed;
  lines.push('');
  lines.push(
    ...wrapParts(
      [
        plain('Overall', color, '1'),
        plain(`${s.total_pipelines} pipelines`),
        plain(`${s.successful} passed`, color && s.successful > 0, '32'),
        plain(`${s.failed} failed`, color && s.failed > 0, '31'),
        plain(`${s.running} running`, color && s.running > 0, '36'),
        plain(
          finished ? `${s.overall_success_rate.toFixed(1)}% success` : 'no finished pipelines',
          color,
          rateColour(s.overall_success_rate, finished),
        ),
        plain(`avg ${formatDuration(s.average_duration)}`),
        plain(`${summary.projects.length} projects`),
      ],
      width,
    ),
  );
  return lines.join('\n') + '\n';
}

/**
 * The columns that fit beside `nameWidth` columns of names in `width`: while they do not, the
 * column with the lowest `dropOrder` goes. Returns them with their cells, widths and the room left.
 */
function fitColumns(
  all: readonly Column[],
  projects: readonly ProjectSummary[],
  width: number,
  nameWidth: number,
): {
  columns: Column[];
  cells: { text: string; plainLength: number }[][];
  widths: number[];
  room: number;
} {
  const allCells = projects.map((p) => all.map((c) => c.cell(p)));
  const allWidths = all.map((c, i) =>
    Math.max(c.title.length, ...allCells.map((row) => row[i]!.plainLength)),
  );
  const kept = all.map((_, i) => i);
  const roomLeft = () => width - kept.reduce((sum, i) => sum + allWidths[i]! + GAP, 0);
  const droppable = all
    .map((c, i) => ({ i, order: c.dropOrder }))
    .filter((d): d is { i: number; order: number } => d.order !== undefined)
    .sort((a, b) => a.order - b.order);
  for (const { i } of droppable) {
    if (roomLeft() >= nameWidth) break;
    kept.splice(kept.indexOf(i), 1);
  }
  return {
    columns: kept.map((i) => all[i]!),
    cells: allCells.map((row) => kept.map((i) => row[i]!)),
    widths: kept.map((i) => allWidths[i]!),
    room: roomLeft(),
  };
}
