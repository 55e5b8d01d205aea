import { AppError } from '../../platform/errors.ts';
import type { FetchedImage, GitLabApi, ListPipelinesOptions } from '../api.ts';
import type {
  GitLabCommit,
  GitLabCurrentUser,
  GitLabGroup,
  GitLabJob,
  GitLabMergeRequest,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabPipelineStatus,
  GitLabProject,
} from '../wire.ts';

/**
 * An in-memory GitLabApi for unit tests (the poller, the AI use cases): projects, pipelines, jobs and
 * logs held in plain fields, every call logged as `method:arg`, and a switch to make every call fail.
 * Integration tests use the real client against the GitLab simulator instead.
 */
export class FakeGitLab implements GitLabApi {
  readonly baseUrl: string;
  /** Every call, as `method:arg` (the pipeline, job or project it asked for), in order. */
  readonly calls: string[] = [];
  projects: GitLabProject[] = [];
  /** Pipelines per project id. */
  pipelines = new Map<number, GitLabPipeline[]>();
  jobs: GitLabJob[] = [];
  /** Job logs by job id; a job without one answers 404 like GitLab. */
  traces = new Map<number, string>();
  /** When set, every call throws it (after being logged). */
  failWith: AppError | null = null;
  /** The token's user for GET /user. */
  currentUser: GitLabCurrentUser = {
    id: 7,
    username: 'ada',
    name: 'Ada Lovelace',
    state: 'active',
    avatar_url: 'https://gitlab.test/ada.png',
    web_url: 'https://gitlab.test/ada',
    email: 'ada@example.com',
  };
  /** Projects whose pipeline list answers 403, as GitLab does for Guest members or disabled CI. */
  forbidden = new Set<number>();

  constructor(options: { baseUrl?: string } = {}) {
    this.baseUrl = options.baseUrl ?? 'https://gitlab.test';
  }

  private record(method: string, arg: string | number): void {
    this.calls.push(`${method}:${arg}`);
    if (this.failWith) throw this.failWith;
  }

  /** Total calls, or calls of one method. */
  callCount(method?: string): number {
    return method ? this.calls.filter((c) => c.startsWith(`${method}:`)).length : this.calls.length;
  }

  /** Forgets the calls made so far. */
  resetCalls(): void {
    this.calls.length = 0;
  }

  /** Adds a project of group `acme` with no pipelines. */
  addProject(id: number, name = `project-${id}`): GitLabProject {
    const project: GitLabProject = {
      id,
      name,
      name_with_namespace: `Acme / ${name}`,
      path: name,
      path_with_namespace: `acme/${name}`,
      description: null,
      default_branch: 'main',
      web_url: `${this.baseUrl}/acme/${name}`,
      archived: false,
      created_at: '2026-01-01T00:00:00Z',
      last_activity_at: '2026-11-21T00:00:00Z',
      namespace: {
        id: 1,
        name: 'Acme',
        path: 'acme',
        kind: 'group',
        full_path: 'acme',
        parent_id: null,
      },
    };
    this.projects.push(project);
    this.pipelines.set(id, []);
    return project;
  }

  /** Adds a pipeline on `main`, created and updated at `createdAt`; `over` replaces any field. */
  addPipeline(
    projectId: number,
    id: number,
    createdAt: string,
    status: GitLabPipelineStatus = 'success',
    duration: number | null = 120,
    over: Partial<GitLabPipeline> = {},
  ): GitLabPipeline {
    const pipeline: GitLabPipeline = {
      id,
      iid: id,
      project_id: projectId,
      sha: `sha${id}`,
      ref: 'main',
      status,
      source: 'push',
      created_at: createdAt,
      updated_at: createdAt,
      web_url: `${this.baseUrl}/acme/p/-/pipelines/${id}`,
      before_sha: '0000',
      tag: false,
      yaml_errors: null,
      user: {
        id: 7,
        username: 'ada',
        name: 'Ada Lovelace',
        state: 'active',
        avatar_url: `${this.baseUrl}/ada.png`,
        web_url: `${this.baseUrl}/ada`,
      },
      started_at: createdAt,
      finished_at: status === 'running' ? null : createdAt,
      committed_at: createdAt,
      duration: status === 'running' ? null : duration,
      queued_duration: 1,
      coverage: null,
      ...over,
    };
    this.pipelinesOf(projectId).push(pipeline);
    return pipeline;
  }

