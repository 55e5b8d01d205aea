import type { GitLabApi } from '../gitlab/api.ts';
import type { GitLabJob, GitLabPipelineListItem } from '../gitlab/wire.ts';
import { AppError, isAppError } from '../platform/errors.ts';
import type { JobAttempt } from './job-attempts.ts';
import type { FailureLocations } from './offline/linked-locations.ts';
import type { Logger } from '../platform/logger.ts';
import { findBreakage, type Breakage, type RecordedRun } from './breakage.ts';
import { jobRunsReader, recordedRunOf, storedAttempts, type StoredRuns } from './recorded-runs.ts';

/** A commit as the analysis mentions it. */
export interface CommitRef {
  sha: string;
  shortId: string;
  title: string;
  author: string;
}

/** The previous successful run of the same job on the same ref ("what changed"). */
export interface PreviousSuccess {
  jobId: number;
  pipelineId: number;
  finishedAt: string | null;
  durationSec: number | null;
  commit: CommitRef | undefined;
}

/** Everything known about a job beyond its log; GitLab-derived fields are absent when unknown. */
export interface JobContext {
  projectId: number;
  projectName: string;
  pipelineId: number;
  jobId: number;
  jobName: string;
  stage: string;
  status: string | undefined;
  failureReason: string | undefined;
  allowFailure: boolean | undefined;
  ref: string | undefined;
  source: string | undefined;
  webUrl: string | undefined;
  durationSec: number | undefined;
  commit: CommitRef | undefined;
  /** Undefined when it could not be looked up, null when none was found in recent pipelines. */
  previousSuccess: PreviousSuccess | null | undefined;
  /**
   * The job's recent flake history from the pipeline history, in words (e.g. "failed and passed
   * on retry 4 times this week (31 runs)"); absent when unknown.
   */
  flakeHistory?: string;
  /**
   * What fixed the same error on this project before (triage's failure signatures), in words, e.g.
   * "This error was fixed before by a1b2c3d4 'pin node to 20.11' … two weeks ago"; absent when none.
   */
  pastFixes?: string;
  /** The container image the job ran in, when its log named it (kept for follow-ups). */
  image?: string | undefined;
  /** The job's other attempts in its pipeline (retries), oldest first; absent when unknown. */
  attempts?: JobAttempt[] | undefined;
  /** The source locations the failure points at, checked against the repository and linked. */
  locations?: FailureLocations | undefined;
  /**
   * Where the failures since `previousSuccess` began ("who broke it?"); absent when there is no
   * green run to start from, or for analyses stored before it existed.
   */
  breakage?: Breakage | undefined;
  /** The job's failed tests from the pipeline's JUnit report, with their history; absent when none. */
  failedTests?: JobTestFailure[];
}

/** A failed (or errored) test of the job, as GitLab's JUnit report and its stored history say. */
export interface JobTestFailure {
  suite: string;
  classname: string;
  name: string;
  file: string | null;
  /** `failed` or `error`. */
  status: string;
  /** The stack trace, already bounded; null when the report had none. */
  trace: string | null;
  /** When it started failing on the default branch (ISO), while it still fails there. */
  knownFailingSince: string | null;
  /** Commits it failed and passed on recently, and the runs seen. */
  flakes: number;
  runs: number;
  failures: number;
}

/** What the caller of analyse/followup told us about the job. */
export interface JobIdentity {
  projectId: number;
  pipelineId: number;
  jobId: number;
  jobName?: string | undefined;
  stage?: string | undefined;
}

/** How many recent pipelines of the ref are searched for the last green run of the job. */
const PREVIOUS_RUN_SEARCH = 20;

function commitOf(c: GitLabJob['commit']): CommitRef | undefined {
  if (!c) return undefined;
  return { sha: c.id, shortId: c.short_id, title: c.title, author: c.author_name };
}

/** Whether the job's last green run built the very commit this run failed on (both known). */
export function greenOnSameCommit(context: JobContext | undefined): boolean {
  const green = context?.previousSuccess?.commit;
  return green !== undefined && green.sha === context?.commit?.sha;
}

/** A context built from the caller's words only (GitLab unreachable, or not asked). */
export function minimalContext(id: JobIdentity, projectName = ''): JobContext {
  return {
    projectId: id.projectId,
    projectName,
    pipelineId: id.pipelineId,
    jobId: id.jobId,
    jobName: id.jobName ?? `job ${id.jobId}`,
    stage: id.stage ?? '',
    status: undefined,
    failureReason: undefined,
    allowFailure: undefined,
    ref: undefined,
    source: undefined,
    webUrl: undefined,
    durationSec: undefined,
    commit: undefined,
    previousSuccess: undefined,
  };
}

/** Builds a context from a job GitLab returned. */
export function contextFromJob(job: GitLabJob, projectId: number, projectName: string): JobContext {
  return {
    projectId,
    projectName,
    pipelineId: job.pipeline.id,
    jobId: job.id,
    jobName: job.name,
    stage: job.stage,
    status: job.status,
    failureReason: job.failure_reason,
    allowFailure: job.allow_failure,
    ref: job.ref,
    source: undefined,
    webUrl: job.web_url,
    durationSec: job.duration === null ? undefined : Math.round(job.duration),
    commit: commitOf(job.commit),
    previousSuccess: undefined,
  };
}

