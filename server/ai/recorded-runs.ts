// A job's earlier runs, for "when did it last pass?" and "who broke it?", and its other attempts:
// read from the pipeline history the service already keeps (server/history, handed in by the
// composition root through `StoredRuns`) and from GitLab only for a pipeline the history lacks or
// holds at an older state. Without it each analysis listed the jobs of up to 13 pipelines.
import type { GitLabApi } from '../gitlab/api.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import type { RecordedRun } from './breakage.ts';
import type { JobAttempt } from './job-attempts.ts';

/** A stored pipeline as the analysis reads it (server/history's PipelineHistoryRecord fits). */
export interface StoredPipeline {
  sha: string;
  commitTitle: string | null;
  commitAuthor: string | null;
  /** GitLab's updated_at when its jobs were read, or null. */
  jobsFor: string | null;
}

/** A stored job attempt as the analysis reads it (server/history's JobHistoryRecord fits). */
export interface StoredJob {
  jobId: number;
  name: string;
  status: string;
  retried: boolean;
  failureReason: string | null;
  /** Epoch milliseconds. */
  finishedAt: number | null;
  /** Seconds. */
  duration: number | null;
}

/** The pipeline history's reads the analysis makes (server/history's PipelineHistory fits). */
export interface StoredRuns {
  pipeline(pipelineId: number): StoredPipeline | undefined;
  jobsOf(pipelineId: number): readonly StoredJob[];
}

/**
 * A pipeline's stored job attempts when the history read them at GitLab's current `updatedAt` for
 * it (a Retry since then would have changed it); undefined when it lacks them.
 */
export function storedJobsAt(
  stored: StoredRuns | undefined,
  pipelineId: number,
  updatedAt: string,
): { pipeline: StoredPipeline; jobs: readonly StoredJob[] } | undefined {
  const pipeline = stored?.pipeline(pipelineId);
  if (!pipeline || !sameUpdatedAt(pipeline.jobsFor, updatedAt)) return undefined;
  const jobs = stored!.jobsOf(pipelineId);
  return jobs.length > 0 ? { pipeline, jobs } : undefined;
}

/** A job of GitLab's list as a run. */
export function recordedRunOf(job: GitLabJob): RecordedRun {
  const c = job.commit;
  return {
    jobId: job.id,
    pipelineId: job.pipeline.id,
    name: job.name,
    status: job.status,
    finishedAt: job.finished_at,
    durationSec: job.duration === null ? null : Math.round(job.duration),
    commit: c
      ? { sha: c.id, shortId: c.short_id, title: c.title, author: c.author_name }
      : undefined,
  };
}

/**
 * The latest attempt of each stored job as a run, as GitLab's job list (without
 * include_retried) would give it; undefined when the history does not name the commit.
 */
function storedRunsOf(
  pipelineId: number,
  stored: { pipeline: StoredPipeline; jobs: readonly StoredJob[] },
): RecordedRun[] | undefined {
  const { sha, commitTitle, commitAuthor } = stored.pipeline;
  if (commitTitle === null || commitAuthor === null) return undefined;
  // GitLab's short_id is the sha's first 8 characters.
  const commit = { sha, shortId: sha.slice(0, 8), title: commitTitle, author: commitAuthor };
  return stored.jobs
    .filter((j) => !j.retried)
    .map((j) => ({
      jobId: j.jobId,
      pipelineId,
      name: j.name,
      status: j.status,
      finishedAt: j.finishedAt === null ? null : new Date(j.finishedAt).toISOString(),
      durationSec: j.duration === null ? null : Math.round(j.duration),
      commit,
    }));
}

/**
 * Reads pipelines' job runs, history first, each pipeline once: `pipeline` is an element of
 * GitLab's pipeline list (its updated_at says whether the stored jobs are current).
 */
export function jobRunsReader(
  gitlab: Pick<GitLabApi, 'listPipelineJobs'>,
  stored: StoredRuns | undefined,
  projectId: number,
): (pipeline: { id: number; updated_at: string }) => Promise<RecordedRun[]> {
  const read = new Map<number, Promise<RecordedRun[]>>();
  return (pipeline) => {
    let runs = read.get(pipeline.id);
    if (!runs) {
      const known = storedJobsAt(stored, pipeline.id, pipeline.updated_at);
      const fromHistory = known && storedRunsOf(pipeline.id, known);
      runs = fromHistory
        ? Promise.resolve(fromHistory)
        : gitlab.listPipelineJobs(projectId, pipeline.id).then((jobs) => jobs.map(recordedRunOf));
      read.set(pipeline.id, runs);
    }
    return runs;
  };
}

/**
 * The job's other attempts in its pipeline from the history, oldest first, when it holds the
 * pipeline as GitLab has it now (`updatedAt`) and knows this attempt; undefined otherwise.
 */
export function storedAttempts(
  stored: StoredRuns | undefined,
  pipelineId: number,
  updatedAt: string,
  job: { jobId: number; jobName: string },
): JobAttempt[] | undefined {
  const known = storedJobsAt(stored, pipelineId, updatedAt);
  if (!known?.jobs.some((j) => j.jobId === job.jobId)) return undefined;
  return known.jobs
    .filter((j) => j.name === job.jobName && j.jobId !== job.jobId)
    .sort((a, b) => a.jobId - b.jobId)
    .map((j) => ({
      jobId: j.jobId,
      status: j.status,
      failureReason: j.failureReason ?? undefined,
      finishedAt: j.finishedAt === null ? null : new Date(j.finishedAt).toISOString(),
    }));
}
