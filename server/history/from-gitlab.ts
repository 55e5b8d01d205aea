/**
 * GitLab wire types → history records: the one place the history converts what GitLab sends
 * (kept next to the history so the summary's conversions stay as they are).
 */
import type {
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
  GitLabUser,
} from '../gitlab/wire.ts';
import type {
  HistoryUser,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from './model.ts';

/** Durations are integer seconds for pipelines; GitLab may send floats. */
function toSeconds(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;
}

function toUser(u: GitLabUser | null | undefined): HistoryUser | null {
  if (!u) return null;
  return { id: u.id, username: u.username, name: u.name, avatarUrl: u.avatar_url ?? '' };
}

/** A GitLab project → the history's project record. */
export function toProjectHistory(p: GitLabProject): ProjectHistoryRecord {
  return {
    id: p.id,
    name: p.name,
    path: p.path_with_namespace,
    webUrl: p.web_url,
    defaultBranch: p.default_branch ?? '',
  };
}

/**
 * A pipeline list item or single pipeline → a history record, keeping what `previous` knew that
 * this answer lacks (the list has no duration, user or times; jobs bring the commit).
 */
export function toPipelineHistory(
  item: GitLabPipelineListItem | GitLabPipeline,
  defaultBranch: string,
  previous?: PipelineHistoryRecord,
): PipelineHistoryRecord {
  const detail = 'duration' in item ? item : null;
  const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);
  return {
    projectId: item.project_id,
    pipelineId: item.id,
    ref: item.ref,
    sha: item.sha,
    source: item.source,
    status: item.status,
    // Tag pipelines never count for the branch, even when a tag shares its name.
    defaultBranch: item.ref === defaultBranch && defaultBranch !== '' && !detail?.tag,
    user: detail ? toUser(detail.user) : (previous?.user ?? null),
    commitTitle: previous?.commitTitle ?? null,
    commitAuthor: previous?.commitAuthor ?? null,
    createdAt: Date.parse(item.created_at),
    startedAt: detail ? ms(detail.started_at) : (previous?.startedAt ?? null),
    finishedAt: detail ? ms(detail.finished_at) : (previous?.finishedAt ?? null),
    updatedAt: item.updated_at,
    duration: detail ? toSeconds(detail.duration) : (previous?.duration ?? null),
    queuedDuration: detail ? toSeconds(detail.queued_duration) : (previous?.queuedDuration ?? null),
    webUrl: item.web_url,
    detailsFor: detail ? detail.updated_at : (previous?.detailsFor ?? null),
    jobsFor: previous?.jobsFor ?? null,
  };
}

/** A GitLab job attempt → a history job record (`retried` is settled per pipeline by markRetried). */
export function toJobHistory(job: GitLabJob, projectId: number): JobHistoryRecord {
  const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);
  return {
    projectId,
    pipelineId: job.pipeline.id,
    jobId: job.id,
    name: job.name,
    stage: job.stage,
    status: job.status,
    retried: (job as { retried?: boolean }).retried === true,
    allowFailure: job.allow_failure,
    failureReason: job.failure_reason ?? null,
    createdAt: Date.parse(job.created_at),
    startedAt: ms(job.started_at),
    finishedAt: ms(job.finished_at),
    duration: typeof job.duration === 'number' ? job.duration : null,
    queuedDuration: typeof job.queued_duration === 'number' ? job.queued_duration : null,
    webUrl: job.web_url,
  };
}
