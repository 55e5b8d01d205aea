import { failingJob, type DownstreamFailure } from '../../contract.ts';
import type { GitLabApi } from '../../gitlab/api.ts';
import type { PipelineReads } from '../../gitlab/pipeline-reads.ts';
import { sameUpdatedAt } from '../../gitlab/updated-at.ts';
import type { GitLabJob, GitLabPipeline } from '../../gitlab/wire.ts';
import { isAppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { downstreamFailure, hasBlockingFailure } from '../downstream-failure.ts';
import { latestAttempts, withPipelineDetails } from '../from-gitlab.ts';
import type { PipelineRecord } from '../model.ts';
import { RECENT_PIPELINES } from '../summarise.ts';
import type { TellObserver } from './change-listeners.ts';
import { describeFailure } from './poll-health.ts';
import type { ProjectState, WatchedProjects } from './watched-projects.ts';

/** What the detail queue needs. */
export interface DetailQueueDeps {
  gitlab: Pick<GitLabApi, 'getPipeline' | 'listPipelineJobs' | 'listPipelineBridges'>;
  /** Single-pipeline and job reads shared with the failure events and the history. */
  reads: Pick<PipelineReads, 'pipeline' | 'jobs' | 'commit'>;
  watched: WatchedProjects;
  tell: TellObserver;
  logger: Logger;
  /** Parallel single-pipeline fetches. */
  concurrency: number;
  /** The window's start now (epoch ms): which failed pipelines are recent enough for their jobs. */
  windowStart: () => number;
  /** Details landed: the summary is recomputed soon (many land within a few ms). */
  onDetails: () => void;
  /** The queue ran dry while someone waited for it: the summary is recomputed now. */
  onSettled: () => void;
}

interface QueuedDetails {
  projectId: number;
  pipelineId: number;
  createdAt: number;
}

/**
 * Fetches single-pipeline details in the background, newest pipeline first: the list gives no
 * duration or user, so each new or changed pipeline is read once (never again once finished), and a
 * recent failed pipeline's jobs once, for its failing job and commit title. The observer hears each
 * pipeline's details with the jobs read for the same state, so it needs no read of its own.
 */
export class DetailQueue {
  private readonly queue = new Map<string, QueuedDetails>();
  private inFlight = 0;
  /**
   * Details GraphQL brought for recent failed pipelines, held back from the observer until their
   * jobs are read, so it hears both together instead of reading the jobs a second time.
   */
  private readonly untold = new Map<number, GitLabPipeline>();
  private waiters: (() => void)[] = [];

  constructor(private readonly deps: DetailQueueDeps) {}

  /** True when nothing is queued or being fetched. */
  get idle(): boolean {
    return this.queue.size === 0 && this.inFlight === 0;
  }

  /** Resolves when nothing is queued or being fetched, with the summary recomputed. */
  settled(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Queues every pipeline of `states` whose details are stale, or whose failing job is unknown. */
  queueMissing(states: readonly ProjectState[]): void {
    for (const state of states)
      for (const p of state.pipelines.values())
        if (!sameUpdatedAt(p.detailsFor, p.updatedAt) || this.needsFailure(state, p)) this.add(p);
  }

  /**
   * Details a list brought (GraphQL): the observer hears them as if fetched. A recent failed
   * pipeline's wait for its jobs, read next for its failing job, and travel with them.
   */
  arrived(state: ProjectState, detail: GitLabPipeline): void {
    const record = state.pipelines.get(detail.id);
    if (record && this.needsFailure(state, record)) {
      this.untold.set(detail.id, detail);
      this.add(record);
    } else this.deps.tell((o) => o.pipelineDetailed?.(detail));
  }

  /** Starts fetches up to the concurrency, newest pipeline first; each finished one starts the next. */
  pump(signal: AbortSignal): void {
    while (this.inFlight < this.deps.concurrency && this.queue.size > 0 && !signal.aborted) {
      let next: (QueuedDetails & { key: string }) | null = null;
      for (const [key, item] of this.queue)
        if (!next || item.createdAt > next.createdAt) next = { key, ...item };
      this.queue.delete(next!.key);
      this.inFlight++;
      void this.fetch(next!.projectId, next!.pipelineId, signal).finally(() => {
        this.inFlight--;
        this.pump(signal);
        if (this.idle && this.waiters.length > 0) {
          this.deps.onSettled();
          this.release();
        }
      });
    }
    if (signal.aborted && this.inFlight === 0) this.release();
  }

  /** Drops what is queued or held back (new settings; fetches in flight end with their cycle). */
  clear(): void {
    this.queue.clear();
    this.untold.clear();
  }

  /** Drops the queue and releases the waiters unless a fetch is still winding down. */
  stop(): void {
    this.clear();
    if (this.inFlight === 0) this.release();
  }

  private add(p: PipelineRecord): void {
    const key = `${p.projectId}:${p.id}`;
    if (!this.queue.has(key))
      this.queue.set(key, { projectId: p.projectId, pipelineId: p.id, createdAt: p.createdAt });
  }

  private release(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private async fetch(projectId: number, pipelineId: number, signal: AbortSignal): Promise<void> {
    const { watched } = this.deps;
    try {
      const current = watched.pipeline(projectId, pipelineId);
      // GraphQL already brought duration and user: only the failing job may be missing. Read for
      // the updated_at listed, so the failure event for this change shares the request.
      let detail: GitLabPipeline | null = null;
      // Gone from the window meanwhile: no state to share a read for, but a 404 still tells the
      // history it was deleted.
      if (!current) detail = await this.deps.gitlab.getPipeline(projectId, pipelineId, signal);
      else if (!sameUpdatedAt(current.detailsFor, current.updatedAt))
        detail = await this.deps.reads.pipeline(projectId, pipelineId, current.updatedAt, signal);
      if (signal.aborted) return;
      const state = watched.get(projectId);
      const record = state?.pipelines.get(pipelineId);
      if (!state || !record) return;
      const { failure: _stale, ...updated } = detail ? withPipelineDetails(record, detail) : record;
      const told = detail ?? this.untold.get(pipelineId);
      const read =
        updated.status === 'failed' && this.isRecent(state, updated)
          ? await this.readFailure(projectId, pipelineId, updated.updatedAt, told?.sha, signal)
          : undefined;
      if (signal.aborted) return;
      const failure = read?.failure;
      state.pipelines.set(pipelineId, failure ? { ...updated, failure } : updated);
      this.untold.delete(pipelineId);
      // The jobs go with the details only when they were read for this very state of the pipeline.
      const jobs =
        told && read && sameUpdatedAt(told.updated_at, updated.updatedAt) ? read.jobs : undefined;
      if (told) this.deps.tell((o) => o.pipelineDetailed?.(told, jobs));
      this.deps.onDetails();
    } catch (err) {
      if (signal.aborted) return;
      if (isAppError(err, 'not_found')) {
        // Deleted upstream since it was listed.
        this.untold.delete(pipelineId);
        watched.get(projectId)?.pipelines.delete(pipelineId);
        this.deps.tell((o) => o.pipelineDeleted?.(projectId, pipelineId));
        this.deps.onDetails();
        return;
      }
      // Left stale: the next cycle queues it again.
      this.deps.logger.debug(
        { projectId, pipelineId, err: describeFailure(err) },
        'pipeline details fetch failed',
      );
    }
  }

  /**
   * Where a failed pipeline without a failed job of its own failed downstream (one bridges read,
   * and the downstream pipeline's jobs when a trigger job failed); null when GitLab does not say.
   */
  private async downstream(
    projectId: number,
    pipelineId: number,
    signal: AbortSignal,
  ): Promise<DownstreamFailure | null> {
    const { gitlab, reads } = this.deps;
    if (!gitlab.listPipelineBridges) return null;
    try {
      const bridges = await gitlab.listPipelineBridges(projectId, pipelineId, signal);
      return await downstreamFailure({ gitlab, reads }, projectId, bridges, signal);
    } catch (err) {
      if (!signal.aborted)
        this.deps.logger.debug(
          { projectId, pipelineId, err: describeFailure(err) },
          'trigger jobs fetch of a failed pipeline failed',
        );
      return null;
    }
  }

  /**
   * The commit title of a failed pipeline without jobs (its CI configuration is invalid: GitLab
   * creates it failed with `yaml_errors` and no job to name the commit), by its sha; the shared
   * reads keep it per sha. Null when GitLab does not answer: the row shows the pipeline's number.
   */
  private async commitTitle(
    projectId: number,
    pipelineId: number,
    updatedAt: string,
    sha: string | undefined,
    signal: AbortSignal,
  ): Promise<string | null> {
    try {
      sha ??= (await this.deps.reads.pipeline(projectId, pipelineId, updatedAt, signal)).sha;
      return (await this.deps.reads.commit(projectId, sha, signal))?.title ?? null;
    } catch (err) {
      if (!signal.aborted)
        this.deps.logger.debug(
          { projectId, pipelineId, err: describeFailure(err) },
          'commit lookup of a pipeline without jobs failed',
        );
      return null;
    }
  }

  /** A recent failed pipeline whose failing job is not known yet (read with its jobs, once). */
  private needsFailure(state: ProjectState, record: PipelineRecord): boolean {
    return (
      record.status === 'failed' && record.failure === undefined && this.isRecent(state, record)
    );
  }

  /** True when `record` is among its project's newest pipelines, the ones the summary lists. */
  private isRecent(state: ProjectState, record: PipelineRecord): boolean {
    const cutoff = this.deps.windowStart();
    let newer = 0;
    for (const p of state.pipelines.values())
      if (
        p.createdAt >= cutoff &&
        (p.createdAt > record.createdAt || (p.createdAt === record.createdAt && p.id > record.id))
      )
        newer++;
    return newer < RECENT_PIPELINES;
  }

  /**
   * The failing job and commit title of a failed pipeline (one jobs request, once: a failed
   * pipeline changes only when retried), with the jobs read. Every attempt is read
   * (`include_retried=true`) so the observer (the history keeps retried attempts) needs no read of
   * its own; the failing job is picked among the latest attempts, what `include_retried=false`
   * would list. Undefined when GitLab does not answer; the row then opens the pipeline without a job.
   */
  private async readFailure(
    projectId: number,
    pipelineId: number,
    updatedAt: string,
    sha: string | undefined,
    signal: AbortSignal,
  ): Promise<{ failure: NonNullable<PipelineRecord['failure']>; jobs: GitLabJob[] } | undefined> {
    try {
      // Shared: the failure event and the history read these very jobs too.
      const jobs = await this.deps.reads.jobs(projectId, pipelineId, updatedAt, signal);
      const latest = latestAttempts(jobs);
      const failing = failingJob(latest);
      const commitTitle =
        jobs.find((j) => j.commit)?.commit?.title ??
        (await this.commitTitle(projectId, pipelineId, updatedAt, sha, signal));
      const failure: NonNullable<PipelineRecord['failure']> = {
        jobId: failing?.id ?? null,
        commitTitle,
        job: failing && {
          name: failing.name,
          stage: failing.stage,
          failureReason: failing.failure_reason ?? null,
        },
      };
      // No job of its own failed it: a trigger job did (its child failed), or nothing ran at all.
      if (!hasBlockingFailure(latest))
        failure.downstream = await this.downstream(projectId, pipelineId, signal);
      return { failure, jobs };
    } catch (err) {
      if (!signal.aborted)
        this.deps.logger.debug(
          { projectId, pipelineId, err: describeFailure(err) },
          'failed pipeline jobs fetch failed',
        );
      return undefined;
    }
  }
}
