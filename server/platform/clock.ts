/** The clock edge: injected everywhere time matters so tests can fix or advance it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Calls `fn` once `ms` have passed on this clock; returns a function that cancels it. Optional so
   * a bare `{ now }` still is a clock; code that needs timers falls back to `systemClock.after`.
   */
  after?(ms: number, fn: () => void): () => void;
}

/** The real wall clock. */
export const systemClock: Clock & Required<Pick<Clock, 'after'>> = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** A clock tests move by hand; its timers fire when `advance` or `set` passes their time. */
export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void }[] = [];
  constructor(private ms: number = Date.parse('2026-11-21T12:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.ms + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.set(this.ms + ms);
  }
  /** Sets the time. */
  set(ms: number): void {
    this.ms = ms;
    const due = this.timers.filter((t) => t.at <= ms).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((t) => t.at > ms);
    for (const t of due) t.fn();
  }
}
