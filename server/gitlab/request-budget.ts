/**
 * The request budget of one GitLab host: every request to that host, from every caller in the
 * process, passes through it. It keeps us under GitLab's published limits (2000 requests/min per user
 * with a token, 300/min per IP without), bounds concurrency, spreads requests when GitLab's
 * `RateLimit-Remaining` runs low, and pauses the whole host when GitLab says `Retry-After`.
 */
import type { Clock } from '../platform/clock.ts';
import { systemClock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { headerValue, parseRateLimit, serverNow, type HeaderBag } from './rate-limit-headers.ts';
import { sleep } from '../platform/sleep.ts';

/** Waits `ms`; rejects with `signal.reason` as soon as the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Frees the concurrency slot taken by `acquire` (idempotent). */
export type ReleaseSlot = () => void;

/** GitLab.com's published limits, requests per minute. */
export const GITLAB_LIMITS = { authenticated: 2000, unauthenticated: 300 } as const;

/** The real, abortable sleep. */
export const realSleep: Sleep = sleep;

/** How a RequestBudget is sized and driven. */
export interface RequestBudgetOptions {
  /** The host's limit, requests per minute (e.g. GITLAB_LIMITS.authenticated). */
  requestsPerMinute: number;
  /** Fraction of the limit we allow ourselves (default 0.9), for other tools sharing the token. */
  headroom?: number;
  /** Requests in flight at once (default 6). */
  maxConcurrency?: number;
  /** Names the host in error messages, e.g. `https://gitlab.example.com`. */
  host?: string;
  clock?: Clock;
  sleep?: Sleep;
}

/** Options of one `acquire`. */
export interface AcquireOptions {
  signal?: AbortSignal;
  /**
   * A host pause longer than this is not waited out: `acquire` fails at once with
   * `upstream_unavailable` carrying `retryAfterMs`, so a user request does not hang for minutes.
   */
  maxPauseMs?: number;
}

const WINDOW_MS = 60_000;
// RateLimit-* windows are one minute on GitLab; a header claiming a longer wait is treated as a
// minute so a bogus value cannot stall the service (a real 429 still brings its own Retry-After).
const MAX_HEADER_WAIT_MS = WINDOW_MS;

interface SlotWaiter {
  grant: () => void;
  onAbort: () => void;
}

const registry = new Map<string, RequestBudget>();

/** One GitLab host's shared rate and concurrency budget. */
export class RequestBudget {
  /**
   * The process-wide budget for `origin` (one for authenticated and one for anonymous use). The
   * first caller's concurrency, clock and sleep size it; later callers share it as is.
   */
  static forHost(
    origin: string,
    options: { authenticated: boolean; maxConcurrency?: number; clock?: Clock; sleep?: Sleep },
  ): RequestBudget {
    const key = `${origin} ${options.authenticated ? 'token' : 'anonymous'}`;
    let budget = registry.get(key);
    if (!budget) {
      budget = new RequestBudget({
        requestsPerMinute: options.authenticated
          ? GITLAB_LIMITS.authenticated
          : GITLAB_LIMITS.unauthenticated,
        maxConcurrency: options.maxConcurrency,
        host: origin,
        clock: options.clock,
        sleep: options.sleep,
      });
      registry.set(key, budget);
    }
    return budget;
  }

  /** Requests we allow ourselves in any 60-second window. */
  readonly perMinuteCap: number;
  /** Requests in flight at once. */
  readonly maxConcurrency: number;
  readonly host: string;
  private readonly clock: Clock;
  private readonly sleep: Sleep;

  // Start times of the last `perMinuteCap` requests, as a ring: the slot we overwrite next is the
  // oldest, so "is the window full" is one comparison.
  private readonly starts: number[] = [];
  private nextSlot = 0;
  private active = 0;
  private readonly waiters: SlotWaiter[] = [];
  private pausedUntil = 0;
  private spreadUntil = 0;
  private spreadIntervalMs = 0;
  private lastStart = Number.NEGATIVE_INFINITY;
  private gitlabRemaining: number | null = null;

  constructor(options: RequestBudgetOptions) {
    const headroom = options.headroom ?? 0.9;
    this.perMinuteCap = Math.max(1, Math.floor(options.requestsPerMinute * headroom));
    this.maxConcurrency = Math.max(1, options.maxConcurrency ?? 6);
    this.host = options.host ?? 'GitLab';
    this.clock = options.clock ?? systemClock;
    this.sleep = options.sleep ?? realSleep;
  }

  /** Requests currently holding a slot (in flight or about to start). */
  get inFlight(): number {
    return this.active;
  }

  /** Requests this budget still allows in the current 60-second window (metrics). */
  remainingInWindow(): number {
    const since = this.clock.now() - WINDOW_MS;
    let recent = 0;
    for (const start of this.starts) if (start > since) recent++;
    return this.perMinuteCap - recent;
  }

  /** GitLab's last `RateLimit-Remaining` for this host, or null until GitLab sent one (metrics). */
  get lastRateLimitRemaining(): number | null {
    return this.gitlabRemaining;
  }

  /** Milliseconds until the host pause (Retry-After, exhausted RateLimit-Remaining) ends; 0 if none. */
  pauseRemainingMs(): number {
    return Math.max(0, this.pausedUntil - this.clock.now());
  }

  /**
   * Waits for a concurrency slot and for the rate budget, then counts one request as started.
   * Call the returned function when the response is complete. Rejects with `signal.reason` on abort.
   */
  async acquire(options: AcquireOptions = {}): Promise<ReleaseSlot> {
    const { signal } = options;
    signal?.throwIfAborted();
    this.checkPause(options.maxPauseMs);
    await this.takeSlot(signal);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.giveSlot();
    };
    try {
      for (;;) {
        this.checkPause(options.maxPauseMs);
        const wait = this.delayBeforeStart(this.clock.now());
        if (wait <= 0) break;
        await this.sleep(wait, signal);
        signal?.throwIfAborted();
      }
    } catch (err) {
      release();
      throw err;
    }
    // Check and record happen in one synchronous step, so callers woken together cannot all pass.
    this.recordStart(this.clock.now());
    return release;
  }

  /** Stops every request to this host from starting for `ms` (GitLab's Retry-After). */
  pauseFor(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Ends a host pause now (settings changed: the next request re-probes GitLab). */
  clearPause(): void {
    this.pausedUntil = 0;
    this.spreadUntil = 0;
  }

  /**
   * Adapts to GitLab's `RateLimit-Remaining`/`RateLimit-Reset`: when few requests are left in the
   * server's window, the rest are spread evenly until it resets; when none are left, the host waits.
   */
  observe(headers: HeaderBag): void {
    // Without RateLimit-Remaining there is nothing to adapt to (parseRateLimit says so too): spare
    // parsing the server's Date, which every answer carries.
    if (headerValue(headers, 'ratelimit-remaining') === undefined) return;
    const now = this.clock.now();
    const state = parseRateLimit(headers, serverNow(headers, now));
    if (!state) return;
    this.gitlabRemaining = state.remaining;
    const resetInMs = Math.min(state.resetInMs, MAX_HEADER_WAIT_MS);
    if (state.remaining === 0) {
      this.pauseFor(resetInMs);
      return;
    }
    const limit = state.limit ?? this.perMinuteCap;
    const lowWatermark = Math.max(this.maxConcurrency, Math.ceil(limit * 0.1));
    if (state.remaining <= lowWatermark && resetInMs > 0) {
      this.spreadUntil = now + resetInMs;
      this.spreadIntervalMs = resetInMs / state.remaining;
    } else {
      this.spreadUntil = 0;
      this.spreadIntervalMs = 0;
    }
  }

  private checkPause(maxPauseMs: number | undefined): void {
    const remaining = this.pauseRemainingMs();
    if (maxPauseMs !== undefined && remaining > maxPauseMs) {
      const seconds = Math.ceil(remaining / 1000);
      throw new AppError(
        'upstream_unavailable',
        `GitLab at ${this.host} is rate limiting us and asked to wait ${seconds}s; try again later`,
        { retryAfterMs: remaining },
      );
    }
  }

  private delayBeforeStart(now: number): number {
    let wait = this.pausedUntil - now;
    if (this.starts.length >= this.perMinuteCap) {
      wait = Math.max(wait, this.starts[this.nextSlot]! + WINDOW_MS - now);
    }
    if (this.spreadUntil > now) {
      wait = Math.max(
        wait,
        Math.min(this.lastStart + this.spreadIntervalMs, this.spreadUntil) - now,
      );
    }
    return wait;
  }

  private recordStart(now: number): void {
    if (this.starts.length < this.perMinuteCap) this.starts.push(now);
    else this.starts[this.nextSlot] = now;
    this.nextSlot = (this.nextSlot + 1) % this.perMinuteCap;
    this.lastStart = now;
  }

  private takeSlot(signal: AbortSignal | undefined): Promise<void> {
    if (this.active < this.maxConcurrency && this.waiters.length === 0) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: SlotWaiter = {
        grant: () => {
          signal?.removeEventListener('abort', waiter.onAbort);
          resolve();
        },
        onAbort: () => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private giveSlot(): void {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter, so `active` does not change.
    if (next) next.grant();
    else this.active -= 1;
  }
}
