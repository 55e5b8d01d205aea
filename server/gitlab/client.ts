/**
 * The GitLab REST v4 client behind the `GitLabApi` port: each method names one GitLab resource (its
 * path, query, schema and the words for it in messages); the requests themselves — token, budget,
 * retries, timeouts, pagination and error mapping — are the transport's (transport.ts).
 */
import { AppError } from '../platform/errors.ts';
import type { FetchedImage, GitLabApi, ListPipelinesOptions } from './api.ts';
import { describeGroup } from './error-wording.ts';
import { GraphQLPipelines } from './graphql-pipelines.ts';
import { GRAPHQL_REFUSAL_STATUSES, refusalOfStatus } from './graphql-refusal.ts';
import { parseGroupRef } from './group-ref.ts';
import type { RequestBudget } from './request-budget.ts';
import { GitLabTransport, type GitLabClientOptions } from './transport.ts';
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
} from './wire.ts';
import {
  bridgeSchema,
  fullCommitSchema,
  groupSchema,
  jobSchema,
  mergeRequestListItemSchema,
  mergeRequestSchema,
  testReportSchema,
  testReportSummarySchema,
  pipelineListItemSchema,
  pipelineSchema,
  projectSchema,
  currentUserSchema,
  treeEntrySchema,
} from './wire-schemas.ts';

export {
  LIST_CAPS,
  MAX_RETRY_AFTER_MS,
  type GitLabClientOptions,
  type GitLabRequestInfo,
  type GitLabTokenType,
} from './transport.ts';

/** Turns a user-given GitLab URL into `scheme://host[:port][/relative-root]`, no trailing slash. */
export function normaliseGitLabBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('bad_request', `Invalid GitLab URL '${raw}': not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('bad_request', `Invalid GitLab URL '${raw}': use http:// or https://`);
  }
  if (url.username || url.password) {
    throw new AppError('bad_request', 'Invalid GitLab URL: credentials do not belong in the URL');
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/i, '');
  return `${url.origin}${path}`;
}

/** The GitLab REST v4 client (the real `GitLabApi`). */
export class GitLabClient implements GitLabApi {
  readonly baseUrl: string;
  /** The host budget this client draws from. */
  readonly budget: RequestBudget;
  private readonly transport: GitLabTransport;
  private bulkReader: GraphQLPipelines | undefined;

  constructor(options: GitLabClientOptions) {
    this.baseUrl = normaliseGitLabBaseUrl(options.baseUrl);
    this.transport = new GitLabTransport(this.baseUrl, options);
    this.budget = this.transport.budget;
  }

  /** GET /groups/:id — by numeric id or full path (`acme/platform`). */
  async getGroup(idOrPath: string | number, signal?: AbortSignal): Promise<GitLabGroup> {
    // with_projects=false: the group alone, not its first 100 projects (doc/api/groups.md).
    return this.transport.getJson(
      groupSchema,
      `groups/${groupRef(idOrPath)}`,
      describeGroup(idOrPath),
      signal,
      { with_projects: 'false' },
    );
  }

  /** GET /groups/:id/subgroups (direct children, every page). */
  async listSubgroups(idOrPath: string | number, signal?: AbortSignal): Promise<GitLabGroup[]> {
    return this.transport.listAll(
      groupSchema,
      `groups/${groupRef(idOrPath)}/subgroups`,
      {},
      describeGroup(idOrPath),
      signal,
    );
  }

  /** GET /groups/:id/projects with subgroups, without archived or shared projects, every page. */
  async listGroupProjects(
    idOrPath: string | number,
    signal?: AbortSignal,
  ): Promise<GitLabProject[]> {
    return this.transport.listAll(
      projectSchema,
      `groups/${groupRef(idOrPath)}/projects`,
      {
        include_subgroups: 'true',
        archived: 'false',
        with_shared: 'false',
        simple: 'false',
        order_by: 'last_activity_at',
      },
      describeGroup(idOrPath),
      signal,
    );
  }

  /** GET /projects/:id/pipelines, newest first, optionally `updated_after` and capped at `limit`. */
  async listPipelines(
    projectId: number,
    options: ListPipelinesOptions = {},
  ): Promise<GitLabPipelineListItem[]> {
    const query: Record<string, string> = { order_by: 'id', sort: 'desc' };
    if (options.updatedAfter !== undefined) query.updated_after = options.updatedAfter;
    const createdAfter = options.createdAfter ? Date.parse(options.createdAfter) : undefined;
    return this.transport.listAll(
      pipelineListItemSchema,
      `projects/${projectId}/pipelines`,
      query,
      `GitLab project ${projectId}`,
      options.signal,
      options.limit,
      options.onCapped,
      createdAfter === undefined
        ? undefined
        : (item: GitLabPipelineListItem) => Date.parse(item.created_at) < createdAfter,
    );
  }

