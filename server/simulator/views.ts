import { jobArtifactsView } from './test-reports/views.ts';
import type {
  GitLabCommit,
  GitLabGroup,
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabPipelineStatus,
  GitLabProject,
  GitLabUser,
} from '../gitlab/wire.ts';
import { COMMIT_PHRASES, COMMIT_TYPES, TOPICS } from './commit-words.ts';
import type { Dataset } from './dataset.ts';
import { NULL_SHA } from './pipeline-draft.ts';
import type {
  SimBridge,
  SimGroup,
  SimJob,
  SimMergeRequest,
  SimPipeline,
  SimProject,
  SimUser,
} from './model.ts';
import { rngFor } from './random.ts';
import { bridgeStatusOf } from './plan.ts';

/**
 * A timestamp as GitLab writes it. With `offsetMinutes` it carries that offset instead of `Z`, as
 * commit dates always do (the committer's zone, e.g. `2015-12-24T16:51:14.000+01:00` in
 * doc/api/jobs.md) and as instances with a configured time zone do for other fields.
 */
export function gitLabTime(ms: number, offsetMinutes = 0): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

/**
 * A timestamp as GitLab's GraphQL `Time` scalar writes it: `value.iso8601`, whole seconds (the
 * fraction dropped, not rounded) — `2021-03-09T14:58:50Z`, never REST's milliseconds.
 */
export function gitLabGraphQLTime(ms: number, offsetMinutes = 0): string {
  return gitLabTime(Math.floor(ms / 1000) * 1000, offsetMinutes).replace('.000', '');
}

// Committers' zones: a commit's dates carry its author's offset.
const COMMITTER_OFFSETS = [60, 0, -300, 330, 120, -420, 540, 60, -240];

const STATUS_TEXT: Readonly<Record<GitLabPipelineStatus, [text: string, label: string]>> = {
  created: ['Created', 'created'],
  waiting_for_resource: ['Waiting', 'waiting for resource'],
  preparing: ['Preparing', 'preparing'],
  pending: ['Pending', 'pending'],
  running: ['Running', 'running'],
  success: ['Passed', 'passed'],
  failed: ['Failed', 'failed'],
  canceling: ['Canceling', 'canceling'],
  canceled: ['Canceled', 'canceled'],
  skipped: ['Skipped', 'skipped'],
  manual: ['Blocked', 'waiting for manual action'],
  scheduled: ['Scheduled', 'waiting for delayed job'],
  waiting_for_callback: ['Waiting', 'waiting for callback'],
};

/** A commit as GitLab returns it, plus the extra fields of the single-commit endpoint. */
export type CommitView = GitLabCommit & Record<string, unknown>;

/** Builds GitLab wire JSON from the dataset; every URL is absolute on the simulator's base URL. */
export class Views {
  constructor(
    private readonly data: Dataset,
    private readonly base: () => string,
    /** The instance's zone for non-commit timestamps (0 = UTC, what gitlab.com sends). */
    private readonly offsetMinutes = 0,
  ) {}

  /** A non-commit timestamp as this instance writes it (UTC, or its configured zone). */
  time(ms: number): string {
    return this.iso(ms);
  }

  /** A `Time` value of a GraphQL answer: whole seconds (app/graphql/types/time_type.rb). */
  graphqlTime(ms: number): string {
    return gitLabGraphQLTime(ms, this.offsetMinutes);
  }

  private iso(ms: number): string {
    return gitLabTime(ms, this.offsetMinutes);
  }

  private isoOrNull(ms: number | null): string | null {
    return ms === null ? null : this.iso(ms);
  }

  userAvatarUrl(user: SimUser): string {
    return `${this.base()}/uploads/-/system/user/avatar/${user.id}/avatar.png`;
  }

  /** A user as embedded in pipelines and jobs. */
  user(user: SimUser): GitLabUser & Record<string, unknown> {
    return {
      id: user.id,
      username: user.username,
      name: user.name,
      state: 'active',
      locked: false,
      avatar_url: this.userAvatarUrl(user),
      web_url: `${this.base()}/${user.username}`,
    };
  }

