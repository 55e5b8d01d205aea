/**
 * Parses a GitLab job log (ANSI SGR colours, `\r` progress overwrites, `section_start`/`section_end`
 * markers) into lines of styled segments and a tree of collapsible sections. Pure and synchronous:
 * a multi-MB log parses in one pass with a single regex per line, and the viewer virtualises lines.
 */

/** The visual style of a run of text. Colours 0–15 map to theme classes; others are CSS colours. */
export interface SegmentStyle {
  fg?: number | string;
  bg?: number | string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  dim?: boolean;
}

/** A run of text with one style. */
export interface Segment {
  text: string;
  style: SegmentStyle | null;
}

/** One rendered log line. */
export interface LogLine {
  segments: Segment[];
  /** The plain text (for search and copy). */
  text: string;
  /** Indexes (into `sections`) of the sections enclosing this line, outermost first. */
  sections: number[];
  /** When this line is a section header, the section's index. */
  headerOf?: number;
  /** 0-based index of the raw log line (split at `\n`) it came from, as the service counts lines. */
  raw: number;
}

/** A GitLab collapsible section. */
export interface LogSection {
  name: string;
  /** Index of its header line. */
  headerLine: number;
  /** Index of its last line (inclusive); the header line itself when empty. */
  endLine: number;
  /** Whether GitLab asked for it to start collapsed (`[collapsed=true]`). */
  collapsed: boolean;
  /** Duration in seconds from the marker timestamps, when both are known. */
  durationSeconds: number | null;
  depth: number;
}

/** A parsed log. */
export interface ParsedLog {
  lines: LogLine[];
  sections: LogSection[];
}

const BASIC = [30, 31, 32, 33, 34, 35, 36, 37];
const BRIGHT = [90, 91, 92, 93, 94, 95, 96, 97];

// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[([0-9;?]*)([A-Za-z])/g;
// eslint-disable-next-line no-control-regex
const ERASE = /\x1b\[0K/g;
const SECTION =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b\[0K)?section_(start|end):(\d+):([A-Za-z0-9_.-]+)(\[[^\]]*\])?\r?(?:\x1b\[0K)?/g;

function xterm256(n: number): string {
  if (n < 16) return String(n);
  if (n < 232) {
    const i = n - 16;
    const steps = [0, 95, 135, 175, 215, 255];
    return `rgb(${steps[Math.floor(i / 36)]},${steps[Math.floor(i / 6) % 6]},${steps[i % 6]})`;
  }
  const level = 8 + (n - 232) * 10;
  return `rgb(${level},${level},${level})`;
}

function colour(n: number): number | string {
  const c = xterm256(n);
  return n < 16 ? Number(c) : c;
}

/** Applies one SGR parameter list to a style, returning the new style (null = default). */
export function applySgr(current: SegmentStyle | null, params: string): SegmentStyle | null {
  const codes = params === '' ? [0] : params.split(';').map((p) => (p === '' ? 0 : Number(p)));
  let style: SegmentStyle = { ...(current ?? {}) };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) style = {};
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 22) {
      delete style.bold;
      delete style.dim;
    } else if (code === 23) delete style.italic;
    else if (code === 24) delete style.underline;
    else if (code === 39) delete style.fg;
    else if (code === 49) delete style.bg;
    else if (BASIC.includes(code)) style.fg = code - 30;
    else if (BRIGHT.includes(code)) style.fg = code - 90 + 8;
    else if (code >= 40 && code <= 47) style.bg = code - 40;
    else if (code >= 100 && code <= 107) style.bg = code - 100 + 8;
    else if (code === 38 || code === 48) {
      const key = code === 38 ? 'fg' : 'bg';
      if (codes[i + 1] === 5 && codes[i + 2] !== undefined) {
        style[key] = colour(codes[i + 2]!);
        i += 2;
      } else if (codes[i + 1] === 2 && codes[i + 4] !== undefined) {
        style[key] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
        i += 4;
      }
    }
  }
  return Object.keys(style).length === 0 ? null : style;
}

/** Keeps what a terminal would show after carriage returns: the text after the last `\r`. */
function lastCarriageReturn(line: string): string {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  const cr = trimmed.lastIndexOf('\r');
  return cr === -1 ? trimmed : trimmed.slice(cr + 1);
}

/** Splits a line (already free of section markers) into styled segments. */
function styleLine(
  raw: string,
  state: { style: SegmentStyle | null },
): { segments: Segment[]; text: string } {
  const segments: Segment[] = [];
  let text = '';
  let last = 0;
  ESCAPE.lastIndex = 0;
  const push = (chunk: string) => {
    if (chunk === '') return;
    text += chunk;
    const prev = segments[segments.length - 1];
    if (prev && prev.style === state.style) prev.text += chunk;
    else segments.push({ text: chunk, style: state.style });
  };
  for (let m = ESCAPE.exec(raw); m; m = ESCAPE.exec(raw)) {
    push(raw.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] === 'm') state.style = applySgr(state.style, m[1]!);
  }
  push(raw.slice(last));
  return { segments, text };
}

/**
 * An incremental log parser: feed it the log in chunks (a running job's new output, or a big log in
 * slices between frames) and read the lines parsed so far. Only complete lines are parsed until `end`.
 */
export class LogParser {
  private readonly lines: LogLine[] = [];
  private readonly sections: LogSection[] = [];
  private readonly open: { index: number; start: number }[] = [];
  private readonly state = { style: null as SegmentStyle | null };
  private partial = '';
  /** Raw lines parsed so far: the next raw line's index. */
  private rawIndex = 0;

