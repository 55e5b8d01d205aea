/** What the distiller's stages share: one cleaned log line with its verdicts, and a GitLab section. */
import type { FailureCategory, LineKind } from './rules/rule.ts';

/** A GitLab `section_start`/`section_end` pair (1-based cleaned line numbers, inclusive). */
export interface LogSection {
  name: string;
  /** The section's visible header, e.g. `Executing "step_script" stage of the job script`. */
  header: string;
  startLine: number;
  /** Last line inside the section; the log's last line when the section never ended. */
  endLine: number;
  /** False when the log ends inside the section (the job died in it). */
  closed: boolean;
  /** Seconds between start and end markers, when both carried timestamps. */
  durationSec: number | undefined;
}

/** One line of the cleaned log (consecutive repeats folded into it) and what the stages found. */
export interface Entry {
  text: string;
  /** The text without CI line prefixes (timestamps, build-time stamps, log levels): what rules see. */
  bare: string;
  /** Consecutive identical lines folded into this one. */
  count: number;
  /** 1-based line number of the first of them in the cleaned log. */
  line: number;
  /** Index of the innermost section it sits in, -1 outside sections. */
  section: number;
  score: number;
  kind: LineKind;
  category: FailureCategory | undefined;
  /** The rule that gave the score (see LineClass.rule). */
  rule: string | undefined;
  /** A near-duplicate of an earlier error: shown only as that line's `[+N similar lines]`. */
  folded?: boolean;
  /** Printed by the last green run too (see DistillOptions.baseline). */
  green?: boolean;
}

/**
 * Sections the runner itself opens around the script (artifact upload, cache): they print errors
 * of their own ("No files to upload") that seldom explain the failure.
 */
export const BOILERPLATE_SECTIONS = new Set([
  'prepare_executor',
  'prepare_script',
  'resolve_secrets',
  'restore_cache',
  'download_artifacts',
  'after_script',
  'archive_cache',
  'archive_cache_on_failure',
  'upload_artifacts_on_success',
  'upload_artifacts_on_failure',
  'cleanup_file_variables',
]);
