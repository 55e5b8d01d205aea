import type { ActivityResponse } from '../../server/contract.ts';
import { errorMessage } from './client.ts';
import { ExternalStore } from '../lib/external-store.ts';

/** What the overview shows of GET /api/pipelines/activity. */
export interface ActivityState {
  activity: ActivityResponse | null;
  /** Why the last load failed, or null. The last good activity stays shown meanwhile. */
  error: string | null;
  loading: boolean;
}

/** Edges of the loader, injected so tests drive time and visibility. */
export interface ActivityLoaderOptions {
  load: (signal: AbortSignal) => Promise<ActivityResponse>;
  /** At most one load per this many milliseconds, however fast updates arrive. */
  minIntervalMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Whether the page is visible; hidden pages only remember that they are out of date. */
  isVisible?: () => boolean;
}

/**
 * Keeps the overview's activity (timeline and contributors over the whole window) fresh. The
 * activity is recomputed from every pipeline on each request, so instead of on every live update it
 * is loaded at most once per `minIntervalMs` (the last update in a burst is never lost), and not at
 * all while the page is hidden: a hidden page reloads once when it is shown again.
 */
export class ActivityLoader extends ExternalStore<ActivityState> {
  private readonly opts: Required<ActivityLoaderOptions>;
  private controller: AbortController | null = null;
  private timer: unknown = null;
  private lastLoadAt = -Infinity;
  /** An update arrived that the current (or no) activity does not reflect yet. */
  private stale = false;
  private stopped = true;

  constructor(options: ActivityLoaderOptions) {
    super({ activity: null, error: null, loading: false });
    this.opts = {
      minIntervalMs: 5_000,
      now: () => Date.now(),
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      isVisible: () => typeof document === 'undefined' || document.visibilityState !== 'hidden',
      ...options,
    };
  }

  /** Loads at once (first paint) and starts honouring `invalidate()`. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stale = true;
    this.load();
  }

  /** Cancels the load in flight and any pending one. */
  stop(): void {
    this.stopped = true;
    this.controller?.abort();
    this.controller = null;
    if (this.timer !== null) this.opts.clearTimer(this.timer);
    this.timer = null;
    if (this.state.loading) this.set({ loading: false });
  }

  /** The pipelines changed (a `pipeline-update`): load again, throttled. */
  invalidate(): void {
    if (this.stopped) return;
    this.stale = true;
    this.schedule();
  }

  /** The page was shown or hidden; call on `visibilitychange`. */
  visibilityChanged(): void {
    if (!this.stopped && this.stale) this.schedule();
  }

  /** Loads now (the retry button), ignoring the throttle. */
  reload(): void {
    if (this.stopped) return;
    this.stale = true;
    if (this.timer !== null) this.opts.clearTimer(this.timer);
    this.timer = null;
    this.controller?.abort();
    this.controller = null;
    this.load();
  }

  private schedule(): void {
    // A load in flight re-schedules itself when it ends; a timer already covers this update.
    if (this.controller || this.timer !== null || !this.opts.isVisible()) return;
    const wait = this.lastLoadAt + this.opts.minIntervalMs - this.opts.now();
    if (wait <= 0) {
      this.load();
      return;
    }
    this.timer = this.opts.setTimer(() => {
      this.timer = null;
      this.schedule();
    }, wait);
  }

  private load(): void {
    const controller = new AbortController();
    this.controller = controller;
    this.lastLoadAt = this.opts.now();
    this.stale = false;
    this.set({ loading: true });
    this.opts.load(controller.signal).then(
      (activity) => {
        if (this.controller !== controller) return;
        this.controller = null;
        this.set({ activity, error: null, loading: false });
        if (this.stale) this.schedule();
      },
      (err: unknown) => {
        if (this.controller !== controller) return;
        this.controller = null;
        this.set({ error: errorMessage(err), loading: false });
        if (this.stale) this.schedule();
      },
    );
  }
}
