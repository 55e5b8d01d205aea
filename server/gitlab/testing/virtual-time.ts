import { ManualClock } from '../../platform/clock.ts';
import type { Sleep } from '../request-budget.ts';

interface Timer {
  wakeAt: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock plus a `sleep` for tests, so waits of minutes take no real time. In `auto` mode (default)
 * pending sleeps fire one at a time in wake-up order, each moving the clock to its wake-up time; with
 * `auto: false` they fire only when the test calls `advance`. Every requested wait is recorded.
 * `holdWhile` keeps virtual time still while real work (e.g. HTTP in flight) is under way, so that a
 * server stamping requests with this clock sees them at the virtual time they were sent.
 */
export class VirtualTime {
  readonly clock: ManualClock;
  /** Every duration passed to `sleep`, in call order. */
  readonly sleeps: number[] = [];
  private readonly auto: boolean;
  private timers: Timer[] = [];
  private seq = 0;
  private pumping = false;
  private readonly holdWhile: () => boolean;

  constructor(options: { auto?: boolean; start?: number; holdWhile?: () => boolean } = {}) {
    this.auto = options.auto ?? true;
    this.holdWhile = options.holdWhile ?? (() => false);
    this.clock = new ManualClock(options.start);
  }

  /** The injectable sleep. */
  readonly sleep: Sleep = (ms, signal) => {
    this.sleeps.push(ms);
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer: Timer = {
        wakeAt: this.clock.now() + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
      if (this.auto) this.schedulePump();
    });
  };

  /** Sleeps not yet woken. */
  get pending(): number {
    return this.timers.length;
  }

  /** Moves the clock forward by `ms`, waking every sleep due by then (manual mode). */
  advance(ms: number): void {
    const until = this.clock.now() + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.wakeAt > until) break;
      this.fire(next);
    }
    this.clock.set(until);
  }

  private schedulePump(): void {
    if (this.pumping) return;
    this.pumping = true;
    // setImmediate lets I/O callbacks and microtasks of the woken caller run between wake-ups.
    setImmediate(() => {
      this.pumping = false;
      if (this.holdWhile()) {
        setTimeout(() => this.schedulePump(), 1);
        return;
      }
      const next = this.earliest();
      if (!next) return;
      this.fire(next);
      if (this.timers.length > 0) this.schedulePump();
    });
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers) {
      if (!best || t.wakeAt < best.wakeAt || (t.wakeAt === best.wakeAt && t.seq < best.seq))
        best = t;
    }
    return best;
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((t) => t !== timer);
    if (this.clock.now() < timer.wakeAt) this.clock.set(timer.wakeAt);
    timer.resolve();
  }
}
