import {
  failingJob,
  type ActivityResponse,
  type SummaryResponse,
  type SummaryStatus,
} from '../contract.ts';
import { systemClock, type Clock } from '../platform/clock.ts';
import { AppError, isAppError } from '../platform/errors.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { PipelineReads } from '../gitlab/pipeline-reads.ts';
import { isSettledStatus } from '../gitlab/pipeline-status.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import { latestAttempts, toPipelineRecord, toProject, withPipelineDetails } from './from-gitlab.ts';
import type { Logger } from '../platform/logger.ts';
import { computeActivity } from './activity.ts';
import type { GitLabJob, GitLabPipeline, GitLabPipelineListItem } from '../gitlab/wire.ts';
import type { PipelineRecord, Project } from './model.ts';
import { PipelineFeed } from './pipeline-feed.ts';
import { sleep } from '../platform/sleep.ts';
import type { PollerObserver, PollerWarmState } from './poller-observer.ts';
import { parseSince } from './since.ts';
import { RECENT_PIPELINES, summarise } from './summarise.ts';

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
  /**
   * Single-pipeline and job reads shared with the failure events and the history, which want the
   * same pipelines at the same moment (default: the poller's own).
   */
  reads?: PipelineReads;
}

interface ProjectState {
  project: Project;
  pipelines: Map<number, PipelineRecord>;
  /** `updated_after` for the next list request (ISO), from the newest updated_at seen. */
  cursor: string | null;
  /** False until a list of this project's window succeeded: its first changes are the baseline. */
  listed?: boolean;
}

/** A pipeline whose status a cycle saw change (what failure events are derived from). */
export interface PipelineChange {
  project: Project;
  record: PipelineRecord;
  /** The status before, or null for a pipeline seen for the first time. */
  previousStatus: string | null;
  /** True on a project's first listing (start-up, new project, new target): history, not news. */
  baseline: boolean;
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

/** Cursor overlap: GitLab timestamps have second precision; re-read that second and dedupe. */
const CURSOR_OVERLAP_MS = 1_000;

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
 */
export class PipelinePoller {
  private readonly timing: PollerTiming;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private group: string;
  private since: string;
  private windowMs: number;
  private states = new Map<number, ProjectState>();
  /** Projects whose pipelines the token cannot read; retried at the next project refresh. */
  private inaccessible = new Set<number>();
  private projectsReadAt = -Infinity;
  private reconciledAt = -Infinity;
  /** Projects whose last read hit a list cap, with the message for `status.last_error`. */
  private capped = new Map<number, string>();
  private readonly feed: PipelineFeed;
  private readonly reads: PipelineReads;
  private loaded = false;
  private failures = 0;
  private lastError: string | null = null;
  private lastUpdated: number | null = null;
  private detailQueue = new Map<
    string,
    { projectId: number; pipelineId: number; createdAt: number }
  >();
  private detailsInFlight = 0;
  /**
   * Details GraphQL brought for recent failed pipelines, held back from the observer until their
   * jobs are read, so it hears both together instead of reading the jobs a second time.
   */
  private untoldDetails = new Map<number, GitLabPipeline>();
  private detailWaiters: (() => void)[] = [];
  private generation = 0;
  private controller = new AbortController();
  private wake = new AbortController();
  private running = false;
  private loop: Promise<void> | null = null;
  private dataJson =
    '{"projects":[],"summary":{"total_pipelines":0,"successful":0,"failed":0,"running":0,"average_duration":0,"overall_success_rate":0}}';
  private publishedKey = '';
  private snapshotCache: string | null = null;
  private activityJson = '';
  private activityKey = '';
  private cancelRecompute: (() => void) | null = null;
  private changeListeners = new Set<(changes: PipelineChange[]) => void>();

  constructor(private readonly deps: PollerDeps) {
    this.timing = { ...DEFAULT_TIMING, ...deps.timing };
    this.sleep = deps.sleep ?? abortableSleep;
    this.group = deps.group;
    this.since = deps.since;
    this.windowMs = parseSince(deps.since);
    this.feed = new PipelineFeed(deps.gitlab, deps.clock, deps.logger, this.timing.listConcurrency);
    this.reads = deps.reads ?? new PipelineReads(deps.gitlab);
  }

