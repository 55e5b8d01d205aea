import { AppError } from '../../platform/errors.ts';
import type { FetchedImage, GitLabApi, ListPipelinesOptions } from '../../gitlab/api.ts';
import type {
  GitLabCommit,
  GitLabGroup,
  GitLabJob,
  GitLabMergeRequest,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabPipelineStatus,
  GitLabProject,
  GitLabUser,
} from '../../gitlab/wire.ts';

/**
 * An in-memory GitLabApi for unit tests of the poller: counts every call by method and can be told to
 * fail. Integration tests use the real client against the GitLab simulator instead.
 */
export class FakeGitLab implements GitLabApi {
  readonly baseUrl = 'https://gitlab.test';
  readonly calls: Record<string, number> = {};
  projects: GitLabProject[] = [];
  pipelines = new Map<number, GitLabPipeline[]>();
  failWith: AppError | null = null;

  private count(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    if (this.failWith) throw this.failWith;
  }

  /** Total calls, or calls of one method. */
  callCount(method?: string): number {
    return method
      ? (this.calls[method] ?? 0)
      : Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  resetCalls(): void {
    for (const key of Object.keys(this.calls)) delete this.calls[key];
  }

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

  addPipeline(
    projectId: number,
    id: number,
    createdAt: string,
    status: GitLabPipelineStatus = 'success',
    duration: number | null = 120,
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
    };
    this.pipelines.get(projectId)!.push(pipeline);
    return pipeline;
  }

  /** Changes a pipeline as GitLab would: new status, bumped updated_at. */
  update(projectId: number, id: number, patch: Partial<GitLabPipeline>): void {
    const p = this.pipelines.get(projectId)!.find((x) => x.id === id)!;
    Object.assign(p, patch);
  }

  async getGroup(idOrPath: string | number): Promise<GitLabGroup> {
    this.count('getGroup');
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
  async listSubgroups(): Promise<GitLabGroup[]> {
    this.count('listSubgroups');
    return [];
  }
  async listGroupProjects(): Promise<GitLabProject[]> {
    this.count('listGroupProjects');
    return this.projects.map((p) => ({ ...p }));
  }
  /** Projects whose pipeline list answers 403, as GitLab does for Guest members or disabled CI. */
  forbidden = new Set<number>();

  async listPipelines(
    projectId: number,
    options: ListPipelinesOptions = {},
  ): Promise<GitLabPipelineListItem[]> {
    this.count('listPipelines');
    if (this.forbidden.has(projectId)) {
      throw new AppError('unauthorized', `GitLab refused access to project ${projectId} (403)`, {
        upstreamStatus: 403,
      });
    }
    const after = options.updatedAfter ? Date.parse(options.updatedAfter) : -Infinity;
    return (this.pipelines.get(projectId) ?? [])
      .filter((p) => Date.parse(p.updated_at) >= after)
      .sort((a, b) => b.id - a.id)
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
    this.count('getPipeline');
    const p = this.pipelines.get(projectId)?.find((x) => x.id === pipelineId);
    if (!p) throw new AppError('not_found', `Pipeline ${pipelineId} not found`);
    return { ...p };
  }
  async listPipelineJobs(): Promise<GitLabJob[]> {
    this.count('listPipelineJobs');
    return [];
  }
  async getJob(projectId: number, jobId: number): Promise<GitLabJob> {
    this.count('getJob');
    throw new AppError('not_found', `Job ${jobId} not found in project ${projectId}`);
  }
  async getJobTrace(): Promise<string> {
    this.count('getJobTrace');
    return '';
  }
  async getCommit(_projectId: number, sha: string): Promise<GitLabCommit> {
    this.count('getCommit');
    throw new AppError('not_found', `Commit ${sha} not found`);
  }
  async getCurrentUser(): Promise<GitLabUser> {
    this.count('getCurrentUser');
    return {
      id: 1,
      username: 'alice',
      name: 'Alice',
      state: 'active',
      avatar_url: '',
      web_url: `${this.baseUrl}/alice`,
    };
  }
  async getMergeRequest(_projectId: number, iid: number): Promise<GitLabMergeRequest> {
    this.count('getMergeRequest');
    throw new AppError('not_found', `Merge request !${iid} not found`);
  }
  async fetchImage(): Promise<FetchedImage> {
    this.count('fetchImage');
    throw new AppError('not_found', 'No image');
  }
}
