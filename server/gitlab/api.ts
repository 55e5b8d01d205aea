import type {
  GitLabBridge,
  GitLabCommit,
  GitLabCurrentUser,
  GitLabGroup,
  GitLabJob,
  GitLabMergeRequest,
  GitLabMergeRequestListItem,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
  GitLabTreeEntry,
  GitLabTestReport,
  GitLabTestReportSummary,
  GitLabUser,
} from './wire.ts';

import type { GraphQLPipelines } from './graphql-pipelines.ts';

/** Options for listing a project's pipelines. */
export interface ListPipelinesOptions {
  /** Only pipelines updated at or after this instant (GitLab `updated_after`, ISO 8601). */
  updatedAfter?: string;
  /** Stop paging once this many pipelines were read (newest first). */
  limit?: number;
  signal?: AbortSignal;
  /**
   * Only pipelines created at or after this instant (ISO): paging (newest first) stops at the first
   * page that reaches an older one.
   */
  createdAfter?: string;
  /** Told when the list hit the client's page or item cap and was cut short. */
  onCapped?: (message: string) => void;
}

/** A fetched binary resource (avatars). */
export interface FetchedImage {
  contentType: string;
  body: Buffer;
}

/**
 * The GitLab port: every GitLab call the service makes. The real implementation is
 * `GitLabClient` (server/gitlab/client.ts); all paging, budgeting, retrying and error mapping
 * happen behind it. Errors are AppErrors: 401 → `unauthorized`, 403 → `forbidden`, 404 → `not_found`,
 * 5xx/network → `upstream_unavailable`, timeouts → `upstream_timeout`.
 */
export interface GitLabApi {
  /** The GitLab base URL, e.g. `https://gitlab.com` (no trailing slash, no /api/v4). */
  readonly baseUrl: string;
  getGroup(idOrPath: string | number, signal?: AbortSignal): Promise<GitLabGroup>;
  listSubgroups(idOrPath: string | number, signal?: AbortSignal): Promise<GitLabGroup[]>;
  /** Non-archived projects of the group and all its subgroups. */
  listGroupProjects(idOrPath: string | number, signal?: AbortSignal): Promise<GitLabProject[]>;
  /** Newest first (order_by=id, sort=desc). */
  listPipelines(
    projectId: number,
    options?: ListPipelinesOptions,
  ): Promise<GitLabPipelineListItem[]>;
  getPipeline(projectId: number, pipelineId: number, signal?: AbortSignal): Promise<GitLabPipeline>;
  /** Latest attempt of each job; with `includeRetried` the earlier attempts too. */
  listPipelineJobs(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
    options?: { includeRetried?: boolean },
  ): Promise<GitLabJob[]>;
  /**
   * Every job attempt of a project (retried ones included, trigger jobs not), newest id first,
   * created at or after `createdAfter` (epoch ms): one list for many pipelines' jobs. Optional for
   * fakes; without it jobs are read per pipeline.
   */
  listProjectJobs?(
    projectId: number,
    createdAfter: number,
    signal?: AbortSignal,
  ): Promise<GitLabJob[]>;
  /**
   * The project's merge requests with these iids (at most 100), in any state; an iid GitLab does
   * not list (deleted, or hidden from the token) is absent. Optional for fakes.
   */
  listMergeRequests?(
    projectId: number,
    iids: readonly number[],
    signal?: AbortSignal,
  ): Promise<GitLabMergeRequest[]>;
  /** Trigger (bridge) jobs with their downstream pipeline; /jobs omits them. Optional for fakes. */
  listPipelineBridges?(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabBridge[]>;
  getJob(projectId: number, jobId: number, signal?: AbortSignal): Promise<GitLabJob>;
  /** The raw job log (ANSI escapes and section markers included). */
  getJobTrace(projectId: number, jobId: number, signal?: AbortSignal): Promise<string>;
  getCommit(projectId: number, sha: string, signal?: AbortSignal): Promise<GitLabCommit>;
  /**
   * The repository's files and folders at `ref`, every level, up to `limit` entries (the analysis
   * checks the paths a log names against it). Optional for fakes.
   */
  listRepositoryTree?(
    projectId: number,
    ref: string,
    options: { limit: number; signal?: AbortSignal },
  ): Promise<GitLabTreeEntry[]>;
  /** The pipeline's test counts per suite (GET …/test_report_summary). Optional for fakes. */
  getTestReportSummary?(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabTestReportSummary>;
  /** Every test case of the pipeline's unexpired reports (GET …/test_report). Optional for fakes. */
  getTestReport?(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabTestReport>;
  /** The user the token belongs to (GET /user). */
  getCurrentUser(signal?: AbortSignal): Promise<GitLabUser>;
  /** A merge request by its project-scoped iid (its title and link label MR pipelines). */
  getMergeRequest(
    projectId: number,
    iid: number,
    signal?: AbortSignal,
  ): Promise<GitLabMergeRequest>;
  /**
   * Open merge requests of the group and its subgroups by one author, every page
   * (GET /groups/:id/merge_requests?state=opened&author_id=…). Optional for fakes.
   */
  listGroupMergeRequests?(
    idOrPath: string | number,
    authorId: number,
    signal?: AbortSignal,
  ): Promise<GitLabMergeRequestListItem[]>;
  /**
   * Bulk pipeline reads over GraphQL (several projects per request). Absent when the
   * implementation has none; callers then use the REST methods above.
   */
  readonly bulk?: GraphQLPipelines;
  /** Ends a Retry-After wait early (after a settings change). */
  clearRateLimitWait?(): void;
  /** The token's own user (GET /user). */
  getCurrentUser(signal?: AbortSignal): Promise<GitLabCurrentUser>;
  /** Fetches an avatar image; callers have already checked the URL is allowed. */
  fetchImage(url: string, options: { maxBytes: number; timeoutMs: number }): Promise<FetchedImage>;
}
