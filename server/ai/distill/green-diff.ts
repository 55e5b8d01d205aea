/**
 * "What changed": lines of a failed log that the last green run of the same job printed too say
 * nothing about the failure, once the parts that vary between runs are masked.
 */
import { stripCiPrefix } from './ci-prefix.ts';
import { resolveCarriageReturns, SECTION_MARKER, stripAnsi } from './clean-log.ts';
import type { Entry } from './log-entry.ts';
import { COMMAND, LEAD_IN } from './step-lines.ts';

// Run-specific parts of a line, masked so that the same step prints the same template in every
// run: timestamps and times, UUIDs, hashes, paths, then any remaining number.
const TIMESTAMP =
  /\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const HASH = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi;
const PATH = /(?:[A-Za-z]:)?(?:[\\/][\w.@+~-]+){2,}[\\/]?/g;
const NUMBER = /\d+(?:[.,]\d+)*/g;

/**
 * The template of a log line: CI prefixes removed and timestamps, UUIDs, hashes, paths and
 * numbers masked, so a line of a green run and the same line of a failed run compare equal.
 */
export function lineTemplate(line: string): string {
  return stripCiPrefix(line)
    .replace(TIMESTAMP, '<t>')
    .replace(UUID, '<id>')
    .replace(HASH, '<h>')
    .replace(PATH, '<p>')
    .replace(NUMBER, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The set of line templates of a (green) log, cleaned of ANSI escapes and carriage returns. */
export function templatesOf(cleanLines: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const line of cleanLines) {
    const t = lineTemplate(line);
    if (t !== '') out.add(t);
  }
  return out;
}

/**
 * Marks the entries whose template the green log (`baseline`, raw) printed too as `green` and
 * returns how many lines they hold. Error lines, summary headers, commands and step lead-ins are
 * never marked: they say what ran and what failed even when the green run printed them as well.
 */
export function markSameAsGreen(entries: Entry[], baseline: string): number {
  const green = templatesOf(
    stripAnsi(baseline)
      .split('\n')
      .map((l) => resolveCarriageReturns(l.replace(SECTION_MARKER, ''))),
  );
  let sameAsGreen = 0;
  for (const e of entries) {
    if (e.kind === 'error' || e.kind === 'summary-header') continue;
    if (e.bare === '' || COMMAND.test(e.bare) || LEAD_IN.test(e.bare)) continue;
    if (green.has(lineTemplate(e.text))) {
      e.green = true;
      sameAsGreen += e.count;
    }
  }
  return sameAsGreen;
}
