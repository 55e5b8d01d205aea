// What the built-in analyser finds in a failed job, as plain types: the pipeline analysis, the
// prompts and the provider port's task read them, so they import no code that produces them.
import type { GitLabJob } from '../gitlab/wire.ts';
import type { FailureCategory } from './distill/rules/rule.ts';
import type { DecisiveLine, DistilledLog } from './distill/log-distiller.ts';
import type { JobContext } from './job-context.ts';

/** Words a reader sees for each root-cause category. */
export const CATEGORY_LABELS: Record<FailureCategory, string> = {
  test_failure: 'Test failure',
  compile_error: 'Compile, type-check or lint error',
  dependency_network: 'Dependency or network problem',
  oom_killed: 'Out of memory / killed',
  timeout: 'Timeout',
  permission_auth: 'Permission or authentication problem',
  config_yaml: 'Configuration / YAML error',
  script_error: 'Script error',
};

/** The offline analyser's structured finding, shared by job and pipeline analyses. */
export interface Diagnosis {
  category: FailureCategory;
  /** One sentence naming the failing step. */
  failingStep: string;
  /** Decisive lines worth quoting, most telling first, in log order. */
  evidence: DecisiveLine[];
  /** `file:line[:col]` references the failure points at, the project's own files first. */
  locations: string[];
  /** A correction the tool itself proposed (`Did you mean "id"?`), quoted as printed. */
  suggestion?: string | undefined;
  nextSteps: string[];
  /** A short, stable description of the main error, used to merge duplicates across jobs. */
  signature: string;
  /**
   * True when the category rests on generic error lines only (no rule recognised the tool's
   * wording): a fallback, not a finding.
   */
  generic: boolean;
}

/** One failed job of a pipeline, distilled and diagnosed. */
export interface JobFinding {
  job: GitLabJob;
  context: JobContext;
  distilled: DistilledLog;
  diagnosis: Diagnosis;
}

/** Failed jobs that fail the same way (same category and main error). */
export interface ProblemGroup {
  diagnosis: Diagnosis;
  jobs: JobFinding[];
}
