/**
 * Domain types of the pipeline history: what is kept about pipelines and jobs beyond the summary
 * window (retention, default 90 days), for a warm restart and for group health (default branches,
 * flaky jobs, duration regressions, every failure). Times are epoch milliseconds; durations seconds.
 */
import { mergeRequestIid } from '../summary/merge-request-ref.ts';

/** A watched project as the history knows it. */
export interface ProjectHistoryRecord {
  id: number;
  name: string;
  /** `group/sub/project`. */
  path: string;
  webUrl: string;
  /** The project's default branch (`main`), or '' when GitLab reports none (empty repository). */
  defaultBranch: string;
}

/** Who triggered a pipeline. */
export interface HistoryUser {
  id: number;
  username: string;
  name: string;
  avatarUrl: string;
}

/** A pipeline record. List fields are always known; detail fields once the pipeline was fetched. */
export interface PipelineHistoryRecord {
  projectId: number;
  pipelineId: number;
  ref: string;
  sha: string;
  source: string;
  status: string;
  /** True when `ref` is the project's default branch (MR and tag pipelines never are). */
  defaultBranch: boolean;
  user: HistoryUser | null;
  commitTitle: string | null;
  commitAuthor: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** GitLab's updated_at as sent (ISO): the change marker (a Retry revives a finished pipeline). */
  updatedAt: string;
  /** Integer seconds. */
  duration: number | null;
  /** Integer seconds. */
  queuedDuration: number | null;
  webUrl: string;
  /** The updated_at the single-pipeline details (duration, user) were fetched at, or null. */
  detailsFor: string | null;
  /** The updated_at the jobs (and the commit title/author) were fetched at, or null. */
  jobsFor: string | null;
}

/** A job record; retried attempts are kept (GitLab `include_retried=true`) with `retried: true`. */
export interface JobHistoryRecord {
  projectId: number;
  pipelineId: number;
  jobId: number;
  name: string;
  stage: string;
  status: string;
  /** True when a later attempt of the same job name exists in the same pipeline. */
  retried: boolean;
  allowFailure: boolean;
  failureReason: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Seconds (GitLab sends floats for jobs; kept as sent for percentile precision). */
  duration: number | null;
  /** Seconds. */
  queuedDuration: number | null;
  webUrl: string;
}

/** Everything the health computations read: plain arrays, no store. */
export interface HistorySnapshot {
  projects: readonly ProjectHistoryRecord[];
  pipelines: readonly PipelineHistoryRecord[];
  /** Each pipeline's job attempts (retried ones included), by pipeline id, oldest attempt first. */
  jobs: ReadonlyMap<number, readonly JobHistoryRecord[]>;
}

/** The merge-request iid behind a ref (the summary's rule, shared). */
export { mergeRequestIid };

/** True for pipelines GitLab ran for a merge request (source or ref say so). */
export function isMergeRequestPipeline(p: Pick<PipelineHistoryRecord, 'ref' | 'source'>): boolean {
  return p.source === 'merge_request_event' || mergeRequestIid(p.ref) !== null;
}

/**
 * Marks every attempt but the newest of each job name in a pipeline as retried. GitLab's REST job
 * entity has no `retried` field; with `include_retried=true` the older attempts of a name are the
 * retried ones (https://gitlab.com/gitlab-org/gitlab/-/merge_requests/48589).
 */
export function markRetried<T extends { name: string; jobId: number; retried: boolean }>(
  jobs: readonly T[],
): T[] {
  const newest = new Map<string, number>();
  for (const job of jobs) newest.set(job.name, Math.max(newest.get(job.name) ?? -1, job.jobId));
  return jobs.map((job) => ({
    ...job,
    retried: job.retried || newest.get(job.name) !== job.jobId,
  }));
}
