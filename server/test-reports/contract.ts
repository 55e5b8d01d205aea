/**
 * Wire shapes of the test-report fields and routes (additive to the seed API, docs/api.md and
 * docs/test-reports.md; snake_case like the pipeline resources). A test is named as GitLab's JUnit
 * report names it: its suite (the job's name), classname and name, within one project.
 */
import type { HealthWindow } from '../group-health/contract.ts';

/** A pipeline's test counts (its latest attempts), as GitLab's test report summary gives them. */
export interface PipelineTestCounts {
  total: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
}

/** A failed (or errored) test of a pipeline, with what its history says of it. */
export interface FailedTest {
  suite: string;
  classname: string;
  name: string;
  file: string | null;
  /** The job that ran it, when GitLab names one job for the suite (a parallel job names several). */
  job_id: number | null;
  job_name: string;
  /** `failed` or `error`. */
  status: string;
  /** GitLab's stack trace, cut to a bounded size with a marker saying how much was cut. */
  stack_trace: string | null;
  /** When it started failing on the default branch (ISO), while it still fails there; else null. */
  known_failing_since: string | null;
  /** It failed and passed on the same commit within the last 14 days. */
  flaky: boolean;
}

/** A pipeline and moment a test failed at. */
export interface TestFailureAt {
  pipeline_id: number;
  sha: string;
  ref: string;
  at: string;
}

/** A test failing in the window. */
export interface FailingTest {
  project_id: number;
  project_name: string;
  suite: string;
  classname: string;
  name: string;
  file: string | null;
  /** Reports (attempts included) in which it failed or errored. */
  failures: number;
  /** Reports of its suite in the window whose outcome for it is known. */
  runs: number;
  /** Its newest run on the project's default branch failed. */
  failing_on_default_branch: boolean;
  first_failure: TestFailureAt;
  last_failure: TestFailureAt & { job_id: number | null; web_url: string };
  flaky: boolean;
}

/** GET /api/tests/failing */
export interface FailingTestsResponse {
  window: HealthWindow;
  /** Most failures first. */
  tests: FailingTest[];
}

/** A test that failed and passed on the same commit in the window. */
export interface FlakyTest {
  project_id: number;
  project_name: string;
  suite: string;
  classname: string;
  name: string;
  /** Commits on which it both failed and passed. */
  flakes: number;
  runs: number;
  /** flakes / runs × 100, one decimal (as for flaky jobs). */
  flake_rate: number;
  last_flake: { pipeline_id: number; sha: string; at: string; web_url: string };
}

/** GET /api/health/flaky-tests */
export interface FlakyTestsResponse {
  window: HealthWindow;
  /** Most flakes first. */
  tests: FlakyTest[];
}

/** One result of a test. */
export interface TestResult {
  pipeline_id: number;
  job_id: number | null;
  sha: string;
  ref: string;
  /**
   * GitLab's status (`success`, `failed`, `error`, `skipped`), or `not_failed` where only the
   * summary was read: its suite ran without a failure, so this test did not fail.
   */
  status: string;
  /** Seconds; null where it was not read. */
  duration: number | null;
  at: string;
}

/** GET /api/tests/history */
export interface TestHistoryResponse {
  project_id: number;
  project_name: string;
  classname: string;
  name: string;
  /** Over the history's retention, newest first. */
  results: TestResult[];
  runs: number;
  failures: number;
  flakes: number;
  /** failures / runs × 100, one decimal. */
  failure_rate: number;
  /** flakes / runs × 100, one decimal. */
  flake_rate: number;
}
