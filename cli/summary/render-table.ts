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
): { text: string; plainLength: number } {
  if (!status) return { text: '-', plainLength: 1 };
  const label = statusLabel(status);
  let symbol: string;
  let code: string;
  if (status === 'success') [symbol, code] = ['✓', '32'];
  else if (status === 'failed') [symbol, code] = ['✗', '31'];
  else if (RUNNING.has(status)) [symbol, code] = ['●', '36'];
  else [symbol, code] = ['○', '2'];
  const plain = color ? `${symbol} ${label}` : label;
  return { text: paint(color, code, plain), plainLength: plain.length };
}

function truncate(text: string, width: number): string {
  if (text.length <= width) return text;
  if (width <= 1) return text.slice(0, width);
  return `${text.slice(0, width - 1)}…`;
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
}

function plain(text: string, color = false, code = ''): { text: string; plainLength: number } {
  return { text: code ? paint(color, code, text) : text, plainLength: text.length };
}

/**
 * The terminal view of a summary: one row per project (pipelines, passed, failed, running, success
 * rate, average duration, latest status and when), then an overall line. Pure: the caller decides
 * colour and width (TTY or pipe) and passes the clock.
 */
export function renderSummaryTable(summary: SummaryResponse, options: RenderOptions): string {
  const { color, now } = options;
  const width = Math.max(60, options.width || 100);
  const status = summary.status;
  const lines: string[] = [];
  const title = [
    paint(color, '1', 'Pipeline summary'),
    status ? `group ${paint(color, '1', status.group)}` : null,
    status ? `last ${status.since}` : null,
    status?.last_updated ? `updated ${timeAgo(status.last_updated, now)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  lines.push(title);
  if (status?.state === 'degraded' && status.last_error) {
    lines.push(paint(color, '33', `! GitLab problem: ${status.last_error}`));
  }
  lines.push('');

  const columns: Column[] = [
    { title: 'PIPELINES', align: 'right', cell: (p) => plain(String(p.total_pipelines)) },
    {
      title: 'PASSED',
      align: 'right',
      cell: (p) => plain(String(p.successful), color && p.successful > 0, '32'),
    },
    {
      title: 'FAILED',
      align: 'right',
      cell: (p) => plain(String(p.failed), color && p.failed > 0, '31'),
    },
    {
      title: 'RUNNING',
      align: 'right',
      cell: (p) => plain(String(p.running), color && p.running > 0, '36'),
    },
    {
      title: 'SUCCESS',
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
      title: 'AVG DUR',
      align: 'right',
      // The server's number (pipelines with a duration only), never recomputed here.
      cell: (p) => plain(formatDuration(p.total_pipelines ? (p.average_duration ?? null) : null)),
    },
    {
      title: 'LATEST',
      align: 'left',
      cell: (p) => statusCell(p.recent_pipelines[0]?.status, color),
    },
    {
      title: 'WHEN',
      align: 'right',
      cell: (p) => plain(timeAgo(p.recent_pipelines[0]?.created_at, now)),
    },
  ];
  const cells = summary.projects.map((p) => columns.map((c) => c.cell(p)));
  const widths = columns.map((c, i) =>
    Math.max(c.title.length, ...cells.map((row) => row[i]!.plainLength)),
  );
  const gap = 2;
  const fixed = widths.reduce((a, b) => a + b + gap, 0);
  const names = summary.projects.map((p) => p.project_path ?? p.project_name);
  const nameWidth = Math.max(
    12,
    Math.min(Math.max(7, ...names.map((n) => n.length)), width - fixed),
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
  summary.projects.forEach((p, r) => {
    const name = truncate(names[r]!, nameWidth);
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
    [
      paint(color, '1', 'Overall'),
      `${s.total_pipelines} pipelines`,
      paint(color && s.successful > 0, '32', `${s.successful} passed`),
      paint(color && s.failed > 0, '31', `${s.failed} failed`),
      paint(color && s.running > 0, '36', `${s.running} running`),
      paint(
        color,
        rateColour(s.overall_success_rate, finished),
        finished ? `${s.overall_success_rate.toFixed(1)}% success` : 'no finished pipelines',
      ),
      `avg ${formatDuration(s.average_duration)}`,
      `${summary.projects.length} projects`,
    ].join(' · '),
  );
  return lines.join('\n') + '\n';
}