  /** The group and window being watched. */
  get target(): { group: string; since: string } {
    return { group: this.group, since: this.since };
  }

  /** Freshness and GitLab health, for the dashboard. */
  get status(): SummaryStatus {
    return {
      state: !this.loaded
        ? this.failures > 0
          ? 'degraded'
          : 'loading'
        : this.failures > 0
          ? 'degraded'
          : 'ok',
      last_updated: this.lastUpdated === null ? null : new Date(this.lastUpdated).toISOString(),
      last_error: this.lastError ?? this.capped.values().next().value ?? null,
      group: this.group,
      since: this.since,
      gitlab_api: this.feed.mode.api,
      gitlab_api_note: this.feed.mode.note,
    };
  }

  /** The current summary, serialised once per change (the snapshot route serves these bytes). */
  get snapshotJson(): string {
    this.snapshotCache ??= `${this.dataJson.slice(0, -1)},"status":${JSON.stringify(this.status)}}`;
    return this.snapshotCache;
  }

  /** The current summary as an object (tests, the terminal view). */
  get snapshot(): SummaryResponse {
    return JSON.parse(this.snapshotJson) as SummaryResponse;
  }

  /** Timeline buckets and contributors over every pipeline in the window. */
  activity(): ActivityResponse {
    const states = [...this.states.values()];
    return computeActivity(
      (function* () {
        for (const state of states) yield* state.pipelines.values();
      })(),
      this.deps.clock.now(),
      this.windowMs,
      this.since,
    );
  }

  /** GitLab's `updated_at` of a pipeline in the window, if known (details cache key). */
  readonly pipelineUpdatedAt = (projectId: number, pipelineId: number): string | undefined =>
    this.states.get(projectId)?.pipelines.get(pipelineId)?.updatedAt;

  /** The name of a watched project, if known (bound, so it can be handed out as a function). */
  readonly projectName = (projectId: number): string | undefined =>
    this.states.get(projectId)?.project.name;

