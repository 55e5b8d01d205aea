/**
 * The service's public HTTP contract (docs/api.md): the JSON shapes we serve. Other tools on the
 * machine and the dashboard rely on these names and casings, so change them only additively.
 * The renderer imports this file with `import type` only.
 */
import type { MergeRequestRef } from './group-health/contract.ts';
import type { FixedBefore, TriageVerdict } from './triage/contract.ts';
import type { Pagination } from './pagination.ts';
import type { FailedTest, PipelineTestCounts } from './test-reports/contract.ts';

/** GET /api/health */
export interface LivenessResponse {
  status: 'healthy';
  timestamp: string;
}

/** GET /api/version */
export interface VersionInfo {
  version: string;
  gitCommit: string;
  buildDate: string;
}

/**
 * Pipeline and job statuses counted as `running` (DESIGN §3.1). The one list: the server counts with
 * it, the CLI imports it, and the renderer types its copy as `Record<ActiveStatus, …>` so the compiler
 * rejects a copy that drifts.
 */
export const ACTIVE_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
] as const;

/** A status counted as `running`. */
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

/** Statuses after which GitLab changes a pipeline only when someone retries it. */
export const FINISHED_STATUSES = ['success', 'failed', 'canceled', 'skipped'] as const;

/** A pipeline status after which it only changes when retried. */
export type FinishedStatus = (typeof FINISHED_STATUSES)[number];

/** How a status counts in the summary and the timeline: success, failed, running or other. */
export type StatusOutcome = 'success' | 'failed' | 'running' | 'other';

/** The summary's rule (DESIGN §3.1): success and failed as such, active statuses as running. */
export function statusOutcome(status: string): StatusOutcome {
  if (status === 'success' || status === 'failed') return status;
  return (ACTIVE_STATUSES as readonly string[]).includes(status) ? 'running' : 'other';
}

/**
 * The job a failed pipeline opens at: the first failed job (by id) that is not allowed to fail, else
 * the first failed job, else null. The server sends the answer as `failing_job_id`.
 */
export function failingJob<J extends { id: number; status: string; allow_failure?: boolean }>(
  jobs: readonly J[],
): J | null {
  const failed = jobs.filter((j) => j.status === 'failed').sort((a, b) => a.id - b.id);
  return failed.find((j) => !j.allow_failure) ?? failed[0] ?? null;
}

/** The user who triggered a pipeline, as listed in recent_pipelines. */
export interface PipelineUserRef {
  username: string;
  name: string;
  avatar_url: string;
}

/** One of a project's 10 newest pipelines in the window. */
export interface RecentPipeline {
  pipeline_id: number;
  status: string;
  ref: string;
  source: string;
  created_at: string;
  duration: number | null;
  web_url: string;
  user: PipelineUserRef | null;
  /**
   * Additive, failed pipelines only: the job to open (first failed job not allowed to fail, else
   * first failed job), or null when the pipeline has no failed job; absent until the jobs are read.
   */
  failing_job_id?: number | null;
  /** Additive, failed pipelines only: the commit title; absent until the jobs are read. */
  commit_title?: string | null;
  /**
   * Additive, failed pipelines without a failed job of their own only: the trigger job that failed
   * with its downstream pipeline, and that pipeline's failing job; absent until read.
   */
  downstream_failure?: DownstreamFailure | null;
  /** Additive, failed pipelines only: the name of `failing_job_id`'s job; absent until read. */
  failing_job_name?: string | null;
  /** Additive: what to show for the ref — the branch, or `!406` for a merge-request pipeline. */
  ref_label?: string;
  /** Additive: the merge request behind an MR pipeline (title null until looked up), else null. */
  merge_request?: MergeRequestRef | null;
}

/** Element of `projects` in the summary. */
export interface ProjectSummary {
  project_id: number;
  project_name: string;
  total_pipelines: number;
  successful: number;
  failed: number;
  running: number;
  total_duration: number;
  success_rate: number;
  recent_pipelines: RecentPipeline[];
  /** Additive: the project's path with namespace, e.g. `acme/platform/api`. */
  project_path?: string;
  /** Additive: the project's GitLab page. */
  web_url?: string;
  /** Additive: mean duration (integer seconds) of the pipelines that have one, 0 when none do. */
  average_duration?: number;
}

/** The overall `summary`. */
export interface OverallSummary {
  total_pipelines: number;
  successful: number;
  failed: number;
  running: number;
  average_duration: number;
  overall_success_rate: number;
}

