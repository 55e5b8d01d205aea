/**
 * Wire shapes of the group-health routes (additive to the seed API, docs/api.md; snake_case like
 * the pipeline resources). The service computes every number; the dashboard only renders them.
 */
import type { Pagination } from '../pagination.ts';

/** The time span a health answer covers. */
export interface HealthWindow {
  /** The `since` it was asked for, e.g. `7d`. */
  since: string;
  from: string;
  to: string;
}

/** The merge request behind an MR pipeline (title and link looked up once, cached). */
export interface MergeRequestRef {
  iid: number;
  /** Null until GitLab answered the lookup. */
  title: string | null;
  web_url: string;
}

/** A pipeline as the health views list it. */
export interface HealthPipeline {
  pipeline_id: number;
  project_id: number;
  status: string;
  ref: string;
  /** What to show for the ref: the branch, or `!439` for a merge-request pipeline. */
  ref_label: string;
  merge_request: MergeRequestRef | null;
  source: string;
  sha: string;
  short_sha: string;
  commit_title: string | null;
  commit_author: string | null;
  user: { username: string; name: string; avatar_url: string } | null;
  created_at: string;
  finished_at: string | null;
  duration: number | null;
  web_url: string;
}

/** successful / (successful + failed) × 100, one decimal (DESIGN §3.1), over some pipelines. */
export interface SuccessRate {
  successful: number;
  failed: number;
  success_rate: number;
}

/** The §3.1 success rate split by which pipelines count. */
export interface SuccessRateSplit {
  default_branch: SuccessRate;
  merge_requests: SuccessRate;
  all: SuccessRate;
}

/** How long broken default branches took to go green again, over the window. */
export interface TimeToFixStats {
  /** Red → green recoveries whose fixing pipeline is in the window. */
  fixes: number;
  median_seconds: number | null;
  p90_seconds: number | null;
  max_seconds: number | null;
  mean_seconds: number | null;
}

/** A default branch's state: its newest finished (success/failed) pipeline decides. */
export type DefaultBranchState = 'broken' | 'passing' | 'unknown';

/** A job that failed in the pipeline that broke a default branch. */
export interface BrokenJob {
  job_id: number;
  name: string;
  stage: string;
  allow_failure: boolean;
  failure_reason: string | null;
  web_url: string;
}

/** One project's default-branch health. */
export interface DefaultBranchHealth {
  project_id: number;
  project_name: string;
  project_path: string;
  web_url: string;
  default_branch: string;
  state: DefaultBranchState;
  /** The newest default-branch pipeline, of any status. */
  latest: HealthPipeline | null;
  /** When broken: the first failed pipeline after the last green one. */
  broken_since: HealthPipeline | null;
  /**
   * Additive. When broken: the jobs that failed in `broken_since` (final attempts), blocking ones
   * first; empty when its jobs were not read.
   */
  broken_jobs?: BrokenJob[];
  broken_for_seconds: number | null;
  /** When broken: default-branch pipelines after `broken_since`, newest first (at most 20). */
  pipelines_since: HealthPipeline[];
  pipelines_since_count: number;
  time_to_fix: TimeToFixStats;
  success_rates: SuccessRateSplit;
}

/** GET /api/health/default-branches */
export interface DefaultBranchesResponse {
  window: HealthWindow;
  broken: number;
  passing: number;
  unknown: number;
  /** Broken first (longest broken first), then passing, then unknown; by name within each. */
  projects: DefaultBranchHealth[];
  success_rates: SuccessRateSplit;
  time_to_fix: TimeToFixStats;
}

/** How a flake showed itself. */
export type FlakeKind = 'retry' | 'same-commit';

/** The newest flake of a job name. */
export interface FlakeOccurrence {
  project_id: number;
  project_name: string;
  pipeline_id: number;
  /** The failed attempt. */
  job_id: number;
  sha: string;
  kind: FlakeKind;
  at: string;
  web_url: string;
}

/** A job name that flaked in the window. */
export interface FlakyJob {
  job_name: string;
  flakes: number;
  /** Runs of this job name in the window (one per pipeline that ran it, retries folded). */
  runs: number;
  /** flakes / runs × 100, one decimal. */
  flake_rate: number;
  last_flake: FlakeOccurrence;
  projects: { project_id: number; project_name: string; flakes: number }[];
  /**
   * Additive: the tests of this job's suite that failed and passed on the same commit in the
   * window (`classname name`), when its JUnit reports say; what explains the job's flakes.
   */
  flaky_tests?: string[];
}

/** GET /api/health/flaky-jobs */
export interface FlakyJobsResponse {
  window: HealthWindow;
  /** Most flakes first. */
  jobs: FlakyJob[];
}

/** The rule a regression is detected by (returned with every answer, so it is never implicit). */
export interface RegressionRule {
  recent_runs: number;
  baseline_runs: number;
  min_baseline_runs: number;
  ratio: number;
  min_increase_seconds: number;
}

/** The run where a slowdown started. */
export interface SlowRun {
  pipeline_id: number;
  job_id: number | null;
  sha: string;
  short_sha: string;
  commit_title: string | null;
  commit_author: string | null;
  created_at: string;
  duration: number;
  web_url: string;
}

/** A job (or a project's default-branch pipeline) that got materially slower. */
export interface DurationRegression {
  kind: 'job' | 'pipeline';
  project_id: number;
  project_name: string;
  /** Null for a pipeline regression. */
  job_name: string | null;
  recent_median: number;
  baseline_median: number;
  /** recent_median / baseline_median, two decimals. */
  ratio: number;
  baseline_runs: number;
  first_slow: SlowRun;
}

/** GET /api/health/regressions */
export interface RegressionsResponse {
  rule: RegressionRule;
  /** Largest slowdown first. */
  regressions: DurationRegression[];
}

/** One UTC day of a duration trend (integer seconds, nearest-rank percentiles). */
export interface TrendDay {
  day: string;
  runs: number;
  duration_p50: number | null;
  duration_p90: number | null;
  queued_p50: number | null;
  queued_p90: number | null;
}

/** A job's (or the pipeline's) daily trend. */
export interface JobTrend {
  job_name: string;
  days: TrendDay[];
  regression: DurationRegression | null;
}

/** GET /api/health/trends?projectId= */
export interface TrendsResponse {
  project_id: number;
  project_name: string;
  from: string;
  to: string;
  /**
   * The UTC days the data actually covers: the first and last day with a run in any series (null
   * when none), and how many calendar days that spans — "7 days" although 30 were asked for.
   */
  data_from: string | null;
  data_to: string | null;
  data_days: number;
  /** Successful default-branch pipelines. */
  pipeline: JobTrend;
  /** Successful runs per job name, by name. */
  jobs: JobTrend[];
}

/** A failed job of a failed pipeline (its final attempt). */
export interface FailedJob {
  job_id: number;
  name: string;
  stage: string;
  failure_reason: string | null;
  allow_failure: boolean;
  /** The job name flaked in this project within the window. */
  flaky: boolean;
  /** This very failure was a flake: the job passed on the same commit (a retry or another pipeline). */
  passed_on_same_commit: boolean;
  web_url: string;
}

/** A failed pipeline in the failures list. */
export interface FailureEntry {
  project_id: number;
  project_name: string;
  default_branch: boolean;
  pipeline: HealthPipeline;
  failed_jobs: FailedJob[];
  /** Every blocking failed job is a known flaky job: likely noise, a retry may pass. */
  flaky: boolean;
}

/** GET /api/pipelines/failures */
export interface FailuresResponse {
  window: HealthWindow;
  failures: FailureEntry[];
  pagination: Pagination;
}
