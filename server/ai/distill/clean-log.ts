/**
 * The distiller's first stage: a raw job log as the lines a terminal would show, without escapes,
 * GitLab section markers or the runner's timestamps.
 */
import { expandAnsibleResult } from './ansible-result.ts';
import { stripCiPrefix } from './ci-prefix.ts';
import type { Entry, LogSection } from './log-entry.ts';

// CSI (colours, erase-line), OSC (titles, hyperlinks) and the other string controls of ECMA-48
// §8.3 (APC, DCS, PM, SOS: Buildkite stamps every line with an APC `ESC _bk;t=<ms> BEL`), charset
// selection, two-byte escapes, and other C0 controls except \t, \n and \r (carriage returns are
// resolved per line below).
const ANSI =
  // eslint-disable-next-line no-control-regex
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]_P^X][^\x07\x1b]*(?:\x07|\x1b\\)|[()*+][0-9A-Za-z]|[@-Z\\-_])|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
/** A GitLab `section_start:<ts>:<name>[options]` or `section_end:<ts>:<name>` marker. */
export const SECTION_MARKER = /section_(start|end):(\d+):([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?/g;
// FF_TIMESTAMPS runners prefix every line with `2024-05-01T10:00:00.123456Z 00O `.
const RUNNER_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z [0-9a-f]{2}[OE]\+? ?/;

const IMAGE_LINE =
  /(?:Using (?:Docker|Kubernetes|docker-autoscaler|Podman) executor with image|Using docker image \S+ for|Pulling docker image) ([^\s,]+)/;
/** Strips ANSI escapes and control characters (exported for the bench baseline and tests). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** The text a terminal would show for a line that carriage returns overwrote. */
export function resolveCarriageReturns(line: string): string {
  if (!line.includes('\r')) return line;
  // A terminal shows what was written after the last carriage return (progress bars rewrite the
  // line); a trailing \r (CRLF logs) leaves the text before it.
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i]!.trim() !== '') return parts[i]!;
  return '';
}

function cutLongLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const head = Math.floor(max * 0.7);
  const tail = max - head;
  return `${line.slice(0, head)} …[${line.length - max} chars cut]… ${line.slice(-tail)}`;
}

/** The cleaned log: its lines (consecutive repeats folded), its sections and the job's image. */
export interface CleanLog {
  entries: Entry[];
  sections: LogSection[];
  /** Lines of the cleaned log. */
  totalLines: number;
  /** The container image the job ran in, when the runner printed it. */
  image: string | undefined;
}

/**
 * Cleans a raw job log and folds consecutive repeats: one regex pass for escapes, then per line
 * section markers, carriage-return overwrites, runner timestamps, Ansible results opened up and
 * lines longer than `maxLine` cut in the middle.
 */
export function cleanLog(raw: string, maxLine: number): CleanLog {
  const rawLines = stripAnsi(raw).split('\n');
  if (rawLines.length > 0 && rawLines[rawLines.length - 1] === '') rawLines.pop();
  const sections: LogSection[] = [];
  const open: { index: number; ts: number }[] = [];
  const entries: Entry[] = [];
  let lineNo = 0;
  let image: string | undefined;
  for (let i = 0; i < rawLines.length; i++) {
    let text = rawLines[i]!;
    if (image === undefined && text.includes('image ')) {
      // GitLab runner: `Using Docker executor with image node:22 ...`, `Using docker image sha256:… for node:22 …`.
      image = IMAGE_LINE.exec(text)?.[1];
    }
    if (text.charCodeAt(4) === 45 && RUNNER_TIMESTAMP.test(text)) {
      text = text.replace(RUNNER_TIMESTAMP, '');
    }
    let startedHere = false;
    if (text.includes('section_')) {
      SECTION_MARKER.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = SECTION_MARKER.exec(text)) !== null) {
        const [, kind, ts, name] = m;
        if (kind === 'start') {
          sections.push({
            name: name!,
            header: '',
            startLine: lineNo + 1,
            endLine: lineNo + 1,
            closed: false,
            durationSec: undefined,
          });
          open.push({ index: sections.length - 1, ts: Number(ts) });
          startedHere = true;
        } else {
          // Close the innermost open section with this name (and anything left open inside it).
          for (let k = open.length - 1; k >= 0; k--) {
            const s = sections[open[k]!.index]!;
            if (s.name !== name) continue;
            s.closed = true;
            s.endLine = Math.max(s.startLine, lineNo);
            s.durationSec = Math.max(0, Number(ts) - open[k]!.ts);
            for (const inner of open.splice(k)) {
              const si = sections[inner.index]!;
              if (!si.closed) si.endLine = Math.max(si.startLine, lineNo);
            }
            break;
          }
        }
      }
      text = text.replace(SECTION_MARKER, '');
    }
    text = resolveCarriageReturns(text).trimEnd();
    if (startedHere) {
      const s = sections[sections.length - 1]!;
      s.header = text.trim();
    }
    // A line holding only a section_end marker is not part of the visible log.
    if (!startedHere && text === '' && /section_end/.test(rawLines[i]!)) continue;
    const section = open.length > 0 ? open[open.length - 1]!.index : -1;
    const lines =
      text.length > maxLine && !rawLines[i + 1]?.includes('...ignoring')
        ? expandAnsibleResult(text)
        : [text];
    for (const line of lines) {
      const cut = cutLongLine(line, maxLine);
      lineNo++;
      const prev = entries[entries.length - 1];
      if (prev && prev.text === cut && prev.section === section && cut !== '') {
        prev.count++;
        continue;
      }
      entries.push({
        text: cut,
        bare: stripCiPrefix(cut),
        count: 1,
        line: lineNo,
        section,
        score: 0,
        kind: 'noise',
        category: undefined,
        rule: undefined,
      });
    }
  }
  const totalLines = lineNo;
  for (const o of open) {
    const s = sections[o.index]!;
    s.endLine = Math.max(s.startLine, totalLines);
  }
  return { entries, sections, totalLines, image };
}
