import type {
  ActivityResponse,
  FailureSignaturesEvent,
  PipelineEvent,
  SummaryResponse,
} from '../../server/contract.ts';
import type { ApiClient } from './client.ts';
import { errorMessage } from './client.ts';
import { ExternalStore } from '../lib/external-store.ts';

/** The state of the live connection, as the header shows it. */
export interface FeedState {
  summary: SummaryResponse | null;
  /** Timeline and contributors, pushed with every summary (`pipeline-activity`); null until then. */
  activity: ActivityResponse | null;
  /** `connecting` before the first event, `live` while the stream is open, `reconnecting` after a drop. */
  connection: 'connecting' | 'live' | 'reconnecting';
  /** When the last pipeline-update or heartbeat arrived (ms since epoch), or null. */
  lastEventAt: number | null;
  /** When the summary last changed here (ms since epoch). */
  lastUpdateAt: number | null;
  /** Why the first snapshot failed, when it did and no event has arrived yet. */
  error: string | null;
  /** Seconds until the next reconnect attempt, while reconnecting. */
  retryInMs: number | null;
  /** When the live connection was lost (ms since epoch), while reconnecting; else null. */
  lostAt: number | null;
}

/** The subset of EventSource the feed uses, so tests can pass a fake. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((ev: Event) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}

/** Edges of the feed. */
export interface LiveFeedOptions {
  api: ApiClient;
  createEventSource?: (url: string) => EventSourceLike;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** First reconnect delay; doubles up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Without any event (heartbeats every 15 s) for this long, the stream is considered dead. */
  staleAfterMs?: number;
}

/**
 * The window's one live connection to `/api/events/pipelines`. It fetches the snapshot for the
 * first paint, applies every `pipeline-update` and the `pipeline-activity` that follows it as they
 * arrive (no refetch: the service computes both and pushes them together), and when the stream
 * drops — or goes silent past the heartbeat — reconnects with exponential back-off and jitter.
 */
export class LiveFeed extends ExternalStore<FeedState> {
  private source: EventSourceLike | null = null;
  private attempt = 0;
  private retryTimer: unknown = null;
  private watchdog: unknown = null;
  private stopped = true;
  private readonly opts: Required<Omit<LiveFeedOptions, 'api'>> & { api: ApiClient };
  private readonly eventListeners = new Set<(event: PipelineEvent) => void>();
  private readonly signatureListeners = new Set<(event: FailureSignaturesEvent) => void>();

  constructor(options: LiveFeedOptions) {
    super({
      summary: null,
      activity: null,
      connection: 'connecting',
      lastEventAt: null,
      lastUpdateAt: null,
      error: null,
      retryInMs: null,
      lostAt: null,
    });
    this.opts = {
      createEventSource: (url) => new EventSource(url) as EventSourceLike,
      now: () => Date.now(),
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      baseDelayMs: 1_000,
      maxDelayMs: 30_000,
      staleAfterMs: 45_000,
      ...options,
    };
  }

  /** Loads the snapshot and opens the stream. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.loadSnapshot();
    this.connect();
  }

  /** Closes the stream and cancels timers. */
  stop(): void {
    this.stopped = true;
    this.source?.close();
    this.source = null;
    if (this.retryTimer !== null) this.opts.clearTimer(this.retryTimer);
    if (this.watchdog !== null) this.opts.clearTimer(this.watchdog);
    this.retryTimer = this.watchdog = null;
  }

  /** Reconnects now (the "retry" button), resetting the back-off. */
  reconnectNow(): void {
    this.attempt = 0;
    this.source?.close();
    this.source = null;
    if (this.retryTimer !== null) this.opts.clearTimer(this.retryTimer);
    this.retryTimer = null;
    void this.loadSnapshot();
    this.connect();
  }

