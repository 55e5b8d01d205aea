/**
 * Wire types: what GitLab's REST v4 API sends, field for field (only the fields we use or the
 * simulator must emit), and GitLab's list of pipeline statuses. A leaf that imports nothing, so the
 * simulator may use it without reaching the client. Domain and API types live elsewhere;
 * server/summary/from-gitlab.ts converts.
 * Quirks worth knowing: the pipeline *list* has no duration/user/started_at (only the single-pipeline
 * endpoint has them), and job `duration` is a float.
 */

/** GET /groups/:id, and elements of /groups/:id/subgroups. */
export interface GitLabGroup {
  id: number;
  name: string;
  path: string;
  full_path: string;
  description: string;
  visibility: 'private' | 'internal' | 'public';
  parent_id: number | null;
  web_url: string;
  avatar_url: string | null;
}

/** Namespace block inside a project. */
export interface GitLabNamespace {
  id: number;
  name: string;
  path: string;
  kind: 'group' | 'user';
  full_path: string;
  parent_id: number | null;
}

/** Element of GET /groups/:id/projects?include_subgroups=true&archived=false */
export interface GitLabProject {
  id: number;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
  description: string | null;
  default_branch: string;
  web_url: string;
  archived: boolean;
  created_at: string;
  last_activity_at: string;
  namespace: GitLabNamespace;
}

/** A user as embedded in pipelines and jobs. */
export interface GitLabUser {
  id: number;
  username: string;
  name: string;
  state: string;
  /** Null when the user has none (validated: http(s) only). */
  avatar_url: string | null;
  web_url: string;
}

/**
 * GET /user: the token's own user, with the addresses its commits may carry
 * (https://docs.gitlab.com/api/users/#get-the-current-user).
 */
export interface GitLabCurrentUser extends GitLabUser {
  email?: string | null;
  public_email?: string | null;
  commit_email?: string | null;
}

/**
 * Every pipeline status GitLab reports, the one list the client, the metrics and the simulator share.
 * GitLab's own list is `Ci::HasStatus::AVAILABLE_STATUSES` (app/models/concerns/ci/has_status.rb,
 * mirrored in qa/qa/flow/pipeline.rb) and the `status` filter of
 * https://docs.gitlab.com/api/pipelines/#list-project-pipelines; the order here is ours (kept, since
 * /metrics lists series in it), with `waiting_for_callback` (GitLab 17.x, pipelines waiting on an
 * external callback) last.
 */
export const GITLAB_PIPELINE_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
  'waiting_for_callback',
] as const;

/** Every pipeline status GitLab reports. */
export type GitLabPipelineStatus = (typeof GITLAB_PIPELINE_STATUSES)[number];

/** Element of GET /projects/:id/pipelines (no duration, user or started_at here). */
export interface GitLabPipelineListItem {
  id: number;
  iid: number;
  project_id: number;
  sha: string;
  ref: string;
  status: GitLabPipelineStatus;
  source: string;
  created_at: string;
  updated_at: string;
  web_url: string;
  name?: string | null;
}

/** GET /projects/:id/pipelines/:pipeline_id */
export interface GitLabPipeline extends GitLabPipelineListItem {
  before_sha: string;
  tag: boolean;
  yaml_errors: string | null;
  user: GitLabUser | null;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  /** Seconds (integer in GitLab for pipelines), null while never started. */
  duration: number | null;
  queued_duration: number | null;
  coverage: string | null;
}

/** Every job status GitLab reports. */
export type GitLabJobStatus =
  | 'created'
  | 'pending'
  | 'running'
  | 'failed'
  | 'success'
  | 'canceled'
  | 'canceling'
  | 'skipped'
  | 'waiting_for_resource'
  | 'manual'
  | 'scheduled'
  | 'preparing';

/** The short commit embedded in a job. */
export interface GitLabJobCommit {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  created_at: string;
}