/** Additive: how fresh the summary is and whether GitLab is reachable, for the dashboard. */
export interface SummaryStatus {
  /** `loading` before the first load finishes, `ok`, or `degraded` while GitLab fails. */
  state: 'loading' | 'ok' | 'degraded';
  /** When the summary was last refreshed successfully (ISO), or null before the first success. */
  last_updated: string | null;
  /** The last GitLab problem, in words a user can act on, or null. */
  last_error: string | null;
  group: string;
  since: string;
  /** Additive: how pipelines are read — `graphql` in bulk, or `rest` per project. */
  gitlab_api?: 'graphql' | 'rest';
  /** Additive: why pipelines are read over REST although GitLab has GraphQL, or null. */
  gitlab_api_note?: string | null;
  /** Additive: how JUnit test report summaries are read — `graphql` in batches, or `rest` per pipeline. */
  test_reports_api?: 'graphql' | 'rest';
  /** Additive: why test report summaries are read over REST although GitLab has GraphQL, or null. */
  test_reports_api_note?: string | null;
}

/** GET /api/pipelines/summary and the `pipeline-update` event. */
export interface SummaryResponse {
  projects: ProjectSummary[];
  summary: OverallSummary;
  /** Additive field (the seed shapes in docs/api.md are unchanged): freshness and GitLab health. */
  status?: SummaryStatus;
}

/** A job inside pipeline details. */
export interface JobDetails {
  id: number;
  name: string;
  stage: string;
  status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  /** Additive: link to the job in GitLab. */
  web_url?: string;
  /** Additive: GitLab's failure_reason for failed jobs. */
  failure_reason?: string | null;
  /** Additive: whether a failure of this job is allowed. */
  allow_failure?: boolean;
  /**
   * Additive, failed jobs only: earlier occurrences of the same failure signature on this project
   * whose ref went green afterwards, newest first (issue 27).
   */
  fixed_before?: FixedBefore[];
}

/** GET /api/pipelines/{projectId}/details/{pipelineId} */
export interface PipelineDetails {
  pipeline_id: number;
  project_id: number;
  status: string;
  ref: string;
  source: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration: number | null;
  user: { id: number; username: string; name: string; avatar_url: string } | null;
  commit: {
    id: string;
    short_id: string;
    title: string;
    message: string;
    author_name: string;
    author_email: string;
    created_at: string;
  } | null;
  jobs: JobDetails[];
  /** Additive: link to the pipeline in GitLab. */
  web_url?: string;
  /** Additive: the project's name. */
  project_name?: string;
  /**
   * Additive: trigger (bridge) jobs, which GitLab lists apart from `jobs`, each with the pipeline it
   * started, so a parent that failed because its child failed shows why.
   */
  bridges?: BridgeDetails[];
  /**
   * Additive: the first failed job (of `jobs`) not allowed to fail, else the first failed job, else
   * null; a trigger job is never it (see `downstream_failure`).
   */
  failing_job_id?: number | null;
  /**
   * Additive, failed pipelines only: the trigger job (of `bridges`) that failed because its
   * downstream pipeline failed, and that pipeline's failing job; null when no trigger job failed.
   */
  downstream_failure?: DownstreamFailure | null;
  /** Additive: what to show for the ref — the branch, or `!406` for a merge-request pipeline. */
  ref_label?: string;
  /** Additive: the merge request behind an MR pipeline (title null until looked up), else null. */
  merge_request?: MergeRequestRef | null;
  /**
   * Additive: the test counts of its latest attempts from GitLab's JUnit report summary, or null
   * when it has no report (docs/test-reports.md).
   */
  tests?: PipelineTestCounts | null;
  /** Additive: its failed and errored tests, each with its trace and history. */
  failed_tests?: FailedTest[];
}

/**
 * Why a pipeline failed in a downstream (child or multi-project) pipeline: the failed trigger job
 * and the failing job of the downstream pipeline — of the deepest one, when that pipeline failed in
 * its own downstream pipeline.
 */
export interface DownstreamFailure {
  /** The failed trigger job of this pipeline (an element of `bridges` in the details). */
  trigger_job: { id: number; name: string; stage: string; web_url: string };
  /** The downstream pipeline the failing job is in, or null when none was created. */
  pipeline: { id: number; project_id: number; status: string; web_url: string } | null;
  /** That pipeline's failing job, by `failing_job_id`'s rule; null when it has no failed job. */
  job: {
    id: number;
    name: string;
    stage: string;
    status: string;
    failure_reason: string | null;
    web_url: string;
  } | null;
}

/** A trigger job of pipeline details and the downstream pipeline it started. */
export interface BridgeDetails {
  id: number;
  name: string;
  stage: string;
  status: string;
  web_url: string;
  downstream_pipeline: { id: number; status: string; web_url: string } | null;
}