  /** Subscribes to each cycle's status changes; returns the unsubscribe function. */
  onPipelineChanges(listener: (changes: PipelineChange[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** True once the first load finished. */
  get isLoaded(): boolean {
    return this.loaded;
  }

  /**
   * A warm start: takes the last known projects and pipelines (from disk) as if a cycle had read
   * them, so the first summary is served at once and the next cycle asks GitLab only for what
   * changed since (cursors from the newest updated_at known per project).
   */
  restore(state: PollerWarmState): void {
    const cutoff = this.deps.clock.now() - this.windowMs;
    const next = new Map<number, ProjectState>();
    for (const project of state.projects)
      next.set(project.id, { project, pipelines: new Map(), cursor: null });
    for (const p of state.pipelines) {
      const s = next.get(p.projectId);
      if (!s || p.createdAt < cutoff) continue;
      s.pipelines.set(p.id, p);
      if (s.cursor === null || p.updatedAt > s.cursor) s.cursor = p.updatedAt;
    }
    for (const s of next.values())
      if (s.cursor !== null)
        s.cursor = new Date(Date.parse(s.cursor) - CURSOR_OVERLAP_MS).toISOString();
    this.states = next;
    this.projectsReadAt = state.projectsReadAt;
    // Deletions made while the app was down are reconciled at the regular interval, not by the
    // first cycle: a restart asks GitLab only for what changed (issue 13's restart budget).
    this.reconciledAt = this.deps.clock.now();
    this.loaded = true;
    this.recompute();
    // What was failing when the app last ran is history: listeners learn it as the baseline.
    this.tellChanges(
      [...next.values()].flatMap((s) =>
        [...s.pipelines.values()].map((record) => ({
          project: s.project,
          record,
          previousStatus: null,
          baseline: true,
        })),
      ),
    );
  }

  private tellChanges(changes: PipelineChange[]): void {
    if (changes.length === 0) return;
    for (const listener of this.changeListeners) {
      try {
        listener(changes);
      } catch (err) {
        this.deps.logger.warn({ err: describe(err) }, 'a pipeline-change listener failed');
      }
    }
  }

  /** Starts polling in the background (again after `stop`: the desktop tray pauses and resumes). */
  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.controller.signal.aborted) this.controller = new AbortController();
    this.publish(true);
    this.loop = this.runLoop(this.generation);
  }

  /** Stops polling and waits for the current cycle to wind down. */
  async stop(): Promise<void> {
    this.running = false;
    this.controller.abort();
    this.wake.abort();
    this.cancelRecompute?.();
    this.cancelRecompute = null;
    this.detailQueue.clear();
    this.untoldDetails.clear();
    if (this.detailsInFlight === 0) for (const resolve of this.detailWaiters.splice(0)) resolve();
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
    if (!groupChanged) {
      // Same group, new window: a shorter window needs no request; a longer one needs a re-read.
      this.group = target.group ?? this.group;
      for (const state of this.states.values()) {
        state.cursor = null;
        state.listed = false;
      }
    } else {
      this.group = target.group!;
      this.states = new Map();
      this.projectsReadAt = -Infinity;
      this.loaded = false;
      this.lastUpdated = null;
    }
    this.failures = 0;
    this.lastError = null;
    this.capped.clear();
    this.reconciledAt = -Infinity;
    // New settings: a Retry-After wait from before should not delay the first read.
    this.deps.gitlab.clearRateLimitWait?.();
    this.detailQueue.clear();
    this.untoldDetails.clear();
    this.generation++;
    this.controller.abort();
    this.controller = new AbortController();
    this.recompute();
    if (this.running) this.loop = this.runLoop(this.generation);
  }

  /**
   * Runs one cycle now (tests, the terminal view), recording success or failure in `status` like the
   * background loop does; rethrows what the cycle throws.
   */
  async cycleOnce(): Promise<void> {
    try {
      await this.cycle(this.controller.signal);
      this.failures = 0;
      this.lastError = null;
    } catch (err) {
      this.failures++;
      this.lastError = describe(err);
      throw err;
    } finally {
      this.recompute();
    }
  }

  /** Resolves when no single-pipeline fetch is queued or running, with the summary recomputed. */
  detailsSettled(): Promise<void> {
    if (this.detailQueue.size === 0 && this.detailsInFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.detailWaiters.push(resolve));
  }

  private async runLoop(generation: number): Promise<void> {
    while (this.running && generation === this.generation) {
      const signal = this.controller.signal;
      let retryAfterMs = 0;
      try {
        await this.cycle(signal);
        if (generation !== this.generation) return;
        this.failures = 0;
        this.lastError = null;
      } catch (err) {
        if (signal.aborted || generation !== this.generation) return;
        this.failures++;
        this.lastError = describe(err);
        retryAfterMs = isAppError(err) ? (err.retryAfterMs ?? 0) : 0;
        this.deps.logger.warn(
          { err: err instanceof Error ? err.message : String(err), failures: this.failures },
          'GitLab poll failed; serving the last good summary',
        );
      }
      this.recompute();
      const base = this.anyActive() ? this.timing.fastIntervalMs : this.timing.slowIntervalMs;
      const delay =
        this.failures === 0
          ? base
          : Math.min(
              this.timing.maxBackoffMs,
              Math.max(
                retryAfterMs,
                this.timing.fastIntervalMs * 2 ** Math.min(this.failures - 1, 10),
              ),
            );
      if (this.wake.signal.aborted) this.wake = new AbortController();
      const both = AbortSignal.any([this.wake.signal, signal]);
      await this.sleep(delay, both);
    }
  }

  private anyActive(): boolean {
    for (const state of this.states.values()) {
      for (const p of state.pipelines.values()) if (!isSettledStatus(p.status)) return true;
    }
    return false;
  }

  private async cycle(signal: AbortSignal): Promise<void> {
    const now = this.deps.clock.now();
    const cutoff = now - this.windowMs;
    if (now - this.projectsReadAt >= this.timing.projectRefreshMs) {
      const projects = await this.deps.gitlab.listGroupProjects(this.group, signal);
      if (signal.aborted) return;
      this.tell((o) => o.projectsListed?.(projects, now));
      const next = new Map<number, ProjectState>();
      for (const wire of projects) {
        const project = toProject(wire);
        const existing = this.states.get(project.id);
        next.set(
          project.id,
          existing ? { ...existing, project } : { project, pipelines: new Map(), cursor: null },
        );
      }
      this.states = next;
      this.projectsReadAt = now;
      this.inaccessible.clear();
      this.capped.clear();
    }

    const states = [...this.states.values()].filter((s) => !this.inaccessible.has(s.project.id));
    const changes = await this.readChanges(states, cutoff, signal);
    if (signal.aborted) return;
    this.tellChanges(changes);
    if (now - this.reconciledAt >= this.timing.reconcileMs && this.loaded) {
      await this.reconcileDeletions(states, cutoff, signal);
      if (signal.aborted) return;
      this.reconciledAt = now;
    } else if (!this.loaded) {
      this.reconciledAt = now;
    }

    for (const state of states) {
      for (const [id, p] of state.pipelines) {
        if (p.createdAt < cutoff) state.pipelines.delete(id);
        else if (!sameUpdatedAt(p.detailsFor, p.updatedAt) || this.needsFailure(state, p))
          this.queueDetails(p);
      }
    }
    this.loaded = true;
    this.lastUpdated = now;
    this.recompute();
    this.pumpDetails(signal);
  }

  /** Applies what changed since each project's cursor (GraphQL in bulk, or REST per project). */
  private async readChanges(
    states: ProjectState[],
    cutoff: number,
    signal: AbortSignal,
  ): Promise<PipelineChange[]> {
    const byId = new Map(states.map((s) => [s.project.id, s]));
    const updates = await this.feed.updates(
      states.map((s) => ({ projectId: s.project.id, fullPath: s.project.path, cursor: s.cursor })),
      new Date(cutoff).toISOString(),
      (projectId, pipelineId) => byId.get(projectId)?.pipelines.get(pipelineId),
      signal,
      (projectId, message) => this.capped.set(projectId, message),
    );
    const changes: PipelineChange[] = [];
    if (signal.aborted) return changes;
    for (const update of updates) {
      const state = byId.get(update.projectId);
      if (!state) continue;
      if (update.inaccessible) {
        // A project whose pipelines this token may not read (Guest access, CI disabled: 403) or
        // that vanished since the project list (404) is left out until the next project refresh,
        // instead of failing every cycle for the whole group.
        this.inaccessible.add(state.project.id);
        state.pipelines.clear();
        state.listed = false;
        this.deps.logger.warn(
          { project: state.project.path, err: update.inaccessible.message },
          'skipping a project whose pipelines cannot be read',
        );
        continue;
      }
      const baseline = !state.listed;
      state.listed = true;
      let newest = state.cursor ? Date.parse(state.cursor) + CURSOR_OVERLAP_MS : -Infinity;
      const changed: GitLabPipelineListItem[] = [];
      const detailed: GitLabPipeline[] = [];
      for (const { item, details } of update.items) {
        newest = Math.max(newest, Date.parse(item.updated_at));
        if (Date.parse(item.created_at) < cutoff) continue;
        const previous = state.pipelines.get(item.id);
        // At whole seconds: the list may come over GraphQL and the details over REST (see updatedAtKey).
        if (
          previous &&
          sameUpdatedAt(previous.updatedAt, item.updated_at) &&
          previous.status === item.status
        )
          continue;
        const listed = toPipelineRecord(item, previous);
        // GraphQL carries duration and user with the list: no single-pipeline request needed.
        const record = details ? withPipelineDetails(listed, details) : listed;
        state.pipelines.set(item.id, record);
        if (previous?.status !== item.status)
          changes.push({
            project: state.project,
            record,
            previousStatus: previous?.status ?? null,
            baseline,
          });
        changed.push(details ?? item);
        if (details) {
          detailed.push(details);
          // Told before the changes: a failure event then needs no single-pipeline read of its own.
          this.reads.remember(details);
        }
      }
      if (changed.length > 0) this.tell((o) => o.pipelinesListed?.(state.project.id, changed));
      // Over GraphQL the list carried the details too: observers hear them as if fetched. A recent
      // failed pipeline's wait for its jobs, read next for its failing job, and travel with them.
      for (const detail of detailed) {
        const record = state.pipelines.get(detail.id);
        if (record && this.needsFailure(state, record)) {
          this.untoldDetails.set(detail.id, detail);
          this.queueDetails(record);
        } else this.tell((o) => o.pipelineDetailed?.(detail));
      }
      if (Number.isFinite(newest))
        state.cursor = new Date(newest - CURSOR_OVERLAP_MS).toISOString();
    }
    return changes;
  }

  /** Drops pipelines GitLab no longer has (deleted by a user or by its cleanup). */
  private async reconcileDeletions(
    states: ProjectState[],
    cutoff: number,
    signal: AbortSignal,
  ): Promise<void> {
    const present = await this.feed.idsInWindow(
      states.map((s) => ({ projectId: s.project.id, fullPath: s.project.path, cursor: s.cursor })),
      new Date(cutoff).toISOString(),
      signal,
    );
    if (signal.aborted) return;
    for (const state of states) {
      const ids = present.get(state.project.id);
      if (!ids) continue; // not read in full: keep what we have rather than guess
      for (const id of state.pipelines.keys()) {
        if (ids.has(id)) continue;
        state.pipelines.delete(id);
        this.tell((o) => o.pipelineDeleted?.(state.project.id, id));
      }
    }
  }

  private queueDetails(p: PipelineRecord): void {
    const key = `${p.projectId}:${p.id}`;
    if (!this.detailQueue.has(key))
      this.detailQueue.set(key, {
        projectId: p.projectId,
        pipelineId: p.id,
        createdAt: p.createdAt,
      });
  }

  /** Fetches queued single-pipeline details, newest first, in the background. */
  private pumpDetails(signal: AbortSignal): void {
    while (
      this.detailsInFlight < this.timing.detailConcurrency &&
      this.detailQueue.size > 0 &&
      !signal.aborted
    ) {
      let next: { key: string; projectId: number; pipelineId: number; createdAt: number } | null =
        null;
      for (const [key, item] of this.detailQueue)
        if (!next || item.createdAt > next.createdAt) next = { key, ...item };
      this.detailQueue.delete(next!.key);
      this.detailsInFlight++;
      void this.fetchDetails(next!.projectId, next!.pipelineId, signal).finally(() => {
        this.detailsInFlight--;
        this.pumpDetails(signal);
        if (
          this.detailQueue.size === 0 &&
          this.detailsInFlight === 0 &&
          this.detailWaiters.length > 0
        ) {
          this.recompute();
          for (const resolve of this.detailWaiters.splice(0)) resolve();
        }
      });
    }
    if (signal.aborted && this.detailsInFlight === 0)
      for (const resolve of this.detailWaiters.splice(0)) resolve();
  }

  private async fetchDetails(
    projectId: number,
    pipelineId: number,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const current = this.states.get(projectId)?.pipelines.get(pipelineId);
      // GraphQL already brought duration and user: only the failing job may be missing. Read for
      // the updated_at listed, so the failure event for this change shares the request.
      let detail: GitLabPipeline | null = null;
      // Gone from the window meanwhile: no state to share a read for, but a 404 still tells the
      // history it was deleted.
      if (!current) detail = await this.deps.gitlab.getPipeline(projectId, pipelineId, signal);
      else if (!sameUpdatedAt(current.detailsFor, current.updatedAt))
        detail = await this.reads.pipeline(projectId, pipelineId, current.updatedAt, signal);
      if (signal.aborted) return;
      const state = this.states.get(projectId);
      const record = state?.pipelines.get(pipelineId);
      if (!state || !record) return;
      const { failure: _stale, ...updated } = detail ? withPipelineDetails(record, detail) : record;
      const read =
        updated.status === 'failed' && this.isRecent(state, updated)
          ? await this.readFailure(projectId, pipelineId, updated.updatedAt, signal)
          : undefined;
      if (signal.aborted) return;
      const failure = read?.failure;
      state.pipelines.set(pipelineId, failure ? { ...updated, failure } : updated);
      const told = detail ?? this.untoldDetails.get(pipelineId);
      this.untoldDetails.delete(pipelineId);
      // The jobs go with the details only when they were read for this very state of the pipeline.
      const jobs =
        told && read && sameUpdatedAt(told.updated_at, updated.updatedAt) ? read.jobs : undefined;
      if (told) this.tell((o) => o.pipelineDetailed?.(told, jobs));
      this.scheduleRecompute();
    } catch (err) {
      if (signal.aborted) return;
      if (isAppError(err, 'not_found')) {
        // Deleted upstream since it was listed.
        this.untoldDetails.delete(pipelineId);
        this.states.get(projectId)?.pipelines.delete(pipelineId);
        this.tell((o) => o.pipelineDeleted?.(projectId, pipelineId));
        this.scheduleRecompute();
        return;
      }
      // Left stale: the next cycle queues it again.
      this.deps.logger.debug(
        { projectId, pipelineId, err: describe(err) },
        'pipeline details fetch failed',
      );
    }
  }

