/**
 * The distiller's fourth stage: every line's priority, higher kept first. Decisive lines bring their
 * context (stack traces, summaries' blocks, their step's lead-in); the failing section's commands,
 * the failing GitHub Actions step's header, the failing command's last words and the log's last
 * lines are kept too.
 */
import { failingStepOf } from './failing-step.ts';
import { isIn, type FailingPlace } from './failing-place.ts';
import { findLastWords } from './last-words.ts';
import { BOILERPLATE_SECTIONS, type Entry, type LogSection } from './log-entry.ts';
import { FRAME } from './stack-frame.ts';
import { COMMAND, LEAD_IN } from './step-lines.ts';

/** How many lines around a decisive line and at the end of the log are kept. */
export interface ContextWindow {
  /** Lines kept before each decisive line. */
  before: number;
  /** Lines kept after each decisive line. */
  after: number;
  /** Last non-empty lines of the log always kept. */
  tailCount: number;
}

/** Each entry's priority and what it was taken from. */
export interface Priorities {
  /** Per entry; 0 is kept only to fill the budget. */
  priority: Float64Array;
  /** The failing GitHub Actions step (entry indices of its header and verdict). */
  step: { header: number; verdict: number } | undefined;
  /** What the failing command printed last (see findLastWords). */
  lastWords: Entry[];
  /** The last non-empty lines of the log. */
  tail: string[];
}

/** Gives every entry a priority (see the module comment). */
export function prioritise(
  entries: Entry[],
  sections: LogSection[],
  failing: FailingPlace,
  { before, after, tailCount }: ContextWindow,
): Priorities {
  const failingSection = failing.section;
  const failingCommand = failing.command;
  const inFailing = (e: Entry) => isIn(failingSection, e);
  const priority = new Float64Array(entries.length);
  const bump = (i: number, p: number) => {
    if (i >= 0 && i < entries.length && p > priority[i]!) priority[i] = p;
  };
  let rank = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.score < 30) continue;
    const bonus = inFailing(e)
      ? 5
      : BOILERPLATE_SECTIONS.has(sections[e.section]?.name ?? '')
        ? -15
        : 0;
    const s = e.score + bonus;
    // Earlier errors usually explain later ones: rank breaks ties in their favour.
    const tie = 1 - Math.min(rank++, 9999) / 10_000;
    if (e.kind === 'warning') {
      // Warnings rarely explain a failure: they only fill budget the failing section left over.
      bump(i, 4 + tie);
      continue;
    }
    bump(i, s * 1.0 + tie);
    for (let d = 1; d <= before; d++) bump(i - d, s - 14 - 4 * d + tie);
    let j = i + 1;
    let frames = 0;
    // Stack traces and "Caused by" chains continue past the usual window.
    while (j < entries.length && frames < 15) {
      const t = entries[j]!.bare;
      if (!(FRAME.test(t) || /^\s*Caused by\b/.test(t))) break;
      bump(j, s - 8 - frames * 0.5 + tie);
      frames++;
      j++;
    }
    for (let d = 1; d <= after; d++) bump(j - 1 + d, s - 12 - 4 * d + tie);
    if (e.kind === 'summary-header') {
      for (let d = 1; d <= 40 && i + d < entries.length; d++) {
        const t = entries[i + d]!.bare;
        if (t === '' || /^[=_-]{5,}/.test(t)) break;
        bump(i + d, s - 2 - d * 0.3 + tie);
      }
    }
  }
  // Commands of the failing section, its header, and the last lines of the log.
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (failingSection && inFailing(e)) {
      if (COMMAND.test(e.bare)) bump(i, e.bare.slice(2).trim() === failingCommand ? 89 : 60);
      else if (e.line === failingSection.startLine) bump(i, 87);
      // Fill: the rest of the failing section, later lines first.
      else
        bump(
          i,
          5 +
            (e.line - failingSection.startLine) /
              Math.max(1, failingSection.endLine - failingSection.startLine),
        );
    } else if (!failingSection && COMMAND.test(e.bare)) {
      bump(i, 50);
    }
  }
  // The lead-in of each error's step (the `##[group]Run …` of a GitHub Actions step, pytest's
  // `____ test_x ____` header, the traced command) says what was running when it failed.
  let leadIn = -1;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.bare !== '' && LEAD_IN.test(e.bare)) leadIn = i;
    else if (e.kind === 'error' && e.score >= 85 && leadIn >= 0 && i - leadIn <= 5000) {
      bump(leadIn, e.score - 10);
    }
  }
  // The header of the GitHub Actions step that failed names the failing command, as `$ cmd` does
  // in a GitLab log.
  const step = failingStepOf(entries);
  if (step) bump(step.header, 89);
  // What the failing command printed last is its error message when no rule knows the tool.
  const lastWords = findLastWords(entries, failingSection);
  for (const e of lastWords) bump(entries.indexOf(e), 88);
  const tail: string[] = [];
  for (let i = entries.length - 1; i >= 0 && tail.length < tailCount; i--) {
    if (entries[i]!.text.trim() === '') continue;
    tail.unshift(entries[i]!.text);
    bump(i, 1000 - tail.length);
  }
  return { priority, step, lastWords, tail };
}