/**
 * Looks the job up in GitLab (an unknown job is a 404 for the caller) and adds, best effort, the
 * pipeline's source and the previous successful run of the same job on the same ref, reading the
 * pipelines' jobs from the pipeline history (`stored`) where it holds them as GitLab has them now.
 * Failures of the extras are logged and leave those fields undefined.
 */
export async function loadJobContext(
  gitlab: GitLabApi,
  id: JobIdentity,
  projectName: string,
  logger: Logger,
  options: { tolerateUnavailable: boolean; stored?: StoredRuns | undefined },
): Promise<{ context: JobContext; job: GitLabJob | undefined }> {
  let job: GitLabJob;
  try {
    job = await gitlab.getJob(id.projectId, id.jobId);
  } catch (err) {
    // An unknown job is the caller's mistake; an unreachable GitLab is not fatal when the caller
    // sent the log itself.
    if (options.tolerateUnavailable && !isAppError(err, 'not_found')) {
      logger.warn({ err, jobId: id.jobId }, 'GitLab unavailable; analysing without job context');
      return { context: minimalContext(id, projectName), job: undefined };
    }
    throw err;
  }
  const context = contextFromJob(job, id.projectId, projectName);
  try {
    const pipeline = await gitlab.getPipeline(id.projectId, job.pipeline.id);
    context.source = pipeline.source;
    // The history's copy of this pipeline, when current, names the other attempts too.
    const attempts = storedAttempts(options.stored, pipeline.id, pipeline.updated_at, context);
    if (attempts) context.attempts = attempts;
    if (!context.commit) {
      const commit = await gitlab.getCommit(id.projectId, pipeline.sha);
      context.commit = {
        sha: commit.id,
        shortId: commit.short_id,
        title: commit.title,
        author: commit.author_name,
      };
    }
  } catch (err) {
    logger.debug({ err, pipelineId: job.pipeline.id }, 'pipeline context unavailable');
  }
  try {
    const pipelines = await gitlab.listPipelines(id.projectId, { limit: PREVIOUS_RUN_SEARCH * 3 });
    const candidates = pipelines
      .filter((p) => p.ref === job.ref && p.id < job.pipeline.id)
      .slice(0, PREVIOUS_RUN_SEARCH);
    // Each pipeline's jobs are read once, by whichever search needs them first.
    const jobsOf = jobRunsReader(gitlab, options.stored, id.projectId);
    const green = await findPreviousSuccess(job.name, candidates, jobsOf);
    context.previousSuccess = green;
    if (green) {
      const found = await findBreakage(recordedRunOf(job), green, candidates, jobsOf);
      context.previousSuccess = found.green;
      context.breakage = found.breakage;
    }
  } catch (err) {
    logger.debug({ err, jobId: job.id }, 'previous successful run unavailable');
  }
  return { context, job };
}

async function findPreviousSuccess(
  jobName: string,
  candidates: GitLabPipelineListItem[],
  jobsOf: (pipeline: GitLabPipelineListItem) => Promise<RecordedRun[]>,
): Promise<PreviousSuccess | null> {
  // Pipelines are newest first; a failed pipeline can still hold a green run of this job, so look
  // at successful pipelines first and stop at the first hit.
  const ordered = [
    ...candidates.filter((p) => p.status === 'success'),
    ...candidates.filter((p) => p.status !== 'success'),
  ].slice(0, 5);
  for (const p of ordered) {
    const green = (await jobsOf(p)).find((j) => j.name === jobName && j.status === 'success');
    if (green) {
      return {
        jobId: green.jobId,
        pipelineId: p.id,
        finishedAt: green.finishedAt,
        durationSec: green.durationSec,
        commit: green.commit,
      };
    }
  }
  return null;
}

/**
 * Loads the job's context and checks it belongs to the pipeline the caller named. When GitLab
 * could not be asked (tolerated when the caller sent the log), the caller's names are kept.
 */
export async function loadCheckedJobContext(
  gitlab: GitLabApi,
  id: JobIdentity,
  projectName: string,
  logger: Logger,
  logGiven: boolean,
  stored?: StoredRuns,
): Promise<JobContext> {
  const loaded = await loadJobContext(gitlab, id, projectName, logger, {
    tolerateUnavailable: logGiven,
    stored,
  });
  if (loaded.job && loaded.job.pipeline.id !== id.pipelineId) {
    throw new AppError(
      'bad_request',
      `Job ${id.jobId} belongs to pipeline ${loaded.job.pipeline.id}, not ${id.pipelineId}`,
    );
  }
  // Prefer GitLab's names; keep the caller's when GitLab could not be asked.
  if (!loaded.job) {
    loaded.context.jobName = id.jobName ?? loaded.context.jobName;
    loaded.context.stage = id.stage ?? loaded.context.stage;
  }
  return loaded.context;
}

/** The job's log: the one the caller sent, or GitLab's; an empty log is the caller's mistake. */
export async function readJobLog(
  gitlab: GitLabApi,
  id: JobIdentity,
  given: string | undefined,
): Promise<string> {
  const raw = given ?? (await gitlab.getJobTrace(id.projectId, id.jobId));
  if (raw.trim() === '') {
    throw new AppError(
      'bad_request',
      `Job ${id.jobId} has no log to analyse (it may not have started, or its log was erased)`,
    );
  }
  return raw;
}