/** GET /api/settings */
export interface SettingsResponse {
  group: string;
  since: string;
  forgeUrl: string;
}

/** POST /api/settings */
export interface SettingsUpdateResponse {
  success: boolean;
  group: string;
  since: string;
}

/** Additive route GET /api/settings/since?value=…: whether a time window is valid, and why not. */
export type SinceCheckResponse =
  { since: string; valid: true; ms: number } | { since: string; valid: false; error: string };

/** GET /api/groups/{idOrPath} */
export interface GroupResponse {
  id: number;
  name: string;
  path: string;
  full_path: string;
  description: string;
  visibility: string;
  parent_id: number | null;
}

/** Element of GET /api/groups/{idOrPath}/subgroups */
export interface SubgroupResponse {
  id: number;
  name: string;
  path: string;
  full_path: string;
}

/** Element of GET /api/groups/parent/{parentId} */
export interface SiblingGroupResponse {
  id: number;
  name: string;
  path: string;
}

/** GET /api/jobtrace */
export interface JobTraceResponse {
  trace: string;
  complete: boolean;
  /**
   * Additive, failed jobs only: 0-based indices of the lines of `trace` (split at `\n`) that the
   * log distiller's rules mark as errors, first to last.
   */
  error_lines?: number[];
  /** Additive: present when the log was longer than the service's cap and `trace` is its tail. */
  truncated?: true;
  /** Additive, with `truncated`: the whole log's size in bytes. */
  bytes?: number;
}

/** Additive route GET /api/jobs/{projectId}/{jobId}: one job and the pipeline it ran in. */
export interface JobResponse extends JobDetails {
  project_id: number;
  pipeline_id: number;
  /** The branch or tag the job ran for. */
  ref: string;
}

/** POST /api/ai/analyse */
export interface AnalyseResponse {
  analysis: string;
  cached: boolean;
  timestamp: string;
}

/** POST /api/ai/followup */
export interface FollowupResponse {
  answer: string;
  timestamp: string;
}

/** POST /api/ai/analyse-pipeline */
export interface PipelineAnalysisResponse {
  analysis: string;
  cached: boolean;
  timestamp: string;
  /** The failed jobs covered, with the number (1-based) of the problem each belongs to. */
  jobs: { jobId: number; jobName: string; stage: string; problem: number }[];
}

/** DELETE /api/ai/cache */
export interface DeleteAnalysisResponse {
  success: boolean;
  message: string;
}

/** GET /api/ai/analyzed */
export interface AnalyzedJobsResponse {
  projectId: number;
  analyzedJobIds: number[];
}

/** GET /api/ai/system-prompt */
export interface SystemPromptResponse {
  prompt: string;
  isDefault: boolean;
}

/** PUT and DELETE /api/ai/system-prompt */
export interface SystemPromptUpdateResponse {
  success: boolean;
  prompt: string;
}

/** The AI providers the service can use. */
export type AiProviderName = 'offline' | 'openai' | 'anthropic';

/** GET and PUT /api/ai/provider: what the dashboard's AI settings show (never the key itself). */
export interface ProviderStatus {
  provider: AiProviderName;
  model: string;
  baseUrl: string;
  apiKeySet: boolean;
  /** Where the key comes from: the environment/flags, the secret store, or memory (until restart). */
  apiKeySource: 'environment' | 'secret-store' | 'memory' | null;
  /** Name of the secret store backend, or null when there is none. */
  secretStore: string | null;
  /** True when AI_PROVIDER or flags chose the provider: they win again at the next start. */
  pinnedByEnvironment: boolean;
  fallbackToOffline: boolean;
  providers: readonly AiProviderName[];
}

/** PUT /api/ai/provider body; every field optional, `apiKey: null` deletes the stored key. */
export interface ProviderUpdateRequest {
  provider?: AiProviderName;
  model?: string;
  baseUrl?: string;
  apiKey?: string | null;
}

/** One follow-up exchange. */
export interface ConversationEntry {
  question: string;
  answer: string;
  timestamp: string;
}

/** GET /api/ai/cache */
export interface CachedAnalysis {
  projectId: number;
  pipelineId: number;
  jobId: number;
  jobName: string;
  stage: string;
  analysis: string;
  conversation: ConversationEntry[];
  timestamp: string;
}

/** Element of GET /api/ai/history `analyses`. */
export interface HistoryEntry {
  projectId: number;
  projectName: string;
  pipelineId: number;
  jobId: number;
  jobName: string;
  stage: string;
  analysis: string;
  conversationCount: number;
  timestamp: string;
}

