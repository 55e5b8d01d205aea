/**
 * GitLab wire types → history records. The fields a history record shares with the summary's
 * (ids, status, times, duration, user, the details marker) are converted by the summary's
 * conversion (`server/summary/from-gitlab.ts`), so both read GitLab's answers the same way; this
 * file adds what only the history keeps (sha, start/finish times, queued time, the default branch,
 * every job attempt).
 */
import type {
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
} from '../gitlab/wire.ts';
import {
  toPipelineRecord,
  toProject,
  toSeconds,
  withPipelineDetails,
} from '../summary/from-gitlab.ts';
import type { JobHistoryRecord, PipelineHistoryRecord, ProjectHistoryRecord } from './model.ts';

/** An ISO time (or none) as epoch ms. */
function epochMs(iso: string | null | undefined): number | null {
  return iso ? Date.parse(iso) : null;
}

/** A GitLab project → the history's project record ('' for an empty repository's branch). */
export function toProjectHistory(p: GitLabProject): ProjectHistoryRecord {
  return { ...toProject(p), defaultBranch: p.default_branch ?? '' };
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
  const listed = toPipelineRecord(item, previous);
  const shared = detail ? withPipelineDetails(listed, detail) : listed;
  return {
    projectId: shared.projectId,
    pipelineId: shared.id,
    ref: shared.ref,
    sha: item.sha,
    source: shared.source,
    status: shared.status,
    // Tag pipelines never count for the branch, even when a tag shares its name.
    defaultBranch: item.ref === defaultBranch && defaultBranch !== '' && !detail?.tag,
    user: shared.user,
    commitTitle: previous?.commitTitle ?? null,
    commitAuthor: previous?.commitAuthor ?? null,
    createdAt: shared.createdAt,
    startedAt: detail ? epochMs(detail.started_at) : (previous?.startedAt ?? null),
    finishedAt: detail ? epochMs(detail.finished_at) : (previous?.finishedAt ?? null),
    updatedAt: shared.updatedAt,
    duration: shared.duration,
    queuedDuration: detail ? toSeconds(detail.queued_duration) : (previous?.queuedDuration ?? null),
    webUrl: shared.webUrl,
    detailsFor: shared.detailsFor,
    jobsFor: previous?.jobsFor ?? null,
  };
}

/** A GitLab job attempt → a history job record (`retried` is settled per pipeline by markRetried). */
export function toJobHistory(job: GitLabJob, projectId: number): JobHistoryRecord {
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
    startedAt: epochMs(job.started_at),
    finishedAt: epochMs(job.finished_at),
    // Kept as sent (floats): the health's percentiles want the precision the summary rounds away.
    duration: typeof job.duration === 'number' ? job.duration : null,
    queuedDuration: typeof job.queued_duration === 'number' ? job.queued_duration : null,
    webUrl: job.web_url,
  };
}
