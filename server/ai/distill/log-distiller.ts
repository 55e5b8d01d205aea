/**
 * The log distiller: a raw job log in, the focused excerpt a model (or the offline analyser) reads
 * out. Its stages, in order: clean-log.ts, classify-entries.ts, green-diff.ts, failing-place.ts,
 * priorities.ts, excerpt.ts.
 */
import { classifyEntries } from './classify-entries.ts';
import { cleanLog } from './clean-log.ts';
import { renderExcerpt } from './excerpt.ts';
import { findFailingPlace } from './failing-place.ts';
import { GHA_STEP_START } from './failing-step.ts';
import { markSameAsGreen } from './green-diff.ts';
import type { Entry, LogSection } from './log-entry.ts';
import { PASSING_RUN } from './passing-run.ts';
import { prioritise } from './priorities.ts';
import type { FailureCategory } from './rules/rule.ts';

export { stripAnsi } from './clean-log.ts';
export type { LogSection } from './log-entry.ts';

/** Tuning knobs of the distiller; the defaults suit a chat model's prompt. */
export interface DistillOptions {
  /** Most characters of distilled text (default 24,000). */
  budgetChars?: number;
  /** Lines kept before each decisive line (default 4). */
  contextBefore?: number;
  /** Lines kept after each decisive line (default 6). */
  contextAfter?: number;
  /** Last non-empty lines of the log always kept (default 20). */
  tailLines?: number;
  /** Longer lines are cut in the middle (default 1,000). */
  maxLineChars?: number;
  /**
   * The log of the last green run of the same job. Lines whose template (numbers, hashes, paths,
   * timestamps masked) also occurs there are left out before the budget is spent; lines matched
   * by an error rule, commands and step lead-ins are always kept.
   */
  baseline?: string | undefined;
}

/** A line the distiller judged decisive (score ≥ 80), after folding. */
export interface DecisiveLine {
  /** 1-based line number in the cleaned log. */
  line: number;
  text: string;
  /** The text without CI line prefixes (timestamps, log levels), for reading the message. */
  message: string;
  score: number;
  category: FailureCategory | undefined;
  /** How many times this line, or a near-duplicate of it, occurred. */
  occurrences: number;
  /** Name of the innermost section it sits in, if any. */
  section: string | undefined;
  /**
   * The named line rule that gave it its score (see server/ai/distill/rules/precedence.ts), or
   * `ci-prefix/error-annotation` when only the CI system's `##[error]` made it decisive.
   */
  rule?: string;
}

/** The focused view of a job log that goes to a model (and feeds the offline analyser). */
export interface DistilledLog {
  /** The excerpt: kept lines in order, `… [N lines omitted] …` for gaps, folds annotated. */
  text: string;
  /** Characters of the raw log. */
  originalChars: number;
  /** Lines of the cleaned log. */
  totalLines: number;
  /** Log lines represented in `text` (folded repeats count once). */
  keptLines: number;
  sections: LogSection[];
  /** The section the job failed in, when the log has sections. */
  failingSection: LogSection | undefined;
  /** The last `$ command` run before the first decisive error of the failing section. */
  failingCommand: string | undefined;
  /** Decisive lines in log order, near-duplicates folded into `occurrences`. */
  decisive: DecisiveLine[];
  /** Exit code from `ERROR: Job failed: exit code N` or similar, if printed. */
  exitCode: number | undefined;
  /** The last non-empty lines of the log. */
  tail: string[];
  /**
   * What the failing command itself printed last (up to three lines, in log order): the lines just
   * before the CI system's verdict, past blank lines, stack frames and wrappers. When no rule knows
   * the tool, this is usually its error message.
   */
  lastWords: DecisiveLine[];
  /** Lines left out because the last green run printed them too; undefined without a baseline. */
  sameAsGreen: number | undefined;
  /** The container image the job ran in, when the runner printed it. */
  image: string | undefined;
  /** Lines (1-based) where a test run reported that all its tests passed (see PASSING_RUN). */
  passingRuns: number[];
  /**
   * GitHub Actions: the step that failed, from its `##[group]Run …` header to the runner's
   * `Process completed with exit code N`. Earlier steps' errors did not fail the job (a `|| fallback`,
   * `continue-on-error`).
   */
  failingStep: { startLine: number; endLine: number } | undefined;
}

function decisiveLine(e: Entry, sections: LogSection[], occurrences: number): DecisiveLine {
  return {
    line: e.line,
    text: e.text.trim(),
    message: e.bare.trim(),
    score: e.score,
    category: e.category,
    occurrences,
    section: sections[e.section]?.name,
    rule: e.rule,
  };
}

/**
 * Distils a raw GitLab job log into a focused excerpt within a character budget: ANSI and
 * carriage-return overwrites resolved, section markers parsed, repeats folded, error windows
 * (with stack traces, their "Caused by" lead-ins and test summaries) kept around decisive lines,
 * the failing section preferred, and the last lines always kept.
 */
export function distillLog(raw: string, options: DistillOptions = {}): DistilledLog {
  const budget = Math.max(1000, options.budgetChars ?? 24_000);
  const maxLine = Math.max(200, Math.min(options.maxLineChars ?? 1000, Math.floor(budget / 4)));

  const { entries, sections, totalLines, image } = cleanLog(raw, maxLine);
  const folded = classifyEntries(entries);
  const sameAsGreen =
    options.baseline === undefined ? undefined : markSameAsGreen(entries, options.baseline);
  const failing = findFailingPlace(entries, sections);
  const { priority, step, lastWords, tail } = prioritise(entries, sections, failing, {
    before: options.contextBefore ?? 4,
    after: options.contextAfter ?? 6,
    tailCount: options.tailLines ?? 20,
  });
  const { text, keptLines } = renderExcerpt(entries, priority, folded, budget);

  const decisive: DecisiveLine[] = [];
  for (const e of entries) {
    if (e.score >= 80 && e.kind === 'error' && !e.folded) {
      decisive.push(decisiveLine(e, sections, e.count + (folded.get(e) ?? 0)));
    }
  }
  // Every PASSING_RUN alternative is anchored at the line start, so V8 tries position 0 only: a
  // substring pre-check would cost more than the test.
  const passingRuns = entries.filter((e) => PASSING_RUN.test(e.bare)).map((e) => e.line);
  let exitCode: number | undefined;
  for (let i = entries.length - 1; i >= 0 && exitCode === undefined; i--) {
    const m = /(?:exit code|exit status|exited with code|returned a non-zero code:) (\d+)/i.exec(
      entries[i]!.text,
    );
    if (m) exitCode = Number(m[1]);
  }

  return {
    text,
    originalChars: raw.length,
    totalLines,
    keptLines,
    sections,
    failingSection: failing.section,
    // A GitHub Actions log echoes no `$ command`: its failing step's `Run …` header names it.
    failingCommand:
      failing.command ??
      (step
        ? entries[step.header]!.bare.replace(GHA_STEP_START, '').trim() || undefined
        : undefined),
    decisive,
    exitCode,
    tail,
    lastWords: lastWords.map((e) => decisiveLine(e, sections, e.count)),
    sameAsGreen,
    image,
    passingRuns,
    failingStep: step && {
      startLine: entries[step.header]!.line,
      endLine: entries[step.verdict]!.line,
    },
  };
}
