import { failingJob } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { PipelineReads } from '../gitlab/pipeline-reads.ts';
import { isFinishedStatus } from '../gitlab/pipeline-status.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import { toJobHistory, toPipelineHistory, toProjectHistory } from './from-gitlab.ts';
import type {
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
} from '../gitlab/wire.ts';
import type { Clock } from '../platform/clock.ts';
import { isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { PipelineRecord } from '../summary/model.ts';
import type { PollerObserver, PollerWarmState } from '../summary/poller-observer.ts';
import {
  markRetried,
  mergeRequestIid,
  type JobHistoryRecord,
  type PipelineHistoryRecord,
} from './model.ts';
import type { StoredMergeRequest } from './history-store.ts';
import { JobListPace } from './job-list-pace.ts';
import type { PipelineHistory } from './pipeline-history.ts';

/** What the recorder needs. */
export interface HistoryRecorderDeps {
  history: PipelineHistory;
  gitlab: GitLabApi;
  /**
   * The poller's pipeline and job reads: after a warm restart the poller wants the jobs of the same
   * recent failures the history still owes, and a failure event reads the jobs of its pipeline as
   * well; shared, each is one request. Default: own reads.
   */
  reads?: PipelineReads;
  clock: Clock;
  logger: Logger;
  /** The group being watched (a warm start only reuses history of the same group). */
  group: () => string;
  /** Parallel job-list and MR fetches (default 2: below the poller's, history can wait). */
  concurrency?: number;
  /** Told each finished pipeline's jobs once stored (the test reports read theirs). */
  onJobsStored?: (pipeline: PipelineHistoryRecord, jobs: readonly GitLabJob[]) => void;
}

interface JobFetch {
  projectId: number;
  pipelineId: number;
  updatedAt: string;
  createdAt: number;
}

/** A pipeline whose jobs named no commit (it has none: a CI configuration error). */
interface CommitFetch {
  projectId: number;
  pipelineId: number;
  sha: string;
}

const MAX_ATTEMPTS = 3;
/** The poller's quiet time after which queued history reads start. */
const QUIET_MS = 1_000;
/**
 * A project with this many pipelines owing jobs has them read from its job list (about 10
 * pipelines a page) instead of one request per pipeline.
 */
const WALK_FROM = 3;
/** Merge requests of one project looked up in one request when at least this many are owed. */
const MR_LIST_FROM = 2;

/**
 * Feeds the pipeline history from what the poller learns: the project list, changed list items
 * (stored at once so a crash never loses a pipeline the poller's cursor has passed), and details.
 * For each finished pipeline whose jobs are not stored at its current updated_at it fetches the
 * jobs once, retries included (`include_retried=true`), newest pipeline first; the jobs' commit
 * gives the title and author. A pipeline without jobs (its CI configuration is invalid) has its
 * commit looked up by sha instead, once per sha. Merge requests are looked up once each for their
 * title and link.
 */
export class HistoryRecorder implements PollerObserver {
  private readonly concurrency: number;
  private readonly reads: PipelineReads;
  private readonly queue = new Map<number, JobFetch>();
  private readonly attempts = new Map<number, number>();
  private readonly mrQueue = new Set<string>();
  private readonly mrTried = new Set<string>();
  private readonly commitQueue = new Map<number, CommitFetch>();
  /** Pipelines whose commit was looked up (found or not): once per run is enough. */
  private readonly commitTried = new Set<number>();
  /** Pipelines to read one by one: a project job list left them out or disagreed with them. */
  private readonly single = new Set<number>();
  private readonly pace: JobListPace;
  private quietTimer: NodeJS.Timeout | null = null;
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private controller = new AbortController();

  constructor(private readonly deps: HistoryRecorderDeps) {
    this.concurrency = deps.concurrency ?? 2;
    this.reads = deps.reads ?? new PipelineReads(deps.gitlab);
    this.pace = new JobListPace(deps.clock, () => this.pump());
  }

  /**
   * The poller's state from disk when the history is of the same group (null otherwise), and the
   * jobs still owed from before the restart queued.
   */
  warmState(windowMs: number): PollerWarmState | null {
    const { history } = this.deps;
    if (history.meta('group') !== this.deps.group()) return null;
    const readAt = Number(history.meta('projectsReadAt'));
    const projects = history.watchedProjects();
    if (!Number.isFinite(readAt) || projects.length === 0) return null;
    const cutoff = this.deps.clock.now() - windowMs;
    const pipelines: PipelineRecord[] = [];
    // Memory's pipelines only: a snapshot would read the older past, which no summary shows.
    for (const p of history.recentPipelines(cutoff)) {
      pipelines.push({
        id: p.pipelineId,
        projectId: p.projectId,
        status: p.status,
        ref: p.ref,
        source: p.source,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
        webUrl: p.webUrl,
        duration: p.duration,
        user: p.user,
        detailsFor: p.detailsFor,
        ...(p.status === 'failed' && sameUpdatedAt(p.jobsFor, p.updatedAt)
          ? { failure: failureOf(p, history.jobsOf(p.pipelineId)) }
          : {}),
      });
      this.maybeQueueJobs(p);
      this.maybeQueueCommit(p);
    }
    this.pump();
    return {
      projects: projects.map((p) => ({
        id: p.id,
        name: p.name,
        path: p.path,
        webUrl: p.webUrl,
        defaultBranch: p.defaultBranch || null,
      })),
      pipelines,
      projectsReadAt: readAt,
    };
  }

  /** @inheritdoc */
  projectsListed(projects: readonly GitLabProject[], at: number): void {
    this.deps.history.setProjects(projects.map(toProjectHistory));
    this.deps.history.setMeta({ group: this.deps.group(), projectsReadAt: String(at) });
  }

  /** @inheritdoc */
  pipelinesListed(projectId: number, items: readonly GitLabPipelineListItem[]): void {
    const { history } = this.deps;
    const branch = this.defaultBranchOf(projectId);
    const records = items.map((item) => toPipelineHistory(item, branch, history.pipeline(item.id)));
    history.save(records);
  }

  /** @inheritdoc */
  pipelineDetailed(detail: GitLabPipeline, jobs?: readonly GitLabJob[]): void {
    const { history } = this.deps;
    const record = toPipelineHistory(
      detail,
      this.defaultBranchOf(detail.project_id),
      history.pipeline(detail.id),
    );
    history.save([record]);
    // The poller read this pipeline's jobs (a recent failure): stored from that one read.
    if (jobs && isFinishedStatus(record.status)) {
      this.storeJobs(record, jobs, record.updatedAt);
      this.queue.delete(record.pipelineId);
      this.attempts.delete(record.pipelineId);
    }
    this.maybeQueueJobs(history.pipeline(detail.id) ?? record);
    this.pumpWhenQuiet();
  }

  /** @inheritdoc */
  pipelineDeleted(_projectId: number, pipelineId: number): void {
    this.deps.history.delete([pipelineId]);
  }

  /** Resolves when no job, commit or MR fetch is queued or running. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops fetching (queued work is dropped; it is picked up again after a restart). */
  stop(): void {
    this.controller.abort();
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = null;
    this.queue.clear();
    this.mrQueue.clear();
    this.commitQueue.clear();
    if (this.inFlight === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  /**
   * Starts reading once the poller has been quiet for QUIET_MS: the history can wait, the summary's
   * own reads (a first load of 2,000 projects is minutes of them at GitLab's rate) go first, and a
   * burst of details (a GraphQL page details many pipelines of a project at once) is then answered
   * by the project's job list together instead of the first few one by one.
   */
  private pumpWhenQuiet(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null;
      this.pump();
    }, QUIET_MS);
    this.quietTimer.unref?.();
  }

  private isIdle(): boolean {
    return (
      this.queue.size === 0 &&
      this.mrQueue.size === 0 &&
      this.commitQueue.size === 0 &&
      this.inFlight === 0
    );
  }

  private defaultBranchOf(projectId: number): string {
    return this.deps.history.watchedProject(projectId)?.defaultBranch ?? '';
  }

  private maybeQueueJobs(p: PipelineHistoryRecord): void {
    const iid = mergeRequestIid(p.ref);
    if (iid !== null) {
      const key = `${p.projectId}:${iid}`;
      if (!this.mrTried.has(key) && !this.deps.history.mergeRequest(p.projectId, iid))
        this.mrQueue.add(key);
    }
    if (!isFinishedStatus(p.status) || sameUpdatedAt(p.jobsFor, p.updatedAt)) return;
    this.queue.set(p.pipelineId, {
      projectId: p.projectId,
      pipelineId: p.pipelineId,
      updatedAt: p.updatedAt,
      createdAt: p.createdAt,
    });
  }

  private pump(): void {
    const signal = this.controller.signal;
    while (this.inFlight < this.concurrency && !signal.aborted) {
      const task = this.nextTask();
      if (!task) break;
      this.inFlight++;
      void task(signal).finally(() => {
        this.inFlight--;
        this.pump();
        if (this.isIdle()) for (const resolve of this.waiters.splice(0)) resolve();
      });
    }
  }

  private nextTask(): ((signal: AbortSignal) => Promise<void>) | null {
    const [mr] = this.mrQueue;
    if (mr !== undefined) {
      const [projectId, iid] = mr.split(':').map(Number) as [number, number];
      const iids = this.deps.gitlab.listMergeRequests ? this.owedMergeRequests(projectId) : [iid];
      for (const owed of iids) {
        this.mrQueue.delete(`${projectId}:${owed}`);
        this.mrTried.add(`${projectId}:${owed}`);
      }
      if (iids.length >= MR_LIST_FROM)
        return (signal) => this.fetchMergeRequests(projectId, iids, signal);
      return (signal) => this.fetchMergeRequest(projectId, iid, signal);
    }
    const [commit] = this.commitQueue.values();
    if (commit !== undefined) {
      this.commitQueue.delete(commit.pipelineId);
      this.commitTried.add(commit.pipelineId);
      return (signal) => this.fetchCommit(commit, signal);
    }
    let next: JobFetch | null = null;
    for (const item of this.queue.values())
      if (!next || item.createdAt > next.createdAt) next = item;
    if (!next) return null;
    const owed = this.walkable(next.projectId);
    if (owed.length >= WALK_FROM) {
      if (this.pace.allowed()) {
        for (const task of owed) this.queue.delete(task.pipelineId);
        const projectId = next.projectId;
        return (signal) => this.walkProjectJobs(projectId, owed, signal);
      }
      // Over the job-list pace: meanwhile the newest pipeline no job list would answer.
      next = this.newestSingle();
      if (!next) return null;
    }
    this.queue.delete(next.pipelineId);
    const fetch = next;
    return (signal) => this.fetchJobs(fetch, signal);
  }

  /** The newest queued read of a project with too few owed pipelines for its job list. */
  private newestSingle(): JobFetch | null {
    const owed = new Map<number, number>();
    for (const task of this.queue.values())
      if (!this.single.has(task.pipelineId))
        owed.set(task.projectId, (owed.get(task.projectId) ?? 0) + 1);
    let next: JobFetch | null = null;
    for (const task of this.queue.values()) {
      const walkable =
        this.deps.gitlab.listProjectJobs && (owed.get(task.projectId) ?? 0) >= WALK_FROM;
      if (walkable && !this.single.has(task.pipelineId)) continue;
      if (!next || task.createdAt > next.createdAt) next = task;
    }
    return next;
  }

  /** Up to 100 merge-request iids of the project still to look up. */
  private owedMergeRequests(projectId: number): number[] {
    const iids: number[] = [];
    for (const key of this.mrQueue) {
      const [project, iid] = key.split(':').map(Number) as [number, number];
      if (project === projectId) iids.push(iid);
      if (iids.length === 100) break;
    }
    return iids;
  }

  /** The project's queued job reads a project job list may answer (none without the method). */
  private walkable(projectId: number): JobFetch[] {
    if (!this.deps.gitlab.listProjectJobs) return [];
    const owed: JobFetch[] = [];
    for (const task of this.queue.values())
      if (task.projectId === projectId && !this.single.has(task.pipelineId)) owed.push(task);
    return owed;
  }

  /**
   * Reads the jobs of several pipelines of one project from its job list (newest first, down to
   * the oldest of them) and stores each pipeline's attempts. A pipeline the list shows at another
   * updated_at (it changed meanwhile), or without any job (a configuration error, or a list cut
   * short), is read on its own instead, so what is stored equals the per-pipeline read.
   */
  private async walkProjectJobs(
    projectId: number,
    tasks: readonly JobFetch[],
    signal: AbortSignal,
  ): Promise<void> {
    const { history } = this.deps;
    const oldest = Math.min(...tasks.map((t) => t.createdAt));
    let wire: GitLabJob[];
    try {
      wire = await this.deps.gitlab.listProjectJobs!(projectId, oldest, signal);
    } catch (err) {
      if (signal.aborted) return;
      this.deps.logger.debug(
        { projectId, err: (err as Error).message },
        'project job list for history failed; reading pipelines one by one',
      );
      this.requeueSingly(tasks);
      return;
    } finally {
      this.pace.count(1);
    }
    if (signal.aborted) return;
    // Pages read: the jobs kept plus the one older page that ended the walk.
    this.pace.count(Math.ceil(wire.length / 100));
    const byPipeline = new Map<number, GitLabJob[]>();
    for (const job of wire) {
      let list = byPipeline.get(job.pipeline.id);
      if (!list) byPipeline.set(job.pipeline.id, (list = []));
      list.push(job);
    }
    const leftOver: JobFetch[] = [];
    for (const task of tasks) {
      const current = history.pipeline(task.pipelineId);
      if (!current || !sameUpdatedAt(current.updatedAt, task.updatedAt)) continue;
      const jobs = byPipeline.get(task.pipelineId);
      const agrees = jobs?.every(
        (j) =>
          j.pipeline.updated_at !== undefined &&
          sameUpdatedAt(j.pipeline.updated_at, task.updatedAt),
      );
      if (!jobs || !agrees) {
        leftOver.push(task);
        continue;
      }
      this.storeJobs(current, jobs, task.updatedAt);
      this.attempts.delete(task.pipelineId);
    }
    this.requeueSingly(leftOver);
  }

  private requeueSingly(tasks: readonly JobFetch[]): void {
    for (const task of tasks) {
      this.single.add(task.pipelineId);
      if (!this.queue.has(task.pipelineId)) this.queue.set(task.pipelineId, task);
    }
  }

  private async fetchJobs(task: JobFetch, signal: AbortSignal): Promise<void> {
    const { history } = this.deps;
    try {
      const wire = await this.reads.jobs(task.projectId, task.pipelineId, task.updatedAt, signal);
      if (signal.aborted) return;
      const current = history.pipeline(task.pipelineId);
      // Changed again meanwhile: the newer details queue a fresh fetch.
      if (!current || !sameUpdatedAt(current.updatedAt, task.updatedAt)) return;
      this.storeJobs(current, wire, task.updatedAt);
      this.attempts.delete(task.pipelineId);
      this.single.delete(task.pipelineId);
    } catch (err) {
      if (signal.aborted) return;
      if (isAppError(err, 'not_found')) {
        history.delete([task.pipelineId]);
        return;
      }
      const attempts = (this.attempts.get(task.pipelineId) ?? 0) + 1;
      this.attempts.set(task.pipelineId, attempts);
      this.deps.logger.debug(
        { pipelineId: task.pipelineId, attempts, err: (err as Error).message },
        'pipeline jobs fetch for history failed',
      );
      // Tried again with the next change of anything, up to a few times; a restart resets this.
      if (attempts < MAX_ATTEMPTS && !this.queue.has(task.pipelineId))
        this.queue.set(task.pipelineId, task);
    }
  }

  /** Stores a pipeline's jobs (every attempt) as read for `updatedAt`, with the jobs' commit. */
  private storeJobs(
    current: PipelineHistoryRecord,
    wire: readonly GitLabJob[],
    updatedAt: string,
  ): void {
    const jobs = markRetried(wire.map((j) => toJobHistory(j, current.projectId))).sort(
      (a, b) => a.jobId - b.jobId,
    );
    const commit = wire.find((j) => j.commit)?.commit ?? null;
    const stored = {
      ...current,
      commitTitle: commit?.title ?? current.commitTitle,
      commitAuthor: commit?.author_name ?? current.commitAuthor,
      jobsFor: updatedAt,
    };
    this.deps.history.save([stored], new Map([[current.pipelineId, jobs]]));
    this.maybeQueueCommit(stored);
    try {
      this.deps.onJobsStored?.(stored, wire);
    } catch (err) {
      // The listener's failure is its own: the history goes on (its MR and commit lookups).
      this.deps.logger.warn(
        { pipelineId: current.pipelineId, err: (err as Error).message },
        'a listener of stored jobs failed',
      );
    }
  }

  /**
   * Queues the commit lookup of a pipeline whose jobs were read and named none: GitLab creates a
   * pipeline whose CI configuration is invalid failed and without jobs (`yaml_errors`), and its
   * commit is still what the health views show it by.
   */
  private maybeQueueCommit(p: PipelineHistoryRecord): void {
    if (p.commitTitle !== null || p.jobsFor === null || !p.sha) return;
    if (this.commitTried.has(p.pipelineId)) return;
    this.commitQueue.set(p.pipelineId, {
      projectId: p.projectId,
      pipelineId: p.pipelineId,
      sha: p.sha,
    });
  }

  private async fetchCommit(task: CommitFetch, signal: AbortSignal): Promise<void> {
    try {
      // Kept per sha by the shared reads: the same broken configuration run again, the summary's
      // failure row and the details route ask for the same commit.
      const commit = await this.reads.commit(task.projectId, task.sha, signal);
      if (signal.aborted || !commit) return;
      const { history } = this.deps;
      const current = history.pipeline(task.pipelineId);
      if (!current || current.commitTitle !== null) return;
      history.save([{ ...current, commitTitle: commit.title, commitAuthor: commit.author_name }]);
    } catch (err) {
      if (signal.aborted) return;
      this.deps.logger.debug(
        { pipelineId: task.pipelineId, err: (err as Error).message },
        'commit lookup for history failed; the pipeline shows without a commit title',
      );
    }
  }

  /** Looks up several merge requests of a project in one request; an unlisted iid is gone. */
  private async fetchMergeRequests(
    projectId: number,
    iids: readonly number[],
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const mrs = await this.deps.gitlab.listMergeRequests!(projectId, iids, signal);
      if (signal.aborted) return;
      const found = new Map(mrs.map((mr) => [mr.iid, mr]));
      for (const iid of iids) {
        const mr = found.get(iid);
        if (mr)
          this.deps.history.saveMergeRequest({
            projectId,
            iid,
            title: mr.title,
            webUrl: mr.web_url,
          });
        // Not listed: asked on its own before it is remembered as gone for good (a list and a
        // single read can disagree for a moment; only the single read's 404 is final).
        else await this.fetchMergeRequest(projectId, iid, signal);
      }
    } catch (err) {
      if (signal.aborted) return;
      if (isAppError(err, 'not_found', 'forbidden')) {
        for (const iid of iids)
          this.deps.history.saveMergeRequest(this.unknownMergeRequest(projectId, iid));
        return;
      }
      this.deps.logger.debug(
        { projectId, iids, err: (err as Error).message },
        'merge request lookup failed; its pipelines show without a title',
      );
    }
  }

  /** A merge request GitLab does not show (deleted or hidden): no title, never asked again. */
  private unknownMergeRequest(projectId: number, iid: number): StoredMergeRequest {
    const project = this.deps.history.watchedProject(projectId);
    return {
      projectId,
      iid,
      title: '',
      webUrl: `${project?.webUrl ?? ''}/-/merge_requests/${iid}`,
    };
  }

  private async fetchMergeRequest(
    projectId: number,
    iid: number,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const mr = await this.deps.gitlab.getMergeRequest(projectId, iid, signal);
      if (signal.aborted) return;
      this.deps.history.saveMergeRequest({ projectId, iid, title: mr.title, webUrl: mr.web_url });
    } catch (err) {
      if (signal.aborted) return;
      // A deleted (or hidden) MR stays unknown for good: remembered without a title, never re-asked.
      if (isAppError(err, 'not_found', 'forbidden')) {
        this.deps.history.saveMergeRequest(this.unknownMergeRequest(projectId, iid));
        return;
      }
      this.deps.logger.debug(
        { projectId, iid, err: (err as Error).message },
        'merge request lookup failed; its pipelines show without a title',
      );
    }
  }
}

/** What the summary shows of a failed pipeline: its failing job (latest attempts) and commit title. */
function failureOf(
  p: PipelineHistoryRecord,
  jobs: readonly JobHistoryRecord[],
): NonNullable<PipelineRecord['failure']> {
  const latest = jobs
    .filter((j) => !j.retried)
    .map((j) => ({ id: j.jobId, status: j.status, allow_failure: j.allowFailure, job: j }));
  const failing = failingJob(latest)?.job;
  return {
    jobId: failing?.jobId ?? null,
    commitTitle: p.commitTitle,
    job: failing && {
      name: failing.name,
      stage: failing.stage,
      failureReason: failing.failureReason,
    },
  };
}