  /** A recent failed pipeline whose failing job is not known yet (read with its jobs, once). */
  private needsFailure(state: ProjectState, record: PipelineRecord): boolean {
    return (
      record.status === 'failed' && record.failure === undefined && this.isRecent(state, record)
    );
  }

  /** Tells the observer; its failure is logged, never the poller's. */
  private tell(call: (observer: PollerObserver) => void): void {
    if (!this.deps.observer) return;
    try {
      call(this.deps.observer);
    } catch (err) {
      this.deps.logger.warn({ err: describe(err) }, 'poller observer failed');
    }
  }

  /** True when `record` is among its project's newest pipelines, the ones the summary lists. */
  private isRecent(state: ProjectState, record: PipelineRecord): boolean {
    const cutoff = this.deps.clock.now() - this.windowMs;
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
    signal: AbortSignal,
  ): Promise<{ failure: NonNullable<PipelineRecord['failure']>; jobs: GitLabJob[] } | undefined> {
    try {
      // Shared: the failure event and the history read these very jobs too.
      const jobs = await this.reads.jobs(projectId, pipelineId, updatedAt, signal);
      return {
        failure: {
          jobId: failingJob(latestAttempts(jobs))?.id ?? null,
          commitTitle: jobs.find((j) => j.commit)?.commit?.title ?? null,
        },
        jobs,
      };
    } catch (err) {
      if (!signal.aborted)
        this.deps.logger.debug(
          { projectId, pipelineId, err: describe(err) },
          'failed pipeline jobs fetch failed',
        );
      return undefined;
    }
  }