  /** GET /user for the token's owner. */
  currentUser(user: SimUser): Record<string, unknown> {
    return {
      ...this.user(user),
      created_at: this.iso(user.createdAt),
      bio: '',
      location: '',
      public_email: null,
      linkedin: '',
      twitter: '',
      discord: '',
      website_url: '',
      organization: 'Acme Corp',
      job_title: 'Software Engineer',
      pronouns: null,
      bot: user.bot,
      work_information: null,
      local_time: null,
      last_sign_in_at: this.iso(this.data.options.now - 3_600_000),
      confirmed_at: this.iso(user.createdAt),
      last_activity_on: this.iso(this.data.options.now).slice(0, 10),
      email: user.email,
      theme_id: 1,
      color_scheme_id: 1,
      projects_limit: 100000,
      current_sign_in_at: this.iso(this.data.options.now - 3_600_000),
      identities: [],
      can_create_group: true,
      can_create_project: true,
      two_factor_enabled: true,
      external: false,
      private_profile: false,
      commit_email: user.email,
    };
  }

  groupAvatarUrl(group: SimGroup): string | null {
    return group.hasAvatar
      ? `${this.base()}/uploads/-/system/group/avatar/${group.id}/${group.path}.png`
      : null;
  }

  /** GET /groups/:id and the elements of group lists. */
  group(group: SimGroup): GitLabGroup & Record<string, unknown> {
    const parent = group.parentId === null ? null : this.data.groupById.get(group.parentId);
    return {
      id: group.id,
      web_url: `${this.base()}/groups/${group.fullPath}`,
      name: group.name,
      path: group.path,
      description: group.description,
      visibility: 'private',
      share_with_group_lock: false,
      require_two_factor_authentication: false,
      two_factor_grace_period: 48,
      project_creation_level: 'developer',
      auto_devops_enabled: null,
      subgroup_creation_level: 'maintainer',
      emails_disabled: false,
      emails_enabled: true,
      mentions_disabled: null,
      lfs_enabled: true,
      default_branch: null,
      default_branch_protection: 2,
      avatar_url: this.groupAvatarUrl(group),
      request_access_enabled: true,
      full_name: parent ? `${this.group(parent).full_name as string} / ${group.name}` : group.name,
      full_path: group.fullPath,
      created_at: this.iso(group.createdAt),
      parent_id: group.parentId,
      organization_id: 1,
      shared_runners_setting: 'enabled',
      ldap_cn: null,
      ldap_access: null,
      marked_for_deletion_on: null,
    };
  }

  /** A project, full or `simple` (GitLab's simple view has no `archived`, `visibility`, …). */
  project(project: SimProject, simple: boolean): Record<string, unknown> {
    const group = project.group;
    const base = this.base();
    const last = project.pipelines[project.pipelines.length - 1];
    const lastActivity = Math.max(project.createdAt, last?.updatedAt ?? 0);
    const namespace = {
      id: group.id,
      name: group.name,
      path: group.path,
      kind: 'group',
      full_path: group.fullPath,
      parent_id: group.parentId,
      avatar_url: this.groupAvatarUrl(group),
      web_url: `${base}/groups/${group.fullPath}`,
    };
    const host = new URL(base).host;
    const view: Record<string, unknown> = {
      id: project.id,
      description: project.description,
      name: project.name,
      name_with_namespace: `${this.fullName(group)} / ${project.name}`,
      path: project.path,
      path_with_namespace: project.fullPath,
      created_at: this.iso(project.createdAt),
      default_branch: project.defaultBranch,
      tag_list: [],
      topics: [],
      ssh_url_to_repo: `git@${host.split(':')[0]}:${project.fullPath}.git`,
      http_url_to_repo: `${base}/${project.fullPath}.git`,
      web_url: `${base}/${project.fullPath}`,
      readme_url: `${base}/${project.fullPath}/-/blob/${project.defaultBranch}/README.md`,
      forks_count: 0,
      avatar_url: null,
      star_count: project.id % 17,
      last_activity_at: this.iso(lastActivity),
      namespace,
    };
    if (simple) return view;
    const full: Omit<GitLabProject, 'namespace'> & Record<string, unknown> = {
      ...(view as Omit<GitLabProject, 'namespace' | 'archived'>),
      description: project.description,
      default_branch: project.defaultBranch,
      archived: project.archived,
      visibility: 'private',
      empty_repo: false,
      container_registry_image_prefix: `registry.${host.split(':')[0]}/${project.fullPath}`,
      _links: {
        self: `${base}/api/v4/projects/${project.id}`,
        issues: `${base}/api/v4/projects/${project.id}/issues`,
        merge_requests: `${base}/api/v4/projects/${project.id}/merge_requests`,
        repo_branches: `${base}/api/v4/projects/${project.id}/repository/branches`,
      },
      jobs_enabled: project.pipelineAccess !== 'ci-disabled',
      builds_access_level: project.pipelineAccess === 'ci-disabled' ? 'disabled' : 'enabled',
      shared_runners_enabled: true,
      open_issues_count: project.id % 41,
      ci_config_path: null,
      ci_default_git_depth: 20,
      build_timeout: 3600,
      auto_cancel_pending_pipelines: 'enabled',
      only_allow_merge_if_pipeline_succeeds: true,
      creator_id: project.maintainerId,
      namespace,
    };
    return full;
  }

