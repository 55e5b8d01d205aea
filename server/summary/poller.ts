import type { ReadMode } from '../gitlab/graphql-mode.ts';
import type { ActivityResponse, SummaryResponse, SummaryStatus } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { PipelineReads } from '../gitlab/pipeline-reads.ts';
import type { Clock } from '../platform/clock.ts';
import { isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { sleep } from '../platform/sleep.ts';
import { computeActivity } from './activity.ts';
import { refLabel, type MergeRequestLookup, type RefLabel } from './merge-request-ref.ts';
import type { PipelineRecord } from './model.ts';
import { PipelineFeed } from './pipeline-feed.ts';
import type { PollerObserver, PollerWarmState } from './poller-observer.ts';
import {
  observerTeller,
  PipelineChangeListeners,
  type PipelineChange,
  type TellObserver,
} from './poller/change-listeners.ts';
import { CursorReads, resumeCursors } from './poller/cursor-reads.ts';
import { DeletionReconciler } from './poller/deletion-reconciler.ts';
import { DetailQueue } from './poller/detail-queue.ts';
import { PollHealth } from './poller/poll-health.ts';
import { ProjectListRefresh } from './poller/project-list.ts';
import { PublishedSummary } from './poller/published-summary.ts';
import { WatchedProjects } from './poller/watched-projects.ts';
import { parseSince } from './since.ts';
import { summarise } from './summarise.ts';

export type { PipelineChange } from './poller/change-listeners.ts';

/** Tuning of the poller; defaults suit a real GitLab. */
export interface PollerTiming {
  /** Between cycles while any pipeline is active. Default 10 s. */
  fastIntervalMs: number;
  /** Between cycles when everything is finished. Default 60 s. */
  slowIntervalMs: number;
  /** Longest wait between failing cycles. Default 5 min. */
  maxBackoffMs: number;
  /** How often the group's project list is re-read. Default 5 min. */
  projectRefreshMs: number;
  /** Parallel single-pipeline fetches. Default 4. */
  detailConcurrency: number;
  /** Parallel pipeline-list fetches. Default 8. */
  listConcurrency: number;
  /**
   * How often each project's in-window pipeline ids are compared with GitLab, so pipelines deleted
   * by users or GitLab's cleanup leave the summary (an `updated_after` read never sees a deletion).
   * Default 10 min.
   */
  reconcileMs: number;
}

/** What the poller needs. */
export interface PollerDeps {
  gitlab: GitLabApi;
  clock: Clock;
  logger: Logger;
  group: string;
  since: string;
  timing?: Partial<PollerTiming>;
  /**
   * Called with the pre-serialised summary and activity whenever projects, numbers, state or the
   * activity changed, so both travel together over SSE (no pull after every push).
   */
  onChange?: (summaryJson: string, activityJson: string) => void;
  /** Waits `ms` unless woken or aborted; injectable so tests can drive cycles. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Hears what each cycle learns (the pipeline history records it). */
  observer?: PollerObserver;
  /** Told how long each cycle that ran to its end took, and whether it failed (metrics). */
  onCycle?: (cycle: PollCycle) => void;
  /**
   * Single-pipeline and job reads shared with the failure events and the history, which want the
   * same pipelines at the same moment (default: the poller's own).
   */
  reads?: PipelineReads;
  /** Merge requests' titles and links (the history looks each up once), for `!406` labels. */
  mergeRequests?: MergeRequestLookup;
  /** How JUnit test report summaries are read (the test-report recorder), for the status. */
  testReportsApi?: () => ReadMode;
}

/** One finished cycle: its wall-clock duration and whether GitLab failed it. */
export interface PollCycle {
  durationMs: number;
  ok: boolean;
}

const DEFAULT_TIMING: PollerTiming = {
  fastIntervalMs: 10_000,
  slowIntervalMs: 60_000,
  maxBackoffMs: 300_000,
  projectRefreshMs: 300_000,
  detailConcurrency: 4,
  listConcurrency: 8,
  reconcileMs: 600_000,
};

/** Waits `ms`, or less when woken (aborted): the loop then runs its next cycle at once. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, signal).catch(() => undefined);
}

/**
 * Keeps a live summary of a group's pipelines. The first cycle lists the group's projects and their
 * pipelines in the window; later cycles ask each project only for pipelines updated since the newest
 * one seen, fetch single-pipeline details (the only source of duration and user) only for pipelines
 * that changed, and never re-fetch a finished one. Cycles run faster while anything is active and
 * back off while GitLab fails, serving the last good summary meanwhile. The summary is recomputed
 * after each change and handed out pre-serialised.
 *
 * This file is the loop: it decides *when* (cadence, back-off, cancellation, re-targeting). What a
 * cycle does is in the stages under `poller/`: the project list, the cursor reads, the deletion
 * reconciliation, the detail queue, the published summary and the change listeners, all working on
 * the watched projects.
 */
export class PipelinePoller {
  private readonly timing: PollerTiming;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private group: string;
  private since: string;
  private windowMs: number;
  private readonly watched = new WatchedProjects();
  private readonly health = new PollHealth();
  private readonly feed: PipelineFeed;
  private readonly listeners: PipelineChangeListeners;
  private readonly projectList: ProjectListRefresh;
  private readonly cursorReads: CursorReads;
  private readonly deletions: DeletionReconciler;
  private readonly details: DetailQueue;
  private readonly published: PublishedSummary;
  private readonly tell: TellObserver;
  private generation = 0;
  private controller = new AbortController();
  private wake = new AbortController();
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: PollerDeps) {
    const timing = { ...DEFAULT_TIMING, ...deps.timing };
    const { gitlab, clock, logger } = deps;
    const watched = this.watched;
    const tell = observerTeller(deps.observer, logger);
    this.tell = tell;
    const reads = deps.reads ?? new PipelineReads(gitlab);
    this.timing = timing;
    this.sleep = deps.sleep ?? abortableSleep;
    this.group = deps.group;
    this.since = deps.since;
    this.windowMs = parseSince(deps.since);
    this.feed = new PipelineFeed(gitlab, logger, timing.listConcurrency);
    this.listeners = new PipelineChangeListeners(logger);
    this.published = new PublishedSummary({
      clock,
      data: () =>
        summarise(
          watched.readable().map((s) => s.project),
          (id) => watched.get(id)?.pipelines.values() ?? [],
          clock.now(),
          this.windowMs,
          deps.mergeRequests,
        ),
      activity: () => this.activity(),
      status: () => this.status,
      onChange: deps.onChange,
    });
    this.details = new DetailQueue({
      gitlab,
      reads,
      watched,
      tell,
      logger,
      concurrency: timing.detailConcurrency,
      windowStart: () => clock.now() - this.windowMs,
      onDetails: () => this.published.scheduleRecompute(),
      onSettled: () => this.published.recompute(),
    });
    this.projectList = new ProjectListRefresh({
      gitlab,
      watched,
      tell,
      intervalMs: timing.projectRefreshMs,
    });
    this.cursorReads = new CursorReads({
      feed: this.feed,
      watched,
      reads,
      details: this.details,
      tell,
      logger,
    });
    this.deletions = new DeletionReconciler({
      feed: this.feed,
      tell,
      intervalMs: timing.reconcileMs,
    });
  }

  /** The group and window being watched. */
  get target(): { group: string; since: string } {
    return { group: this.group, since: this.since };
  }

  /** Freshness and GitLab health, for the dashboard. */
  get status(): SummaryStatus {
    const reports = this.deps.testReportsApi?.();
    return {
      state: this.health.state,
      last_updated: this.health.lastUpdatedIso,
      last_error: this.health.error ?? this.watched.capMessage,
      group: this.group,
      since: this.since,
      gitlab_api: this.feed.mode.api,
      gitlab_api_note: this.feed.mode.note,
      ...(reports && { test_reports_api: reports.api, test_reports_api_note: reports.note }),
    };
  }

  /** The current summary, serialised once per change (the snapshot route serves these bytes). */
  get snapshotJson(): string {
    return this.published.snapshotJson;
  }

  /** The current summary as an object (tests, the terminal view). */
  get snapshot(): SummaryResponse {
    return JSON.parse(this.snapshotJson) as SummaryResponse;
  }

  /** Timeline buckets and contributors over every pipeline in the window. */
  activity(): ActivityResponse {
    return computeActivity(
      this.watched.pipelines(),
      this.deps.clock.now(),
      this.windowMs,
      this.since,
    );
  }

  /**
   * A pipeline GitLab answered 404 for when its details were opened: it leaves the summary now and
   * the history hears it was deleted, instead of both waiting for the next reconciliation.
   */
  readonly pipelineGone = (projectId: number, pipelineId: number): void => {
    this.tell((o) => o.pipelineDeleted?.(projectId, pipelineId));
    if (this.watched.forget(projectId, pipelineId)) this.published.recompute();
  };

  /** GitLab's `updated_at` of a pipeline in the window, if known. */
  readonly pipelineUpdatedAt = (projectId: number, pipelineId: number): string | undefined =>
    this.watched.pipeline(projectId, pipelineId)?.updatedAt;

  /** A pipeline in the window as the poller knows it (bound), or undefined. */
  readonly pipelineRecord = (projectId: number, pipelineId: number): PipelineRecord | undefined =>
    this.watched.pipeline(projectId, pipelineId);

  /** How a ref of a watched project reads: the branch, or `!406` with its MR (bound). */
  readonly refLabel = (projectId: number, ref: string): RefLabel =>
    refLabel(projectId, ref, this.watched.get(projectId)?.project.webUrl, this.deps.mergeRequests);

  /** The name of a watched project, if known (bound, so it can be handed out as a function). */
  readonly projectName = (projectId: number): string | undefined =>
    this.watched.get(projectId)?.project.name;

  /** Subscribes to each cycle's status changes; returns the unsubscribe function. */
  onPipelineChanges(listener: (changes: PipelineChange[]) => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** True once the first load finished. */
  get isLoaded(): boolean {
    return this.health.isLoaded;
  }

  /**
   * A warm start: takes the last known projects and pipelines (from disk) as if a cycle had read
   * them, so the first summary is served at once and the next cycle asks GitLab only for what
   * changed since (cursors from the newest updated_at known per project).
   */
  restore(state: PollerWarmState): void {
    const now = this.deps.clock.now();
    this.watched.restore(state.projects, state.pipelines, now - this.windowMs);
    const restored = this.watched.all();
    resumeCursors(restored);
    this.projectList.restore(state.projectsReadAt);
    // Deletions made while the app was down are reconciled at the regular interval, not by the
    // first cycle: a restart asks GitLab only for what changed (issue 13's restart budget).
    this.deletions.skip(now);
    this.health.restored();
    this.published.recompute();
    // What was failing when the app last ran is history: listeners learn it as the baseline.
    this.listeners.tell(
      restored.flatMap((s) =>
        [...s.pipelines.values()].map((record) => ({
          project: s.project,
          record,
          previousStatus: null,
          baseline: true,
        })),
      ),
    );
  }

  /** Starts polling in the background (again after `stop`: the desktop tray pauses and resumes). */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.controller.signal.aborted) this.controller = new AbortController();
    this.published.publish(true);
    this.loop = this.runLoop(this.generation);
  }

  /** Stops polling and waits for the current cycle to wind down. */
  async stop(): Promise<void> {
    this.running = false;
    this.controller.abort();
    this.wake.abort();
    this.published.cancel();
    this.details.stop();
    await this.loop;
  }

  /**
   * Points the poller at another group and/or window at once: the current cycle is cancelled, the
   * old data dropped, and a fresh first load starts immediately. A bad `since` is a 400.
   */
  retarget(target: { group?: string; since?: string }): void {
    const windowMs = target.since === undefined ? this.windowMs : parseSince(target.since);
    const groupChanged = target.group !== undefined && target.group !== this.group;
    this.since = target.since ?? this.since;
    this.windowMs = windowMs;
    if (groupChanged) {
      this.group = target.group!;
      this.watched.clear();
      this.projectList.reset();
      this.health.unload();
    } else {
      // Same group, new window: a shorter window needs no request; a longer one needs a re-read.
      this.watched.forgetCursors();
    }
    this.health.succeeded();
    this.watched.clearCaps();
    this.deletions.reset();
    // New settings: a Retry-After wait from before should not delay the first read.
    this.deps.gitlab.clearRateLimitWait?.();
    this.details.clear();
    this.generation++;
    this.controller.abort();
    this.controller = new AbortController();
    this.published.recompute();
    if (this.running) this.loop = this.runLoop(this.generation);
  }

  /**
   * Runs one cycle now (tests, the terminal view), recording success or failure in `status` like the
   * background loop does; rethrows what the cycle throws.
   */
  async cycleOnce(): Promise<void> {
    const started = performance.now();
    try {
      await this.cycle(this.controller.signal);
      this.health.succeeded();
      this.reportCycle(started, true);
    } catch (err) {
      this.health.failed(err);
      this.reportCycle(started, false);
      throw err;
    } finally {
      this.published.recompute();
    }
  }

  /** Resolves when no single-pipeline fetch is queued or running, with the summary recomputed. */
  detailsSettled(): Promise<void> {
    return this.details.settled();
  }

  private async runLoop(generation: number): Promise<void> {
    while (this.running && generation === this.generation) {
      const signal = this.controller.signal;
      let retryAfterMs = 0;
      const started = performance.now();
      try {
        await this.cycle(signal);
        if (generation !== this.generation) return;
        this.health.succeeded();
        if (!signal.aborted) this.reportCycle(started, true);
      } catch (err) {
        if (signal.aborted || generation !== this.generation) return;
        this.health.failed(err);
        this.reportCycle(started, false);
        retryAfterMs = isAppError(err) ? (err.retryAfterMs ?? 0) : 0;
        this.deps.logger.warn(
          {
            err: err instanceof Error ? err.message : String(err),
            failures: this.health.failureCount,
          },
          'GitLab poll failed; serving the last good summary',
        );
      }
      this.published.recompute();
      if (this.wake.signal.aborted) this.wake = new AbortController();
      const both = AbortSignal.any([this.wake.signal, signal]);
      await this.sleep(this.nextWaitMs(retryAfterMs), both);
    }
  }

  private reportCycle(started: number, ok: boolean): void {
    this.deps.onCycle?.({ durationMs: performance.now() - started, ok });
  }

  /**
   * The wait before the next cycle: fast while anything may change on its own, slow otherwise, and
   * while cycles fail an exponential back-off (at least GitLab's Retry-After, at most maxBackoffMs).
   */
  private nextWaitMs(retryAfterMs: number): number {
    const { fastIntervalMs, slowIntervalMs, maxBackoffMs } = this.timing;
    const failures = this.health.failureCount;
    if (failures === 0) return this.watched.anyUnsettled() ? fastIntervalMs : slowIntervalMs;
    return Math.min(
      maxBackoffMs,
      Math.max(retryAfterMs, fastIntervalMs * 2 ** Math.min(failures - 1, 10)),
    );
  }

  /** One pass of the stages, in order; each returns early once the cycle is cancelled. */
  private async cycle(signal: AbortSignal): Promise<void> {
    const now = this.deps.clock.now();
    const cutoff = now - this.windowMs;
    if (this.projectList.due(now)) {
      await this.projectList.refresh(this.group, now, signal);
      if (signal.aborted) return;
    }
    const states = this.watched.readable();
    const changes = await this.cursorReads.read(states, cutoff, signal);
    if (signal.aborted) return;
    this.listeners.tell(changes);
    // A first load has nothing to reconcile yet.
    if (!this.health.isLoaded) this.deletions.skip(now);
    else if (this.deletions.due(now)) {
      await this.deletions.reconcile(states, cutoff, now, signal);
      if (signal.aborted) return;
    }
    this.watched.dropOlderThan(states, cutoff);
    this.details.queueMissing(states);
    this.health.readAt(now);
    this.published.recompute();
    this.details.pump(signal);
  }
}
