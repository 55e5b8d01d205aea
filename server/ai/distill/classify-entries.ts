/**
 * The distiller's second stage: every line classified by the rules, near-duplicate errors folded,
 * and the failures an Ansible playbook ignores taken back.
 */
import { CI_ERROR_ANNOTATION, CI_ERROR_ANNOTATION_RULE } from './ci-prefix.ts';
import type { Entry } from './log-entry.ts';
import { lineSignature } from './line-signature.ts';
import { classifyLine, type LineClass } from './rules/classify-line.ts';
import { buildFamily } from './rules/families/build.ts';

const LOCATION_IN_LINE = /[\w./-]+\.[A-Za-z]\w*:\d+(?::\d+)?/;
// A rustc or Clippy diagnostic's first line (not cargo's closing summary) and the place under it.
const RUSTC_MESSAGE = /^error(?:\[E\d{4}\])?: (?!could not compile\b|aborting due to\b)/;
const RUSTC_PLACE = /^\s*--> \S+:\d+:\d+\s*$/;
// What a rustc diagnostic is scored as: the compile-error rule's own score and category.
const COMPILE_ERROR = buildFamily.rules.find((r) => r.name === 'build/compile-error')!;

/**
 * Classifies every entry (score, kind, category, rule) and folds near-duplicate errors (same
 * message, different numbers): the entries between the first and the last of a kind are marked
 * `folded`. Returns, for each first one, how many lines were folded into it.
 */
export function classifyEntries(entries: Entry[]): Map<Entry, number> {
  const bySignature = new Map<string, { first: Entry; last: Entry; count: number }>();
  const folded = new Map<Entry, number>();
  // A log repeats many of its lines away from each other (the same warning per file, the same test
  // output per run): a line is classified once per log.
  const classOf = new Map<string, LineClass>();
  for (const e of entries) {
    if (e.text === '') continue;
    let c = classOf.get(e.bare);
    if (c === undefined) {
      c = classifyLine(e.bare);
      classOf.set(e.bare, c);
    }
    e.score = c.score;
    e.kind = c.kind;
    e.category = c.category;
    e.rule = c.rule;
    // The CI system itself flagged the line as an error.
    if (e.score < 85 && e.text.includes('##[error]') && CI_ERROR_ANNOTATION.test(e.text)) {
      e.score = 85;
      e.kind = 'error';
      e.category ??= 'script_error';
      e.rule = CI_ERROR_ANNOTATION_RULE;
    }
    if (e.score >= 80 && e.kind === 'error') {
      // The same message at another source location is another error, not a repeat.
      const at = LOCATION_IN_LINE.exec(e.bare);
      const sig = at ? `${lineSignature(e.bare)}@${at[0]}` : lineSignature(e.bare);
      const seen = bySignature.get(sig);
      if (!seen) {
        bySignature.set(sig, { first: e, last: e, count: e.count });
      } else {
        seen.count += e.count;
        // Keep the first and the last verbatim (`attempt 1/5 failed` … `attempt 5/5 failed`: the
        // last is nearest the failure); the ones between only add to the first one's count.
        if (seen.last !== seen.first) {
          folded.set(seen.first, (folded.get(seen.first) ?? 0) + seen.last.count);
          seen.last.folded = true;
        }
        seen.last = e;
      }
    }
  }

  // rustc and Clippy print a diagnostic as `error: message` with its place on the next line
  // (`  --> src/x.rs:12:5`, rustc's human emitter, rustc_errors/src/emitter.rs): a compile error
  // even when its words are no rule's (a Clippy lint under `-D warnings`), so it outranks cargo's
  // closing `error: could not compile … due to N previous errors`.
  for (let i = 0; i + 1 < entries.length; i++) {
    const e = entries[i]!;
    if (e.kind !== 'error' || e.score >= COMPILE_ERROR.score || !RUSTC_MESSAGE.test(e.bare)) {
      continue;
    }
    if (!RUSTC_PLACE.test(entries[i + 1]!.bare)) continue;
    e.score = COMPILE_ERROR.score;
    e.category = COMPILE_ERROR.category;
    e.rule = COMPILE_ERROR.name;
  }

  // An Ansible task whose failure the playbook ignores (`ignore_errors`) is followed by
  // `...ignoring`: its `fatal: … FAILED!` did not fail the job.
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.bare.trim() !== '...ignoring') continue;
    let j = i - 1;
    while (j > 0 && entries[j]!.bare.trim() === '') j--;
    const failed = entries[j]!;
    if (failed.kind === 'error' && /\bFAILED!/.test(failed.bare)) {
      failed.kind = 'noise';
      failed.score = 10;
      failed.category = undefined;
    }
  }
  return folded;
}