  private fullName(group: SimGroup): string {
    const parent = group.parentId === null ? undefined : this.data.groupById.get(group.parentId);
    return parent ? `${this.fullName(parent)} / ${group.name}` : group.name;
  }

  private projectOf(pipeline: SimPipeline): SimProject {
    const project = this.data.projectById.get(pipeline.projectId);
    if (!project) throw new Error(`pipeline ${pipeline.id} has no project`);
    return project;
  }

  /** An element of GET /projects/:id/pipelines: the list fields only. */
  pipelineListItem(pipeline: SimPipeline): GitLabPipelineListItem {
    return { ...this.pipelineRef(pipeline), name: pipeline.name };
  }

  /** The pipeline a job names: the list fields without `name` (doc/api/jobs.md). */
  private pipelineRef(pipeline: SimPipeline): Omit<GitLabPipelineListItem, 'name'> {
    const project = this.projectOf(pipeline);
    return {
      id: pipeline.id,
      iid: pipeline.iid,
      project_id: pipeline.projectId,
      sha: pipeline.sha,
      ref: pipeline.ref,
      status: pipeline.status,
      source: pipeline.source,
      created_at: this.iso(pipeline.createdAt),
      updated_at: this.iso(pipeline.updatedAt),
      web_url: `${this.base()}/${project.fullPath}/-/pipelines/${pipeline.id}`,
    };
  }

  /** GET /projects/:id/pipelines/:pipeline_id */
  pipeline(pipeline: SimPipeline): GitLabPipeline & Record<string, unknown> {
    const project = this.projectOf(pipeline);
    const user = this.data.userById.get(pipeline.userId);
    const jobs = this.data.jobsOf(pipeline);
    const warnings =
      pipeline.status === 'success' && jobs.some((j) => j.status === 'failed' && j.allowFailure);
    const [text, label] = STATUS_TEXT[pipeline.status];
    const commit = this.commitOf(project, pipeline.sha);
    return {
      ...this.pipelineListItem(pipeline),
      before_sha: pipeline.beforeSha,
      tag: pipeline.tag,
      yaml_errors: pipeline.yamlErrors ?? null,
      user: user ? this.user(user) : null,
      started_at: this.isoOrNull(pipeline.startedAt),
      finished_at: this.isoOrNull(pipeline.finishedAt),
      committed_at: commit.committed_date,
      duration: pipeline.duration,
      queued_duration: pipeline.queuedDuration,
      coverage: pipeline.coverage,
      archived: false,
      detailed_status: {
        icon: warnings ? 'status_warning' : `status_${pipeline.status}`,
        text: warnings ? 'Warning' : text,
        label: warnings ? 'passed with warnings' : label,
        group: warnings ? 'success-with-warnings' : pipeline.status,
        tooltip: warnings ? 'passed with warnings' : label,
        has_details: true,
        details_path: `/${project.fullPath}/-/pipelines/${pipeline.id}`,
        illustration: null,
        favicon: `/assets/ci_favicons/favicon_status_${pipeline.status}.png`,
      },
    };
  }

