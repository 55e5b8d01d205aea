import type { GitLabApi } from '../gitlab/api.ts';
import { GraphQLRefusal, type BulkTestSummary } from '../gitlab/graphql-pipelines.ts';
import { isFinishedStatus } from '../gitlab/pipeline-status.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import type {
  GitLabJob,
  GitLabTestReport,
  GitLabTestReportSummary,
  GitLabTestSuite,
} from '../gitlab/wire.ts';
import type { PipelineHistoryRecord } from '../history/model.ts';
import type { Clock } from '../platform/clock.ts';
import { isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { GraphQLMode, type ReadMode } from '../gitlab/graphql-mode.ts';
import type { NewTestRun, QueuedRead, TestReportStore } from './store.ts';

/** Stack traces are kept up to this many characters (the head: the assertion and its location). */
export const MAX_STACK_TRACE_CHARS = 4_000;
/** Failures this recent on the same commit or ref make a green report worth reading. */
export const WATCH_LOOKBACK_MS = 14 * 86_400_000;
const MAX_ATTEMPTS = 3;

/** What the recorder needs. */
export interface TestReportRecorderDeps {
  /** REST for full reports (and summaries when GraphQL cannot read them); `bulk` for summaries. */
  gitlab: Pick<GitLabApi, 'getTestReportSummary' | 'getTestReport' | 'bulk'>;
  /** A watched project's full path (what GraphQL names projects by), if known. */
  projectPath?: (projectId: number) => string | undefined;
  store: TestReportStore;
  /** The stored pipeline (its commit, ref and `updated_at`). */
  pipeline: (pipelineId: number) => PipelineHistoryRecord | undefined;
  /** Writes the history's pending pipelines, so a read's rows have their pipeline on disk. */
  flush: () => void;
  clock: Clock;
  logger: Logger;
  /** Parallel reads (default 1: reports wait behind the summary and the history). */
  concurrency?: number;
}

type ReadTask = QueuedRead;

/** True when a job of the list uploaded a JUnit report GitLab still has (doc/api/jobs.md). */
export function hasJUnitReport(jobs: readonly GitLabJob[]): boolean {
  return jobs.some((j) => j.artifacts?.some((a) => a.file_type === 'junit'));
}

/** A stack trace cut to `max` characters, with a marker saying how much was cut. */
export function boundedTrace(trace: string | null, max = MAX_STACK_TRACE_CHARS): string | null {
  if (trace === null || trace.length <= max) return trace;
  return `${trace.slice(0, max)}\n… [${trace.length - max} more characters cut]`;
}

/**
 * Reads the JUnit reports of finished pipelines into the history database. Per pipeline state
 * with a `junit` artifact: the summary (one request); the full report (a second one, parsed by
 * GitLab from every artifact, costly on big suites) only when a suite failed or one of its tests
 * failed on the same commit or ref in the last 14 days. Kept: failed and errored cases with
 * bounded traces, and the passing results of those watched tests. Newest pipeline first; a
 * pipeline read again after a Retry keeps the earlier attempt's runs.
 */
export class TestReportRecorder {
  private readonly queue = new Map<number, ReadTask>();
  private readonly attempts = new Map<number, number>();
  private readonly running = new Map<number, Promise<void>>();
  private waiters: (() => void)[] = [];
  private controller = new AbortController();
  /** Queued reads not on disk yet (see saveQueue). */
  private readonly unsaved = new Map<number, ReadTask>();
  private unsavedTimer: NodeJS.Immediate | null = null;
  private readonly concurrency: number;
  /** Reads in flight (a GraphQL read holds a batch of pipelines). */
  private flights = 0;
  private pumpTimer: NodeJS.Immediate | null = null;
  private readonly graphql: GraphQLMode;
  /**
   * Requests made to GitLab, for measuring the cost: summaries over REST, GraphQL queries reading
   * many summaries each, pipelines whose summary came either way, and full reports.
   */
  readonly requests = { summaries: 0, summaryQueries: 0, summarised: 0, reports: 0 };

  constructor(private readonly deps: TestReportRecorderDeps) {
    this.concurrency = deps.concurrency ?? 1;
    this.graphql = new GraphQLMode(
      deps.gitlab.bulk !== undefined && deps.projectPath !== undefined,
      deps.logger,
      'reading test report summaries over REST (one request per pipeline)',
    );
  }

  /** The API summaries are read over, and why REST when GitLab has GraphQL (the status shows it). */
  get mode(): ReadMode {
    return this.graphql.mode;
  }

  /** The history stored a finished pipeline's jobs: queues its report when it has one unread. */
  jobsStored(pipeline: PipelineHistoryRecord, jobs: readonly GitLabJob[]): void {
    if (this.controller.signal.aborted) return;
    const task = this.taskFor(pipeline, jobs);
    if (!task) return;
    // Kept on disk too: the history does not read a stored pipeline's jobs again after a restart.
    this.unsaved.set(task.pipelineId, task);
    this.unsavedTimer ??= setImmediate(() => this.saveQueue());
    this.queue.set(task.pipelineId, task);
    // On the next turn: the pipelines the history stores together are read in one batch.
    this.pumpTimer ??= setImmediate(() => {
      this.pumpTimer = null;
      this.pump();
    });
  }

  /**
   * Writes the reads queued since the last write to disk, together: the history writes its
   * pipelines behind (in batches), and a queued read's row needs its pipeline's row first.
   */
  private saveQueue(): void {
    if (this.unsavedTimer) clearImmediate(this.unsavedTimer);
    this.unsavedTimer = null;
    if (this.unsaved.size === 0) return;
    this.deps.flush();
    this.deps.store.enqueue([...this.unsaved.values()]);
    this.unsaved.clear();
  }

  /**
   * Queues the reports that were queued and not read when the service last stopped, for the
   * pipelines the history knows at the state they were queued at (a pipeline changed since then
   * is queued again by its new jobs).
   */
  resume(): void {
    // The history may finish loading after the service stopped (and closed the store).
    if (this.controller.signal.aborted) return;
    for (const task of this.deps.store.queued()) {
      const pipeline = this.deps.pipeline(task.pipelineId);
      if (!pipeline || !sameUpdatedAt(pipeline.updatedAt, task.updatedAt)) continue;
      if (this.running.has(task.pipelineId) || this.queue.has(task.pipelineId)) continue;
      this.queue.set(task.pipelineId, task);
    }
    this.pump();
  }

  /**
   * Reads the pipeline's report now unless it was read at this state (what pipeline details ask
   * before answering); resolves false when the pipeline has no report to read.
   */
  async ensureRead(pipeline: PipelineHistoryRecord, jobs: readonly GitLabJob[]): Promise<boolean> {
    if (!isFinishedStatus(pipeline.status) || !hasJUnitReport(jobs)) return false;
    const running = this.running.get(pipeline.pipelineId);
    if (running) await running;
    const task = this.taskFor(pipeline, jobs);
    if (task) {
      this.queue.delete(task.pipelineId);
      await this.run(task);
    }
    return true;
  }

  /** Resolves when nothing is queued or being read. */
  idle(): Promise<void> {
    if (this.queue.size === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops reading (queued reports are dropped). */
  stop(): void {
    // Before the store closes: what was queued is read after the restart.
    this.saveQueue();
    if (this.pumpTimer) clearImmediate(this.pumpTimer);
    this.pumpTimer = null;
    this.controller.abort();
    this.queue.clear();
    if (this.running.size === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }

  private taskFor(pipeline: PipelineHistoryRecord, jobs: readonly GitLabJob[]): ReadTask | null {
    if (!isFinishedStatus(pipeline.status) || !hasJUnitReport(jobs)) return null;
    const read = this.deps.store.readAt(pipeline.pipelineId);
    if (read !== undefined && sameUpdatedAt(read, pipeline.updatedAt)) return null;
    return {
      projectId: pipeline.projectId,
      pipelineId: pipeline.pipelineId,
      updatedAt: pipeline.updatedAt,
      createdAt: pipeline.createdAt,
      jobNames: new Map(jobs.map((j) => [j.id, j.name])),
    };
  }

  private pump(): void {
    // Reads in flight, not pipelines: one GraphQL read holds a batch of them.
    while (this.flights < this.concurrency && !this.controller.signal.aborted) {
      const size = this.graphql.usable ? this.graphql.size('testSummaries') : 1;
      const batch = [...this.queue.values()]
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, size);
      if (batch.length === 0) break;
      for (const task of batch) this.queue.delete(task.pipelineId);
      void this.runBatch(batch);
    }
  }

  private run(task: ReadTask): Promise<void> {
    return this.runBatch([task], true);
  }

  /** Reads a batch (`rest`: one pipeline over REST, what pipeline details wait for). */
  private runBatch(tasks: ReadTask[], rest = false): Promise<void> {
    this.flights++;
    const read = rest || !this.graphql.usable ? this.readEach(tasks) : this.readBulk(tasks);
    const promise = read.finally(() => {
      this.flights--;
      for (const task of tasks) this.running.delete(task.pipelineId);
      this.pump();
      if (this.queue.size === 0 && this.running.size === 0)
        for (const resolve of this.waiters.splice(0)) resolve();
    });
    for (const task of tasks) this.running.set(task.pipelineId, promise);
    return promise;
  }

  private async readEach(tasks: readonly ReadTask[]): Promise<void> {
    for (const task of tasks) await this.read(task);
  }

  /**
   * Reads the batch's summaries in one GraphQL request, then each pipeline's full report where it
   * decides something. GitLab refusing the query for its size shrinks the batch (the refused
   * pipelines are queued again); refusing GraphQL itself sends summaries over REST from then on.
   */
  private async readBulk(tasks: readonly ReadTask[]): Promise<void> {
    const signal = this.controller.signal;
    // A pipeline of a project whose path is unknown gets no answer below: REST reads it.
    const byProject = new Map<string, number[]>();
    for (const task of tasks) {
      const path = this.deps.projectPath?.(task.projectId);
      if (path === undefined) continue;
      const ids = byProject.get(path);
      if (ids) ids.push(task.pipelineId);
      else byProject.set(path, [task.pipelineId]);
    }
    if (byProject.size === 0) return this.readEach(tasks);
    let summaries: Map<number, BulkTestSummary>;
    try {
      this.requests.summaryQueries++;
      summaries = await this.deps.gitlab.bulk!.testReportSummaries(
        [...byProject].map(([fullPath, pipelineIds]) => ({ fullPath, pipelineIds })),
        signal,
      );
    } catch (err) {
      if (signal.aborted) return;
      if (!(err instanceof GraphQLRefusal)) {
        for (const task of tasks) this.failed(task, err);
        return;
      }
      const smaller =
        err.kind === 'complexity' || err.kind === 'too-large'
          ? this.graphql.shrink('testSummaries', err, tasks.length)
          : null;
      if (smaller === null) this.graphql.switchOff(err);
      // Not the pipelines' fault: read again at once, in smaller batches or over REST.
      for (const task of tasks)
        if (!this.queue.has(task.pipelineId)) this.queue.set(task.pipelineId, task);
      return;
    }
    for (const task of tasks) {
      if (signal.aborted) return;
      const summary = summaries.get(task.pipelineId);
      if (summary === undefined || summary === 'rest') await this.read(task);
      // GitLab no longer shows it (deleted, or no longer readable): as REST's 404.
      else if (summary === null) this.dropped(task);
      else await this.afterSummary(task, summary);
    }
  }

  /** Reads one pipeline's summary over REST, then its report where it decides something. */
  private async read(task: ReadTask): Promise<void> {
    const { gitlab } = this.deps;
    const signal = this.controller.signal;
    // Stopped (a details read may still ask after the service began to close): nothing more.
    if (!gitlab.getTestReportSummary || !gitlab.getTestReport || signal.aborted) return;
    let summary: GitLabTestReportSummary;
    try {
      this.requests.summaries++;
      summary = await gitlab.getTestReportSummary(task.projectId, task.pipelineId, signal);
    } catch (err) {
      this.failed(task, err);
      return;
    }
    await this.afterSummary(task, summary);
  }

  /** A pipeline GitLab does not show any more: nothing to read, now or after a restart. */
  private dropped(task: ReadTask): void {
    this.saveQueue();
    this.deps.store.unqueue(task.pipelineId);
  }

  /** A read failed: dropped when GitLab says it is gone, else tried again (up to 3 times). */
  private failed(task: ReadTask, err: unknown): void {
    if (this.controller.signal.aborted) return;
    if (isAppError(err, 'not_found', 'forbidden')) return this.dropped(task);
    const attempts = (this.attempts.get(task.pipelineId) ?? 0) + 1;
    this.attempts.set(task.pipelineId, attempts);
    this.deps.logger.debug(
      { pipelineId: task.pipelineId, attempts, err: (err as Error).message },
      'test report read failed',
    );
    if (attempts < MAX_ATTEMPTS && !this.queue.has(task.pipelineId))
      this.queue.set(task.pipelineId, task);
  }

  /** With the summary read: the full report where it decides something, then both stored. */
  private async afterSummary(task: ReadTask, summary: GitLabTestReportSummary): Promise<void> {
    const { gitlab, store, clock } = this.deps;
    const signal = this.controller.signal;
    if (!gitlab.getTestReport) return;
    this.requests.summarised++;
    try {
      const pipeline = this.deps.pipeline(task.pipelineId);
      // Gone, or changed again meanwhile: the newer state queues its own read.
      if (signal.aborted || !pipeline || !sameUpdatedAt(pipeline.updatedAt, task.updatedAt)) return;
      const since = clock.now() - WATCH_LOOKBACK_MS;
      const watched = new Map(
        summary.test_suites.map((s) => [
          s.name,
          new Set(
            store
              .watchedTests(task.projectId, s.name, pipeline.sha, pipeline.ref, since)
              .map((t) => `${t.classname}\n${t.name}`),
          ),
        ]),
      );
      const needed = summary.test_suites.some(
        (s) => s.failed_count + s.error_count > 0 || watched.get(s.name)!.size > 0,
      );
      let report: GitLabTestReport | null = null;
      if (needed) {
        this.requests.reports++;
        report = await gitlab.getTestReport(task.projectId, task.pipelineId, signal);
        if (signal.aborted) return;
      }
      const runs = toRuns(summary, report, watched, task.jobNames);
      this.saveQueue();
      this.deps.flush();
      store.saveRead(task.pipelineId, task.updatedAt, clock.now(), runs);
      this.attempts.delete(task.pipelineId);
    } catch (err) {
      this.failed(task, err);
    }
  }
}

/** The runs to store from a summary and, where read, the full report. */
function toRuns(
  summary: GitLabTestReportSummary,
  report: GitLabTestReport | null,
  watched: ReadonlyMap<string, ReadonlySet<string>>,
  jobNames: ReadonlyMap<number, string>,
): NewTestRun[] {
  const bySuite = new Map<string, GitLabTestSuite>(report?.test_suites.map((s) => [s.name, s]));
  return summary.test_suites.map((s): NewTestRun => {
    const jobId = s.build_ids.length === 1 ? s.build_ids[0]! : null;
    const failures = s.failed_count + s.error_count > 0;
    const watch = watched.get(s.name) ?? new Set<string>();
    const full = bySuite.get(s.name);
    const base = {
      suite: s.name,
      buildIds: s.build_ids,
      jobId,
      jobName: (jobId !== null ? jobNames.get(jobId) : undefined) ?? s.name,
      total: s.total_count,
      success: s.success_count,
      failed: s.failed_count,
      skipped: s.skipped_count,
      error: s.error_count,
      time: s.total_time,
      suiteError: s.suite_error,
    };
    if (!report || (!failures && watch.size === 0)) return { ...base, cases: 'none', results: [] };
    // Read but gone from the report: its artifacts expired (the summary outlives them).
    if (!full) return { ...base, cases: failures ? 'expired' : 'none', results: [] };
    const results = full.test_cases
      .filter(
        (c) =>
          c.status === 'failed' || c.status === 'error' || watch.has(`${c.classname}\n${c.name}`),
      )
      .map((c) => ({
        classname: c.classname,
        name: c.name,
        file: c.file,
        status: c.status,
        duration: c.execution_time,
        stackTrace:
          c.status === 'failed' || c.status === 'error' ? boundedTrace(c.stack_trace) : null,
      }));
    return { ...base, cases: 'read', results };
  });
}