/** Element of GET /projects/:id/pipelines/:pipeline_id/jobs, and GET /projects/:id/jobs/:job_id */
export interface GitLabJob {
  id: number;
  name: string;
  stage: string;
  status: GitLabJobStatus;
  ref: string;
  tag: boolean;
  allow_failure: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Seconds as a float (e.g. 84.123), null before it starts. */
  duration: number | null;
  queued_duration: number | null;
  failure_reason?: string;
  web_url: string;
  user: GitLabUser | null;
  commit: GitLabJobCommit | null;
  pipeline: {
    id: number;
    project_id: number;
    ref: string;
    sha: string;
    status: GitLabPipelineStatus;
    /** The pipeline's change marker when the job was read (PipelineBasic entity; absent in fakes). */
    updated_at?: string;
  };
  /** The job's artifacts (doc/api/jobs.md); a `junit` entry is an unexpired test report. */
  artifacts?: { file_type: string }[];
  /** When its artifacts expire (kept after they did); null when they never do or it has none. */
  artifacts_expire_at?: string | null;
}

/**
 * Element of GET /projects/:id/pipelines/:pipeline_id/bridges: a trigger job, which
 * /pipelines/:id/jobs never lists, with the pipeline it started (doc/api/jobs.md).
 */
export interface GitLabBridge {
  id: number;
  name: string;
  stage: string;
  status: GitLabJobStatus;
  created_at: string;
  web_url: string;
  /** A trigger job allowed to fail does not fail its pipeline (absent: not allowed). */
  allow_failure?: boolean;
  downstream_pipeline: {
    id: number;
    status: GitLabPipelineStatus;
    web_url: string;
    /** The downstream pipeline's project (lib/api/entities/ci/pipeline_basic.rb). */
    project_id?: number;
    updated_at?: string;
  } | null;
}

/** GET /projects/:id/repository/commits/:sha */
export interface GitLabCommit {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  created_at: string;
  parent_ids: string[];
  web_url: string;
}

/**
 * An element of GET /groups/:id/merge_requests (the fields triage uses): the list carries the head
 * `sha` but not `head_pipeline`, which only the single-MR answer has (doc/api/merge_requests.md,
 * "Merge requests list response notes").
 */
export interface GitLabMergeRequestListItem {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  source_branch: string;
  target_branch: string;
  web_url: string;
  /** The source branch's head commit; null on an MR without commits. */
  sha: string | null;
  author: { id: number; username: string } | null;
  updated_at: string;
}

/** GET /projects/:id/merge_requests/:merge_request_iid (the fields we use). */
export interface GitLabMergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  /** `opened`, `closed`, `locked` or `merged`. */
  state: string;
  source_branch: string;
  target_branch: string;
  web_url: string;
}

/** An element of GET /projects/:id/repository/tree (doc/api/repositories.md, "List repository tree"). */
export interface GitLabTreeEntry {
  id: string;
  name: string;
  /** `blob` for a file, `tree` for a folder, `commit` for a submodule. */
  type: string;
  /** The path from the repository's root. */
  path: string;
  mode: string;
}

/** A test case of the full pipeline report (app/serializers/test_case_entity.rb). */
export interface GitLabTestCase {
  /** `success`, `failed`, `skipped` or `error`. */
  status: string;
  name: string;
  classname: string;
  file: string | null;
  /** Seconds. */
  execution_time: number | null;
  system_output: string | null;
  stack_trace: string | null;
}

/** A suite of the full report: the latest jobs of one group name (test_suite_entity.rb). */
export interface GitLabTestSuite {
  name: string;
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
  suite_error: string | null;
  test_cases: GitLabTestCase[];
}

/**
 * GET /projects/:id/pipelines/:pipeline_id/test_report: every test case of the pipeline's latest
 * builds whose JUnit artifacts have not expired (doc/api/pipelines.md).
 */
export interface GitLabTestReport {
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
  test_suites: GitLabTestSuite[];
}

/** A suite of the summary: its counts and the jobs that ran it (test_suite_summary_entity.rb). */
export interface GitLabTestSuiteSummary {
  name: string;
  total_time: number;
  total_count: number;
  success_count: number;
  failed_count: number;
  skipped_count: number;
  error_count: number;
  build_ids: number[];
  suite_error: string | null;
}

/**
 * GET /projects/:id/pipelines/:pipeline_id/test_report_summary: counts only, from the results
 * GitLab keeps per job (they outlive the artifacts).
 */
export interface GitLabTestReportSummary {
  total: {
    time: number;
    count: number;
    success: number;
    failed: number;
    skipped: number;
    error: number;
    suite_error: string | null;
  };
  test_suites: GitLabTestSuiteSummary[];
}