  private scheduleRecompute(): void {
    // Many details land within a few ms of each other: one recompute serves them all.
    this.cancelRecompute ??= (this.deps.clock.after?.bind(this.deps.clock) ?? systemClock.after)(
      100,
      () => {
        this.cancelRecompute = null;
        this.recompute();
      },
    );
  }

  /** Recomputes the summary; publishes only when projects, numbers or health changed. */
  private recompute(): void {
    const states = this.states;
    const data = summarise(
      [...states.values()]
        .filter((s) => !this.inaccessible.has(s.project.id))
        .map((s) => s.project),
      (id) => states.get(id)?.pipelines.values() ?? [],
      this.deps.clock.now(),
      this.windowMs,
    );
    this.dataJson = JSON.stringify(data);
    this.snapshotCache = null;
    this.activityJson = '';
    this.publish(false);
  }

  private publish(force: boolean): void {
    const status = this.status;
    if (!this.activityJson) {
      const { window_start, ...activity } = this.activity();
      // The window's start moves with every tick; only buckets and contributors decide a push.
      this.activityKey = JSON.stringify(activity);
      this.activityJson = JSON.stringify({ ...activity, window_start });
    }
    const key = `${status.state}|${status.last_error}|${status.group}|${status.since}|${this.dataJson}|${this.activityKey}`;
    if (!force && key === this.publishedKey) return;
    this.publishedKey = key;
    this.deps.onChange?.(this.snapshotJson, this.activityJson);
  }
}

/**
 * A GitLab failure in words for the dashboard. AppError messages are written for users; anything
 * else is an internal exception whose text (paths, addresses, library internals) stays in the log.
 */
function describe(err: unknown): string {
  if (err instanceof AppError) return err.message;
  return 'Unexpected error while reading GitLab; the service log has the details';
}