  /** GET /projects/:id/jobs/:job_id and the elements of pipeline job lists. */
  job(job: SimJob, pipeline: SimPipeline): GitLabJob & Record<string, unknown> {
    const project = this.projectOf(pipeline);
    const user = this.data.userById.get(pipeline.userId);
    const duration =
      job.startedAt === null ? null : ((job.finishedAt ?? this.data.now()) - job.startedAt) / 1000;
    const queued =
      job.queuedAt === null ? null : ((job.startedAt ?? this.data.now()) - job.queuedAt) / 1000;
    const commit = this.commitOf(project, pipeline.sha);
    const runnerNo = (project.id % 6) + 1;
    const junit = jobArtifactsView(project, job, this.data.now(), (ms) => this.iso(ms));
    const view = {
      id: job.id,
      status: job.status,
      stage: job.stage,
      name: job.name,
      ref: pipeline.ref,
      tag: pipeline.tag,
      coverage: job.coverage,
      allow_failure: job.allowFailure,
      created_at: this.iso(job.createdAt),
      started_at: this.isoOrNull(job.startedAt),
      finished_at: this.isoOrNull(job.finishedAt),
      erased_at: null,
      duration: duration === null ? null : Math.max(0, duration),
      queued_duration: queued === null ? null : Math.max(0, queued),
      user: user
        ? { ...this.user(user), created_at: this.iso(user.createdAt), bio: '', bot: user.bot }
        : null,
      commit: {
        id: commit.id,
        short_id: commit.short_id,
        created_at: commit.created_at,
        parent_ids: commit.parent_ids,
        title: commit.title,
        message: commit.message,
        author_name: commit.author_name,
        author_email: commit.author_email,
        authored_date: commit.authored_date,
        committer_name: commit.committer_name,
        committer_email: commit.committer_email,
        committed_date: commit.committed_date,
        trailers: {},
        extended_trailers: {},
        web_url: commit.web_url,
      },
      pipeline: this.pipelineRef(pipeline),
      web_url: `${this.base()}/${project.fullPath}/-/jobs/${job.id}`,
      project: { ci_job_token_scope_enabled: false },
      artifacts: junit.artifacts,
      runner:
        job.startedAt === null
          ? null
          : {
              id: 40_000 + runnerNo,
              description: `acme-runner-${runnerNo}`,
              ip_address: null,
              active: true,
              paused: false,
              is_shared: true,
              runner_type: 'instance_type',
              name: 'gitlab-runner',
              online: true,
              status: 'online',
            },
      artifacts_expire_at: junit.artifacts_expire_at,
      archived: false,
      tag_list: [],
      ...(job.status === 'failed'
        ? { failure_reason: job.failure === 'timeout' ? 'job_execution_timeout' : 'script_failure' }
        : {}),
    };
    return view;
  }

  /**
   * An element of GET /projects/:id/pipelines/:pipeline_id/bridges (doc/api/jobs.md, "List
   * pipeline trigger jobs"): the job fields plus `downstream_pipeline`, whose status it mirrors.
   */
  bridge(bridge: SimBridge, pipeline: SimPipeline): Record<string, unknown> {
    const project = this.projectOf(pipeline);
    const downstream = bridge.downstream
      ? this.data.pipelineById.get(bridge.downstream.pipelineId)
      : undefined;
    const downstreamProject = downstream ? this.projectOf(downstream) : undefined;
    const user = this.data.userById.get(pipeline.userId);
    return {
      id: bridge.id,
      name: bridge.name,
      stage: bridge.stage,
      status: bridgeStatusOf(bridge, downstream?.status),
      ref: pipeline.ref,
      tag: pipeline.tag,
      allow_failure: false,
      created_at: this.iso(bridge.createdAt),
      started_at: this.isoOrNull(downstream?.startedAt ?? null),
      finished_at: this.isoOrNull(downstream?.finishedAt ?? null),
      duration: downstream?.duration ?? null,
      queued_duration: downstream?.queuedDuration ?? null,
      user: user ? this.user(user) : null,
      pipeline: this.pipelineListItem(pipeline),
      web_url: `${this.base()}/${project.fullPath}/-/jobs/${bridge.id}`,
      downstream_pipeline:
        downstream && downstreamProject
          ? {
              // lib/api/entities/ci/pipeline_basic.rb
              id: downstream.id,
              iid: downstream.iid,
              project_id: downstream.projectId,
              sha: downstream.sha,
              ref: downstream.ref,
              status: downstream.status,
              source: downstream.source,
              created_at: this.iso(downstream.createdAt),
              updated_at: this.iso(downstream.updatedAt),
              web_url: `${this.base()}/${downstreamProject.fullPath}/-/pipelines/${downstream.id}`,
            }
          : null,
    };
  }

