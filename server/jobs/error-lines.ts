import { classifyLine } from '../ai/distill/rules/classify-line.ts';
import { stripAnsi } from '../ai/distill/log-distiller.ts';

/** At most this many error lines are listed; "next error" past them is not useful in practice. */
const MAX_ERROR_LINES = 1000;

const SECTION_MARKER = /section_(?:start|end):\d+:[A-Za-z0-9_.-]+(?:\[[^\]]*\])?/g;
// FF_TIMESTAMPS runners prefix every line with `2024-05-01T10:00:00.123456Z 00O `.
const RUNNER_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z [0-9a-f]{2}[OE]\+? ?/;

/** What a terminal shows of a line: the text after the last carriage return that is not blank. */
function visibleText(raw: string): string {
  let text = stripAnsi(raw.replace(SECTION_MARKER, '')).replace(RUNNER_TIMESTAMP, '');
  if (text.includes('\r')) {
    const parts = text.split('\r');
    text = parts.findLast((p) => p.trim() !== '') ?? '';
  }
  return text;
}

/**
 * Which lines of a job log are errors, by the same rules the log distiller ranks lines with: the
 * 0-based indices of `trace.split('\n')` whose text a rule marks as an error. The dashboard opens a
 * failed job's log at the first of them and steps through the rest.
 */
export function errorLineIndices(trace: string): number[] {
  const out: number[] = [];
  let index = 0;
  for (let start = 0; start < trace.length && out.length < MAX_ERROR_LINES; index++) {
    let end = trace.indexOf('\n', start);
    if (end === -1) end = trace.length;
    const raw = trace.slice(start, end);
    if (classifyLine(visibleText(raw)).kind === 'error') out.push(index);
    start = end + 1;
  }
  return out;
}