  /** GET /projects/:id/pipelines/:pipeline_id */
  async getPipeline(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabPipeline> {
    return this.transport.getJson(
      pipelineSchema,
      `projects/${projectId}/pipelines/${pipelineId}`,
      `Pipeline ${pipelineId} of GitLab project ${projectId}`,
      signal,
    );
  }

  /**
   * GET /projects/:id/pipelines/:pipeline_id/jobs, every page: the latest attempt of each job, or
   * with `includeRetried` the earlier attempts too (doc/api/jobs.md `include_retried`).
   */
  async listPipelineJobs(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
    options: { includeRetried?: boolean } = {},
  ): Promise<GitLabJob[]> {
    return this.transport.listAll(
      jobSchema,
      `projects/${projectId}/pipelines/${pipelineId}/jobs`,
      { include_retried: options.includeRetried ? 'true' : 'false' },
      `Pipeline ${pipelineId} of GitLab project ${projectId}`,
      signal,
    );
  }

  /**
   * GET /projects/:id/jobs, newest id first, every attempt (lib/api/ci/jobs.rb lists
   * `user_project.builds` without `.latest`; bridges are not builds). Paging stops after a page
   * whose every job was created before `createdAfter`: ids follow creation time, so such a page
   * has passed every job of a pipeline created since (one whole page, not the first old job, so a
   * retry's out-of-order attempt cannot end the walk early).
   */
  async listProjectJobs(
    projectId: number,
    createdAfter: number,
    signal?: AbortSignal,
  ): Promise<GitLabJob[]> {
    return this.transport.listAll(
      jobSchema,
      `projects/${projectId}/jobs`,
      {},
      `Jobs of GitLab project ${projectId}`,
      signal,
      undefined,
      undefined,
      (job: GitLabJob) => Date.parse(job.created_at) < createdAfter,
      true,
    );
  }

  /**
   * GET /projects/:id/merge_requests?iids[]=…: the merge requests with these iids in one request
   * (doc/api/merge_requests.md, "List project merge requests": `iids[]`, every state by default).
   */
  async listMergeRequests(
    projectId: number,
    iids: readonly number[],
    signal?: AbortSignal,
  ): Promise<GitLabMergeRequest[]> {
    if (iids.length === 0) return [];
    if (iids.length > 100) throw new RangeError('at most 100 merge request iids per request');
    // `iids[]` repeated: every GitLab version reads that; the comma form came later.
    const query = iids.map((iid) => `iids[]=${iid}`).join('&');
    return this.transport.listAll(
      mergeRequestSchema,
      `projects/${projectId}/merge_requests?${query}`,
      {},
      `Merge requests of GitLab project ${projectId}`,
      signal,
    );
  }

  /** GET /projects/:id/pipelines/:pipeline_id/bridges: trigger jobs, which /jobs omits. */
  async listPipelineBridges(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabBridge[]> {
    return this.transport.listAll(
      bridgeSchema,
      `projects/${projectId}/pipelines/${pipelineId}/bridges`,
      {},
      `Pipeline ${pipelineId} of GitLab project ${projectId}`,
      signal,
    );
  }

  /** GET /projects/:id/jobs/:job_id */
  async getJob(projectId: number, jobId: number, signal?: AbortSignal): Promise<GitLabJob> {
    return this.transport.getJson(
      jobSchema,
      `projects/${projectId}/jobs/${jobId}`,
      `Job ${jobId} of GitLab project ${projectId}`,
      signal,
    );
  }

  /** GET /projects/:id/jobs/:job_id/trace — the raw log as text. */
  async getJobTrace(projectId: number, jobId: number, signal?: AbortSignal): Promise<string> {
    const { data } = await this.transport.send(
      this.transport.apiUrl(`projects/${projectId}/jobs/${jobId}/trace`, {}),
      `The log of job ${jobId} of GitLab project ${projectId}`,
      'text',
      signal,
    );
    return data as string;
  }

  /**
   * POST /api/graphql with the client's budget, retries and error mapping. Returns GitLab's
   * `{data, errors}` as sent; GitLab refusing the endpoint itself (401, 403, 404, 405, 413, 422)
   * is a GraphQLRefusal saying what it means (graphql-refusal.ts).
   */
  async graphql(
    query: string,
    variables: Record<string, unknown>,
    what: string,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const url = new URL(`${this.baseUrl}/api/graphql`);
    const { data, status } = await this.transport.send(
      url,
      what,
      'json',
      signal,
      JSON.stringify({ query, variables }),
      GRAPHQL_REFUSAL_STATUSES,
    );
    if (GRAPHQL_REFUSAL_STATUSES.has(status)) throw refusalOfStatus(status, data);
    return data;
  }

  /** Bulk pipeline reads over GraphQL (several projects per query); see graphql-pipelines.ts. */
  get bulk(): GraphQLPipelines {
    this.bulkReader ??= new GraphQLPipelines(
      (query, variables, what, signal) => this.graphql(query, variables, what, signal),
      this.baseUrl,
      (what, issue) => this.transport.logMalformedOnce(what, issue),
    );
    return this.bulkReader;
  }

  /** Ends a Retry-After / RateLimit wait early (the user changed settings; try GitLab again now). */
  clearRateLimitWait(): void {
    this.budget.clearPause();
  }

  /**
   * GET /projects/:id/pipelines/:pipeline_id/test_report_summary: the pipeline's test counts per
   * suite, with the jobs that ran each (doc/api/pipelines.md); kept by GitLab after artifacts expire.
   */
  async getTestReportSummary(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabTestReportSummary> {
    return this.transport.getJson(
      testReportSummarySchema,
      `projects/${projectId}/pipelines/${pipelineId}/test_report_summary`,
      `Test report summary of pipeline ${pipelineId} of GitLab project ${projectId}`,
      signal,
    );
  }

  /**
   * GET /projects/:id/pipelines/:pipeline_id/test_report: every test case of the latest jobs'
   * unexpired JUnit artifacts (doc/api/pipelines.md). Parsed from the artifacts on each request,
   * so it is read only when it decides something.
   */
  async getTestReport(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabTestReport> {
    return this.transport.getJson(
      testReportSchema,
      `projects/${projectId}/pipelines/${pipelineId}/test_report`,
      `Test report of pipeline ${pipelineId} of GitLab project ${projectId}`,
      signal,
    );
  }

  /** GET /projects/:id/repository/commits/:sha */
  async getCommit(projectId: number, sha: string, signal?: AbortSignal): Promise<GitLabCommit> {
    return this.transport.getJson(
      fullCommitSchema,
      `projects/${projectId}/repository/commits/${encodeURIComponent(sha)}`,
      `Commit ${sha} of GitLab project ${projectId}`,
      signal,
    );
  }

  /**
   * GET /projects/:id/repository/tree?ref=…&recursive=true, every page up to `limit` entries
   * (doc/api/repositories.md "List repository tree": 100 entries a page at most, paged by
   * `x-next-page`, or by a `Link` header under `pagination=keyset`; both are followed).
   */
  async listRepositoryTree(
    projectId: number,
    ref: string,
    options: { limit: number; signal?: AbortSignal },
  ): Promise<GitLabTreeEntry[]> {
    return this.transport.listAll(
      treeEntrySchema,
      `projects/${projectId}/repository/tree`,
      { ref, recursive: 'true' },
      `The repository tree of GitLab project ${projectId} at ${ref.slice(0, 12)}`,
      options.signal,
      options.limit,
    );
  }

  /** The token's own user, to tell which pipelines are the user's (failure notifications). */
  async getCurrentUser(signal?: AbortSignal): Promise<GitLabCurrentUser> {
    return this.transport.getJson<GitLabCurrentUser>(
      currentUserSchema,
      'user',
      'The current GitLab user',
      signal,
    );
  }

  /**
   * GET /groups/:id/merge_requests: the author's open merge requests in the group and its
   * subgroups (the group list always includes subgroups; archived projects are left out by
   * `non_archived`'s default), most recently updated first, every page.
   */
  async listGroupMergeRequests(
    idOrPath: string | number,
    authorId: number,
    signal?: AbortSignal,
  ): Promise<GitLabMergeRequestListItem[]> {
    return this.transport.listAll(
      mergeRequestListItemSchema,
      `groups/${groupRef(idOrPath)}/merge_requests`,
      {
        state: 'opened',
        author_id: String(authorId),
        scope: 'all',
        order_by: 'updated_at',
        sort: 'desc',
      },
      `The open merge requests of ${describeGroup(idOrPath)}`,
      signal,
    );
  }

  /** GET /projects/:id/merge_requests/:merge_request_iid */
  async getMergeRequest(
    projectId: number,
    iid: number,
    signal?: AbortSignal,
  ): Promise<GitLabMergeRequest> {
    return this.transport.getJson(
      mergeRequestSchema,
      `projects/${projectId}/merge_requests/${iid}`,
      `Merge request !${iid} of GitLab project ${projectId}`,
      signal,
    );
  }

  /**
   * Fetches an image: only `image/*` answers, at most `maxBytes` (the download is cut off beyond),
   * within `timeoutMs`, redirects only within the URL's own origin, and the token only when that
   * origin is GitLab's.
   */
  async fetchImage(
    url: string,
    options: { maxBytes: number; timeoutMs: number },
  ): Promise<FetchedImage> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new AppError('bad_request', 'Invalid image URL: not an absolute URL');
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      throw new AppError('bad_request', 'Invalid image URL: only http:// and https:// are fetched');
    }
    return this.transport.image(target, options);
  }
}

function groupRef(idOrPath: string | number): string {
  return encodeURIComponent(String(parseGroupRef(idOrPath)));
}