  /** Characters consumed so far, including the buffered partial line. */
  consumed = 0;

  /** Adds text; parses every line it completes. Returns the number of lines parsed so far. */
  push(text: string): number {
    this.consumed += text.length;
    const all = this.partial + text;
    const lastNewline = all.lastIndexOf('\n');
    if (lastNewline === -1) {
      this.partial = all;
      return this.lines.length;
    }
    this.partial = all.slice(lastNewline + 1);
    for (const raw of all.slice(0, lastNewline).split('\n')) this.parseLine(raw);
    return this.lines.length;
  }

  /** Parses the trailing line without a newline (the log is complete). */
  end(): void {
    if (this.partial !== '') this.parseLine(this.partial);
    this.partial = '';
  }

  /** The log parsed so far; sections still open extend to the last line. */
  result(): ParsedLog {
    const last = this.lines.length - 1;
    for (const o of this.open) {
      const s = this.sections[o.index]!;
      s.endLine = Math.max(s.headerLine, last);
    }
    return { lines: this.lines, sections: this.sections };
  }

  private enclosing(): number[] {
    return this.open.map((o) => o.index);
  }

  private closeSection(name: string, ts: number): void {
    // Close the named section and anything left open inside it (GitLab logs can be truncated).
    const at = this.open.map((o) => this.sections[o.index]!.name).lastIndexOf(name);
    if (at === -1) return;
    while (this.open.length > at) {
      const o = this.open.pop()!;
      const section = this.sections[o.index]!;
      section.endLine = Math.max(section.headerLine, this.lines.length - 1);
      if (this.open.length === at) section.durationSeconds = Math.max(0, ts - o.start);
    }
  }

  private parseLine(rawLine: string): void {
    const { lines, sections, open, state } = this;
    const raw = this.rawIndex++;
    if (!rawLine.includes('section_')) {
      const { segments, text } = styleLine(lastCarriageReturn(rawLine), state);
      lines.push({ segments, text, sections: this.enclosing(), raw });
      return;
    }
    SECTION.lastIndex = 0;
    // Tokenise into text chunks and markers; a start marker's header is the chunk right after it.
    let last = 0;
    let headerOf: number | undefined;
    const flushText = (chunk: string) => {
      const visible = lastCarriageReturn(chunk);
      if (headerOf !== undefined) {
        const { segments, text } = styleLine(visible, state);
        const section = sections[headerOf]!;
        section.headerLine = lines.length;
        section.endLine = lines.length;
        lines.push({ segments, text, sections: this.enclosing().slice(0, -1), headerOf, raw });
        headerOf = undefined;
      } else if (visible.replace(ERASE, '').trim() !== '') {
        const { segments, text } = styleLine(visible, state);
        lines.push({ segments, text, sections: this.enclosing(), raw });
      }
    };
    for (let m = SECTION.exec(rawLine); m; m = SECTION.exec(rawLine)) {
      flushText(rawLine.slice(last, m.index));
      last = m.index + m[0].length;
      const [, kind, ts, name, options] = m;
      if (kind === 'end') {
        this.closeSection(name!, Number(ts));
        continue;
      }
      headerOf = sections.length;
      sections.push({
        name: name!,
        headerLine: -1,
        endLine: -1,
        collapsed: /collapsed=true/.test(options ?? ''),
        durationSeconds: null,
        depth: open.length,
      });
      open.push({ index: headerOf, start: Number(ts) });
    }
    flushText(rawLine.slice(last));
  }
}

/** Parses a whole job log at once. */
export function parseLog(log: string): ParsedLog {
  const parser = new LogParser();
  parser.push(log);
  parser.end();
  return parser.result();
}

/** Indexes of the lines visible when the sections in `collapsed` are folded. */
export function visibleLines(log: ParsedLog, collapsed: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < log.lines.length; i++) {
    const folded = log.lines[i]!.sections.find((s) => collapsed.has(s));
    if (folded === undefined) out.push(i);
    // Skip the rest of the folded section at once.
    else i = Math.max(i, log.sections[folded]!.endLine);
  }
  return out;
}

/** The sections GitLab wants collapsed at first. */
export function initiallyCollapsed(log: ParsedLog): Set<number> {
  const set = new Set<number>();
  log.sections.forEach((s, i) => {
    if (s.collapsed) set.add(i);
  });
  return set;
}

/** Line indexes whose text contains `query` (case-insensitive). */
export function searchLog(log: ParsedLog, query: string): number[] {
  if (query === '') return [];
  const needle = query.toLowerCase();
  const hits: number[] = [];
  log.lines.forEach((line, i) => {
    if (line.text.toLowerCase().includes(needle)) hits.push(i);
  });
  return hits;
}

/** Removes ANSI escapes and section markers: the text a user would copy. */
export function stripLog(log: string): string {
  return parseLog(log)
    .lines.map((l) => l.text)
    .join('\n');
}

/**
 * The parsed lines the service marked as errors (`error_lines`: raw line indices), in order: each
 * raw line maps to the first parsed line it produced; lines the parser dropped map to the next one.
 */
export function errorRows(log: ParsedLog, rawErrors: readonly number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const r of rawErrors) {
    while (at < log.lines.length && log.lines[at]!.raw < r) at++;
    if (at >= log.lines.length) break;
    if (out.at(-1) !== at) out.push(at);
  }
  return out;
}
