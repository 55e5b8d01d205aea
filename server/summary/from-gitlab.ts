import type { BridgeDetails, DownstreamFailure, JobDetails, PipelineDetails } from '../contract.ts';
import type { PipelineRecord, PipelineUser, Project } from './model.ts';
import type {
  GitLabBridge,
  GitLabCommit,
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
  GitLabUser,
} from '../gitlab/wire.ts';

/** The one place GitLab wire types become domain and API types (the history builds on it too). */

/** Durations are integer seconds everywhere; GitLab sends floats for jobs. */
export function toSeconds(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;
}

/** A GitLab project → a watched project. */
export function toProject(p: GitLabProject): Project {
  return {
    id: p.id,
    name: p.name,
    path: p.path_with_namespace,
    webUrl: p.web_url,
    defaultBranch: p.default_branch ?? null,
  };
}

/** A GitLab user → the pipeline's user. */
export function toUser(u: GitLabUser | null | undefined): PipelineUser | null {
  if (!u) return null;
  return { id: u.id, username: u.username, name: u.name, avatarUrl: u.avatar_url ?? '' };
}

/**
 * A pipeline list item → a record without details (or keeping the details a previous record had:
 * the summary's own, or the history's, which carries the same three fields).
 */
export function toPipelineRecord(
  item: GitLabPipelineListItem,
  previous?: Pick<PipelineRecord, 'duration' | 'user' | 'detailsFor'>,
): PipelineRecord {
  return {
    id: item.id,
    projectId: item.project_id,
    status: item.status,
    ref: item.ref,
    source: item.source,
    createdAt: Date.parse(item.created_at),
    updatedAt: item.updated_at,
    webUrl: item.web_url,
    duration: previous?.duration ?? null,
    user: previous?.user ?? null,
    detailsFor: previous?.detailsFor ?? null,
  };
}

/** Merges a single-pipeline response (the only source of duration and user) into a record. */
export function withPipelineDetails(
  record: PipelineRecord,
  detail: GitLabPipeline,
): PipelineRecord {
  return {
    ...record,
    status: detail.status,
    ref: detail.ref,
    source: detail.source,
    updatedAt: detail.updated_at,
    duration: toSeconds(detail.duration),
    user: toUser(detail.user),
    detailsFor: detail.updated_at,
  };
}

/** A GitLab job → a job of pipeline details. */
export function toJobDetails(job: GitLabJob): JobDetails {
  return {
    id: job.id,
    name: job.name,
    stage: job.stage,
    status: job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    duration: toSeconds(job.duration),
    web_url: job.web_url,
    failure_reason: job.failure_reason ?? null,
    allow_failure: job.allow_failure,
  };
}

/**
 * The latest attempt of each job (highest id per name): what `include_retried=false` returns, but
 * computed from the full list so the stage order can still come from the first attempts.
 */
export function latestAttempts(jobs: readonly GitLabJob[]): GitLabJob[] {
  const latest = new Map<string, GitLabJob>();
  for (const job of jobs) {
    const seen = latest.get(job.name);
    if (!seen || seen.id < job.id) latest.set(job.name, job);
  }
  return [...latest.values()];
}

/**
 * Orders jobs by stage in pipeline order, then by name. GitLab creates a pipeline's jobs stage by
 * stage, so stages are ordered by their lowest job id over `attempts` (every attempt, retried ones
 * included): a retried job gets a new, higher id and must not move its stage to the end.
 */
export function orderJobs(jobs: GitLabJob[], attempts: readonly GitLabJob[] = jobs): GitLabJob[] {
  const stageOrder = new Map<string, number>();
  for (const job of [...attempts, ...jobs].sort((a, b) => a.id - b.id)) {
    if (!stageOrder.has(job.stage)) stageOrder.set(job.stage, stageOrder.size);
  }
  return [...jobs].sort(
    (a, b) =>
      stageOrder.get(a.stage)! - stageOrder.get(b.stage)! ||
      a.name.localeCompare(b.name) ||
      a.id - b.id,
  );
}

/** A trigger job → a bridge of pipeline details. */
export function toBridgeDetails(bridge: GitLabBridge): BridgeDetails {
  return {
    id: bridge.id,
    name: bridge.name,
    stage: bridge.stage,
    status: bridge.status,
    web_url: bridge.web_url,
    downstream_pipeline: bridge.downstream_pipeline
      ? {
          id: bridge.downstream_pipeline.id,
          status: bridge.downstream_pipeline.status,
          web_url: bridge.downstream_pipeline.web_url,
        }
      : null,
  };
}

/** A downstream pipeline as a trigger job names it, with its project. */
export type DownstreamPipeline = NonNullable<GitLabBridge['downstream_pipeline']> & {
  project_id: number;
};

/** A failed trigger job, its downstream pipeline and that pipeline's failing job → the API shape. */
export function toDownstreamFailure(
  trigger: GitLabBridge,
  pipeline: DownstreamPipeline | null,
  job: GitLabJob | null,
): DownstreamFailure {
  return {
    trigger_job: {
      id: trigger.id,
      name: trigger.name,
      stage: trigger.stage,
      web_url: trigger.web_url,
    },
    pipeline: pipeline
      ? {
          id: pipeline.id,
          project_id: pipeline.project_id,
          status: pipeline.status,
          web_url: pipeline.web_url,
        }
      : null,
    job: job
      ? {
          id: job.id,
          name: job.name,
          stage: job.stage,
          status: job.status,
          failure_reason: job.failure_reason ?? null,
          web_url: job.web_url,
        }
      : null,
  };
}

/**
 * A single pipeline, its jobs and its commit → the pipeline-details response. `extra.attempts`
 * (every attempt, retried ones included) fixes the stage order; `extra.bridges` adds trigger jobs.
 */
export function toPipelineDetails(
  pipeline: GitLabPipeline,
  jobs: GitLabJob[],
  commit: GitLabCommit | GitLabJob['commit'] | null,
  projectName?: string,
  extra: { attempts?: readonly GitLabJob[]; bridges?: readonly GitLabBridge[] } = {},
): PipelineDetails {
  return {
    pipeline_id: pipeline.id,
    project_id: pipeline.project_id,
    status: pipeline.status,
    ref: pipeline.ref,
    source: pipeline.source,
    created_at: pipeline.created_at,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
    duration: toSeconds(pipeline.duration),
    user: pipeline.user
      ? {
          id: pipeline.user.id,
          username: pipeline.user.username,
          name: pipeline.user.name,
          avatar_url: pipeline.user.avatar_url ?? '',
        }
      : null,
    commit: commit
      ? {
          id: commit.id,
          short_id: commit.short_id,
          title: commit.title,
          message: commit.message,
          author_name: commit.author_name,
          author_email: commit.author_email,
          created_at: commit.created_at,
        }
      : null,
    jobs: orderJobs(jobs, extra.attempts).map(toJobDetails),
    web_url: pipeline.web_url,
    ...(projectName === undefined ? {} : { project_name: projectName }),
    ...(extra.bridges === undefined ? {} : { bridges: extra.bridges.map(toBridgeDetails) }),
  };
}