  /** Changes a pipeline as GitLab would: new status, bumped updated_at. */
  update(projectId: number, id: number, patch: Partial<GitLabPipeline>): void {
    const p = this.pipelinesOf(projectId).find((x) => x.id === id)!;
    Object.assign(p, patch);
  }

  private pipelinesOf(projectId: number): GitLabPipeline[] {
    let list = this.pipelines.get(projectId);
    if (!list) this.pipelines.set(projectId, (list = []));
    return list;
  }

  async getGroup(idOrPath: string | number): Promise<GitLabGroup> {
    this.record('getGroup', idOrPath);
    if (idOrPath !== 'acme' && idOrPath !== 1)
      throw new AppError('not_found', `GitLab group '${idOrPath}' not found`);
    return {
      id: 1,
      name: 'Acme',
      path: 'acme',
      full_path: 'acme',
      description: '',
      visibility: 'private',
      parent_id: null,
      web_url: `${this.baseUrl}/acme`,
      avatar_url: null,
    };
  }
  async listSubgroups(idOrPath: string | number): Promise<GitLabGroup[]> {
    this.record('listSubgroups', idOrPath);
    return [];
  }
  async listGroupProjects(idOrPath: string | number): Promise<GitLabProject[]> {
    this.record('listGroupProjects', idOrPath);
    return this.projects.map((p) => ({ ...p }));
  }
  async listPipelines(
    projectId: number,
    options: ListPipelinesOptions = {},
  ): Promise<GitLabPipelineListItem[]> {
    this.record('listPipelines', projectId);
    if (this.forbidden.has(projectId)) {
      throw new AppError('unauthorized', `GitLab refused access to project ${projectId} (403)`, {
        upstreamStatus: 403,
      });
    }
    const after = options.updatedAfter ? Date.parse(options.updatedAfter) : -Infinity;
    return (this.pipelines.get(projectId) ?? [])
      .filter((p) => Date.parse(p.updated_at) >= after)
      .sort((a, b) => b.id - a.id)
      .slice(0, options.limit ?? Infinity)
      .map(
        ({ id, iid, project_id, sha, ref, status, source, created_at, updated_at, web_url }) => ({
          id,
          iid,
          project_id,
          sha,
          ref,
          status,
          source,
          created_at,
          updated_at,
          web_url,
        }),
      );
  }
  async getPipeline(projectId: number, pipelineId: number): Promise<GitLabPipeline> {
    this.record('getPipeline', pipelineId);
    const p = this.pipelines.get(projectId)?.find((x) => x.id === pipelineId);
    if (!p) throw new AppError('not_found', `Pipeline ${pipelineId} not found`);
    return { ...p };
  }
  async listPipelineJobs(projectId: number, pipelineId: number): Promise<GitLabJob[]> {
    this.record('listPipelineJobs', pipelineId);
    return this.jobs.filter(
      (j) => j.pipeline.id === pipelineId && j.pipeline.project_id === projectId,
    );
  }
  async getJob(projectId: number, jobId: number): Promise<GitLabJob> {
    this.record('getJob', jobId);
    const j = this.jobs.find((x) => x.id === jobId && x.pipeline.project_id === projectId);
    if (!j) throw new AppError('not_found', `Job ${jobId} not found in project ${projectId}`);
    return j;
  }
  async getJobTrace(projectId: number, jobId: number): Promise<string> {
    this.record('getJobTrace', jobId);
    const job = this.jobs.find((x) => x.id === jobId && x.pipeline.project_id === projectId);
    const trace = this.traces.get(jobId);
    if (!job || trace === undefined) throw new AppError('not_found', `Job ${jobId} not found`);
    return trace;
  }
  async getCommit(_projectId: number, sha: string): Promise<GitLabCommit> {
    this.record('getCommit', sha.slice(0, 8));
    throw new AppError('not_found', `Commit ${sha} not found`);
  }
  async getCurrentUser(): Promise<GitLabCurrentUser> {
    this.record('getCurrentUser', 'me');
    return { ...this.currentUser };
  }
  async getMergeRequest(_projectId: number, iid: number): Promise<GitLabMergeRequest> {
    this.record('getMergeRequest', iid);
    throw new AppError('not_found', `Merge request !${iid} not found`);
  }
  async fetchImage(url: string): Promise<FetchedImage> {
    this.record('fetchImage', url);
    throw new AppError('not_found', 'No image');
  }
}
