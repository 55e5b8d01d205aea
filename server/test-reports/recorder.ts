import type { GitLabApi } from '../gitlab/api.ts';
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
import type { NewTestRun, QueuedRead, TestReportStore } from './store.ts';

/** Stack traces are kept up to this many characters (the head: the assertion and its location). */
export const MAX_STACK_TRACE_CHARS = 4_000;
/** Failures this recent on the same commit or ref make a green report worth reading. */
export const WATCH_LOOKBACK_MS = 14 * 86_400_000;
const MAX_ATTEMPTS = 3;

/** What the recorder needs. */
export interface TestReportRecorderDeps {
  gitlab: Pick<GitLabApi, 'getTestReportSummary' | 'getTestReport'>;
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
  /** Requests made to GitLab (summaries and full reports), for measuring the cost. */
  readonly requests = { summaries: 0, reports: 0 };

  constructor(private readonly deps: TestReportRecorderDeps) {
    this.concurrency = deps.concurrency ?? 1;
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
    this.pump();
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
    while (this.running.size < this.concurrency && !this.controller.signal.aborted) {
      let next: ReadTask | null = null;
      for (const task of this.queue.values())
        if (!next || task.createdAt > next.createdAt) next = task;
      if (!next) break;
      this.queue.delete(next.pipelineId);
      void this.run(next);
    }
  }

  private run(task: ReadTask): Promise<void> {
    const promise = this.read(task).finally(() => {
      this.running.delete(task.pipelineId);
      this.pump();
      if (this.queue.size === 0 && this.running.size === 0)
        for (const resolve of this.waiters.splice(0)) resolve();
    });
    this.running.set(task.pipelineId, promise);
    return promise;
  }

  private async read(task: ReadTask): Promise<void> {
    const { gitlab, store, clock, logger } = this.deps;
    const signal = this.controller.signal;
    if (!gitlab.getTestReportSummary || !gitlab.getTestReport) return;
    try {
      this.requests.summaries++;
      const summary = await gitlab.getTestReportSummary(task.projectId, task.pipelineId, signal);
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
      if (signal.aborted) return;
      if (isAppError(err, 'not_found', 'forbidden')) {
        this.saveQueue();
        store.unqueue(task.pipelineId);
        return;
      }
      const attempts = (this.attempts.get(task.pipelineId) ?? 0) + 1;
      this.attempts.set(task.pipelineId, attempts);
      logger.debug(
        { pipelineId: task.pipelineId, attempts, err: (err as Error).message },
        'test report read failed',
      );
      if (attempts < MAX_ATTEMPTS && !this.queue.has(task.pipelineId))
        this.queue.set(task.pipelineId, task);
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