  /** Subscribes to the stream's `pipeline-failed` / `pipeline-fixed` events; returns unsubscribe. */
  onPipelineEvent(listener: (event: PipelineEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Subscribes to `failure-signatures`: failed jobs the service signed in the background, so a view
   * showing their pipeline asks again; returns unsubscribe.
   */
  onFailureSignatures(listener: (event: FailureSignaturesEvent) => void): () => void {
    this.signatureListeners.add(listener);
    return () => this.signatureListeners.delete(listener);
  }

  /** Replaces the summary after an action that changes it (settings saved), without waiting. */
  applySummary(summary: SummaryResponse): void {
    this.set({ summary, lastUpdateAt: this.opts.now(), error: null });
  }

  private async loadSnapshot(): Promise<void> {
    try {
      const summary = await this.opts.api.get<SummaryResponse>('/pipelines/summary');
      // An event that arrived meanwhile is newer than this snapshot.
      if (this.stopped || (this.state.summary && this.state.lastEventAt !== null)) return;
      this.set({ summary, lastUpdateAt: this.opts.now(), error: null });
    } catch (err) {
      if (!this.stopped && !this.state.summary) this.set({ error: errorMessage(err) });
    }
  }

  private connect(): void {
    if (this.stopped) return;
    const source = this.opts.createEventSource('/api/events/pipelines');
    this.source = source;
    source.onopen = () => {
      if (this.source !== source) return;
      this.attempt = 0;
      this.set({ connection: 'live', retryInMs: null, error: null, lostAt: null });
      this.armWatchdog();
    };
    source.onerror = () => {
      if (this.source !== source) return;
      // We own the retry policy: EventSource's own retry has no back-off.
      this.scheduleReconnect();
    };
    source.addEventListener('pipeline-update', (ev) => {
      if (this.source !== source) return;
      try {
        const summary = JSON.parse(ev.data as string) as SummaryResponse;
        const now = this.opts.now();
        this.attempt = 0;
        this.set({
          summary,
          connection: 'live',
          lastEventAt: now,
          lastUpdateAt: now,
          error: null,
          retryInMs: null,
          lostAt: null,
        });
        this.armWatchdog();
      } catch {
        // A malformed frame is ignored; the next one replaces it.
      }
    });
    for (const name of ['pipeline-failed', 'pipeline-fixed']) {
      source.addEventListener(name, (ev) => {
        if (this.source !== source) return;
        let event: PipelineEvent;
        try {
          event = JSON.parse(ev.data as string) as PipelineEvent;
        } catch {
          return;
        }
        for (const listener of this.eventListeners) listener(event);
      });
    }
    source.addEventListener('failure-signatures', (ev) => {
      if (this.source !== source) return;
      let event: FailureSignaturesEvent;
      try {
        event = JSON.parse(ev.data as string) as FailureSignaturesEvent;
      } catch {
        return;
      }
      for (const listener of this.signatureListeners) listener(event);
    });
    source.addEventListener('pipeline-activity', (ev) => {
      if (this.source !== source) return;
      try {
        this.set({ activity: JSON.parse(ev.data as string) as ActivityResponse });
      } catch {
        // A malformed frame is ignored; the next one replaces it.
      }
    });
    source.addEventListener('heartbeat', () => {
      if (this.source !== source) return;
      this.set({
        connection: 'live',
        lastEventAt: this.opts.now(),
        retryInMs: null,
        lostAt: null,
      });
      this.armWatchdog();
    });
  }

  private armWatchdog(): void {
    if (this.watchdog !== null) this.opts.clearTimer(this.watchdog);
    this.watchdog = this.opts.setTimer(() => {
      this.watchdog = null;
      this.scheduleReconnect();
    }, this.opts.staleAfterMs);
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.source?.close();
    this.source = null;
    if (this.watchdog !== null) this.opts.clearTimer(this.watchdog);
    this.watchdog = null;
    if (this.retryTimer !== null) return;
    const exp = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** this.attempt);
    // Jitter (±20 %) so many windows do not reconnect in lockstep after a restart.
    const delay = Math.round(exp * (0.8 + Math.random() * 0.4));
    this.attempt++;
    this.set({
      connection: 'reconnecting',
      retryInMs: delay,
      // The first failed attempt marks when it was lost; the retries that follow keep that time.
      lostAt: this.state.lostAt ?? this.opts.now(),
    });
    this.retryTimer = this.opts.setTimer(() => {
      this.retryTimer = null;
      // No snapshot fetch here: the hub sends its current summary to every new subscriber.
      this.connect();
    }, delay);
  }
}