/** Pagination object of GET /api/ai/history (and GET /api/pipelines/failures). */
export type { Pagination };

/** GET /api/ai/history */
export interface HistoryResponse {
  analyses: HistoryEntry[];
  pagination: Pagination;
}

/** The one error body every route returns. */
export interface ErrorBody {
  error: string;
  statusCode: number;
  timestamp: string;
}

/** One bar of the activity timeline: pipelines created in [start, start + bucket) by outcome. */
export interface ActivityBucket {
  start: string;
  success: number;
  failed: number;
  running: number;
  other: number;
}

/** A user's pipelines in the window. */
export interface ContributorActivity {
  username: string;
  name: string;
  avatar_url: string;
  pipelines: number;
  successful: number;
  failed: number;
  success_rate: number;
}

/** Additive route GET /api/pipelines/activity: timeline and contributors over the whole window. */
export interface ActivityResponse {
  since: string;
  bucket: 'hour' | 'day';
  buckets: ActivityBucket[];
  /** Pipelines whose details (and so user) are not fetched yet are not attributed. */
  contributors: ContributorActivity[];
  /** Additive: where the window starts (ISO); the first bucket starts earlier and is partial. */
  window_start?: string;
}

/** Why a pipeline event matters to the token's user (issue 12). */
export type FailureReason = 'mine' | 'default-branch' | 'watched';

/** A failed job named in a pipeline event. */
export interface EventJobRef {
  id: number;
  name: string;
  stage: string;
  failure_reason: string | null;
  /** Additive: the job's failure signature (server/triage/), when its log was read. */
  signature?: string | null;
  /** Additive: the decisive line behind `signature`, as printed. */
  sample_line?: string | null;
  /** Additive, `mine` failures: whether it is the change's doing (issue 27). */
  verdict?: TriageVerdict | null;
  /** Additive: the verdict's evidence in words ("failed and passed on retry 4 times this week"). */
  verdict_evidence?: string | null;
}

/** One pipeline in a `pipeline-failed` / `pipeline-fixed` event. */
export interface PipelineEventItem {
  project_id: number;
  project_name: string;
  project_path: string;
  pipeline_id: number;
  web_url: string;
  ref: string;
  /** Additive: what to show for the ref — the branch, or `!406` for a merge-request pipeline. */
  ref_label?: string;
  /** Additive: the merge request behind an MR pipeline (title null until looked up), else null. */
  merge_request?: MergeRequestRef | null;
  source: string;
  user: PipelineUserRef | null;
  commit_title: string | null;
  /** Failed jobs (latest attempts), empty for `pipeline-fixed`. */
  failed_jobs: EventJobRef[];
  /** Additive: the failed tests' names from its JUnit report (failures only; may be empty). */
  failed_tests?: string[];
  reasons: FailureReason[];
  /** When the pipeline was seen in this state (ISO). */
  at: string;
}

/**
 * The additive SSE named events `pipeline-failed` and `pipeline-fixed` on GET /api/events/pipelines.
 * A burst is one event with several `pipelines` and `coalesced: true`; `notify` is false in quiet
 * hours (clients list it but do not interrupt).
 */
export interface PipelineEvent {
  event: 'pipeline-failed' | 'pipeline-fixed';
  /** Unique per event, for de-duplication across reconnects. */
  id: string;
  title: string;
  body: string;
  coalesced: boolean;
  notify: boolean;
  pipelines: PipelineEventItem[];
  timestamp: string;
}

/** Quiet hours in the service machine's local time, `HH:MM`; `start > end` spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
}

/** GET/PUT /api/notifications/settings: which failures notify (stored with the other settings). */
export interface NotificationSettings {
  reasons: Record<FailureReason, boolean>;
  quiet_hours: QuietHours | null;
  /** Projects that never notify. */
  muted_projects: number[];
  /** Projects starred in the dashboard: their failures are `watched`. */
  starred_projects: number[];
}

/** GET /api/notifications/state: what the tray and the dashboard show about failures that matter. */
export interface NotificationState {
  /** The token's user (GET /user), once known. */
  user: { id: number; username: string } | null;
  /** Refs whose latest finished pipeline failed and that matter, newest first. */
  failing: PipelineEventItem[];
  /** The most recent failures that matter (events and failing refs), newest first, at most 5. */
  recent: PipelineEventItem[];
}

// Group health (additive routes /api/health/* and /api/pipelines/failures): shapes kept with their
// domain, exported here so the dashboard reads every wire type from this one file.
export type * from './group-health/contract.ts';
export type * from './test-reports/contract.ts';
// Triage (additive routes /api/failures/signatures and /api/triage/mine).
export type * from './triage/contract.ts';
