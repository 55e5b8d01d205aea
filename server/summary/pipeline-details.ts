import { failingJob, type FixedBefore, type PipelineDetails } from '../contract.ts';
import { isAppError } from '../platform/errors.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { PipelineReads } from '../gitlab/pipeline-reads.ts';
import { isFinishedStatus, isSettledStatus } from '../gitlab/pipeline-status.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import { downstreamFailure } from './downstream-failure.ts';
import { latestAttempts, toPipelineDetails } from './from-gitlab.ts';

interface CachedDetails {
  /** GitLab's `updated_at` the details were read at. */
  updatedAt: string;
  details: PipelineDetails;
}

/** What the details service reads and tells. */
export interface PipelineDetailsDeps {
  gitlab: GitLabApi;
  /** The reads the poller, failure events and history share; without it every read is direct. */
  reads?: Pick<PipelineReads, 'jobs' | 'commit'>;
  /** The name of a watched project, if known. */
  projectName?: (projectId: number) => string | undefined;
  /** Finished pipelines' details kept (default 200). */
  maxEntries?: number;
  /** GitLab answered 404 for the pipeline: it was deleted (the poller drops it at once). */
  onGone?: (projectId: number, pipelineId: number) => void;
  /** The pipeline's test counts and failed tests from its JUnit report (additive fields). */
  tests?: (
    pipelineId: number,
    jobs: readonly GitLabJob[],
  ) => Promise<Pick<PipelineDetails, 'tests' | 'failed_tests'>>;
  /**
   * What fixed each failed job's error before (server/triage/), by job id: added to failed jobs
   * as `fixed_before` at every opening, since the history learns new fixes while details are cached.
   */
  fixedBefore?: (
    projectId: number,
    pipelineId: number,
    jobs: { id: number; name: string; failedAt: number }[],
  ) => Promise<Map<number, FixedBefore[]>>;
}

/**
 * Pipeline details with jobs, trigger jobs (and where a failed one's downstream pipeline failed),
 * user and commit. Every opening asks GitLab for the
 * pipeline itself (one small GET): a pipeline deleted on GitLab is a 404 at once, and the poller is
 * told so it leaves the summary without waiting for the next reconciliation. A finished pipeline is
 * not final on GitLab — Retry (of the pipeline or one job) makes it run again and bumps its
 * `updated_at` — so the small LRU of finished details is keyed on that `updated_at`: while GitLab
 * reports the same one, the jobs and bridges are not read again. A finished pipeline's jobs come
 * through the service's shared `PipelineReads` at the `updated_at` GitLab just reported, so a
 * pipeline the poller, failure events or history just read (the failure a user was notified of)
 * costs no jobs request; a running one's jobs are always read afresh.
 */
export class PipelineDetailsService {
  private readonly cache = new Map<string, CachedDetails>();
  private readonly gitlab: GitLabApi;
  private readonly maxEntries: number;

  constructor(private readonly deps: PipelineDetailsDeps) {
    this.gitlab = deps.gitlab;
    this.maxEntries = deps.maxEntries ?? 200;
  }

  /** Fetches (or recalls) one pipeline's details. Unknown project or pipeline → not_found. */
  async get(projectId: number, pipelineId: number): Promise<PipelineDetails> {
    const key = `${projectId}:${pipelineId}`;
    const pipeline = await this.gitlab.getPipeline(projectId, pipelineId).catch((err: unknown) => {
      if (isAppError(err, 'not_found')) {
        this.cache.delete(key);
        this.deps.onGone?.(projectId, pipelineId);
      }
      throw err;
    });
    const cached = this.cache.get(key);
    // Compared at whole seconds: the cache may hold an answer read while GraphQL listed it.
    if (cached && sameUpdatedAt(cached.updatedAt, pipeline.updated_at))
      return this.withFixes(this.recall(key, cached));
    this.cache.delete(key);
    const [attempts, bridges] = await Promise.all([
      this.jobAttempts(projectId, pipelineId, pipeline.status, pipeline.updated_at),
      this.gitlab.listPipelineBridges?.(projectId, pipelineId) ?? Promise.resolve(undefined),
    ]);
    const jobs = latestAttempts(attempts);
    // Jobs carry the commit; ask GitLab only when the pipeline has no jobs (e.g. a yaml error),
    // through the shared reads when there are (the history and the summary ask for it too).
    const commit =
      jobs.find((j) => j.commit)?.commit ??
      (await (this.deps.reads?.commit(projectId, pipeline.sha) ??
        this.gitlab.getCommit(projectId, pipeline.sha).catch((err: unknown) => {
          if (isAppError(err, 'not_found')) return null;
          throw err;
        })));
    const converted = toPipelineDetails(
      pipeline,
      jobs,
      commit,
      this.deps.projectName?.(projectId),
      {
        attempts,
        bridges,
      },
    );
    const details: PipelineDetails = {
      ...converted,
      failing_job_id: failingJob(converted.jobs)?.id ?? null,
      // A pipeline that failed in its child: the trigger job and the child's failing job.
      ...(bridges === undefined
        ? {}
        : { downstream_failure: await downstreamFailure(this.deps, projectId, bridges) }),
      ...(this.deps.tests ? await this.deps.tests(pipelineId, attempts) : {}),
    };
    if (isFinishedStatus(details.status) && details.jobs.every((j) => isSettledStatus(j.status))) {
      this.cache.set(key, { updatedAt: pipeline.updated_at, details });
      if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    }
    return this.withFixes(details);
  }

  /** The details with `fixed_before` on failed jobs; without it when triage cannot tell. */
  private async withFixes(details: PipelineDetails): Promise<PipelineDetails> {
    const failed = details.jobs.filter((j) => j.status === 'failed');
    if (!this.deps.fixedBefore || failed.length === 0) return details;
    try {
      const fixes = await this.deps.fixedBefore(
        details.project_id,
        details.pipeline_id,
        failed.map((j) => ({
          id: j.id,
          name: j.name,
          failedAt: Date.parse(j.finished_at ?? j.created_at),
        })),
      );
      return {
        ...details,
        jobs: details.jobs.map((j) =>
          fixes.has(j.id) ? { ...j, fixed_before: fixes.get(j.id)! } : j,
        ),
      };
    } catch {
      return details;
    }
  }

  /** Every attempt, so a retried job's stage keeps its place (see orderJobs). */
  private jobAttempts(
    projectId: number,
    pipelineId: number,
    status: string,
    updatedAt: string,
  ): Promise<GitLabJob[]> {
    // Only a finished pipeline's: PipelineReads keeps just answers whose jobs are all settled, but
    // a running pipeline's jobs move without its `updated_at` moving, so they are never shared here.
    if (this.deps.reads && isFinishedStatus(status))
      return this.deps.reads.jobs(projectId, pipelineId, updatedAt);
    return this.gitlab.listPipelineJobs(projectId, pipelineId, undefined, { includeRetried: true });
  }

  private recall(key: string, cached: CachedDetails): PipelineDetails {
    this.cache.delete(key);
    this.cache.set(key, cached);
    return cached.details;
  }
}