  /** GET /projects/:id/merge_requests/:iid (the fields a client reads; doc/api/merge_requests.md). */
  mergeRequest(project: SimProject, mr: SimMergeRequest): Record<string, unknown> {
    const author = this.data.userById.get(mr.authorId);
    return {
      id: project.id * 1_000 + mr.iid,
      iid: mr.iid,
      project_id: project.id,
      title: mr.title,
      description: '',
      state: 'opened',
      created_at: this.iso(mr.createdAt),
      updated_at: this.iso(mr.createdAt),
      target_branch: project.defaultBranch,
      source_branch: mr.sourceBranch,
      author: author ? this.user(author) : null,
      draft: false,
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      web_url: `${this.base()}/${project.fullPath}/-/merge_requests/${mr.iid}`,
    };
  }

  /** The commit behind `sha` in `project`, derived from the sha so every pipeline agrees on it. */
  commitOf(project: SimProject, sha: string): CommitView {
    const first = project.shaIndex.get(sha);
    const rng = rngFor(this.data.options.seed, 'commit', sha);
    const pipelineUser = first ? this.data.userById.get(first.userId) : undefined;
    const authorId =
      pipelineUser && !pipelineUser.bot && rng.chance(0.75)
        ? pipelineUser.id
        : rng.pick(project.contributors);
    const author = this.data.userById.get(authorId)!;
    const committedAt =
      (first?.createdAt ?? this.data.options.now) - rng.int(20_000, 3 * 3_600_000);
    const topic = rng.pick(TOPICS[project.kind]);
    const type = rng.weighted(COMMIT_TYPES);
    const scope = rng.chance(0.5) ? `(${project.path.split('-')[0]})` : '';
    const phrase = rng.pick(COMMIT_PHRASES[type] ?? ['update {t}']).replace('{t}', topic);
    let title = `${type}${scope}: ${phrase}`;
    let body = rng.pick([
      `The previous ${topic} behaviour surprised users on slow networks.`,
      `Follow-up to the ${topic} discussion in the weekly sync.`,
      `No behaviour change for existing callers.`,
      `Closes #${rng.int(100, 4000)}`,
    ]);
    const parents = [first && first.beforeSha !== NULL_SHA ? first.beforeSha : rng.hex(40)];
    if (first?.outcome === 'skipped') title = `${title} [skip ci]`;
    else if (first?.refKind === 'default' && first.source === 'push' && rng.chance(0.4)) {
      const branch = `${rng.pick(['feat', 'fix'])}/${topic.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      body = `${title}\n\nSee merge request ${project.fullPath}!${rng.int(40, 2000)}`;
      title = `Merge branch '${branch}' into '${project.defaultBranch}'`;
      parents.push(rng.hex(40));
    }
    title = project.commitTitles?.get(sha) ?? title;
    const date = gitLabTime(committedAt, COMMITTER_OFFSETS[author.id % COMMITTER_OFFSETS.length]);
    const additions = rng.int(1, 400);
    const deletions = rng.int(0, 200);
    let latest: SimPipeline | undefined;
    for (let i = project.pipelines.length - 1; i >= 0 && !latest; i--) {
      if (project.pipelines[i]!.sha === sha) latest = project.pipelines[i];
    }
    return {
      id: sha,
      short_id: sha.slice(0, 8),
      created_at: date,
      parent_ids: parents,
      title,
      message: `${title}\n\n${body}\n`,
      author_name: author.name,
      author_email: author.email,
      authored_date: date,
      committer_name: author.name,
      committer_email: author.email,
      committed_date: date,
      trailers: {},
      extended_trailers: {},
      web_url: `${this.base()}/${project.fullPath}/-/commit/${sha}`,
      stats: { additions, deletions, total: additions + deletions },
      status: latest?.status ?? null,
      project_id: project.id,
      last_pipeline: latest ? this.pipelineListItem(latest) : null,
    };
  }
}
