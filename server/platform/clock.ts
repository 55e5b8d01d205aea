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

interface ManualTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock tests move by hand; its timers fire in order as `advance` or `set` passes their time. */
export class ManualClock implements Clock {
  private timers: ManualTimer[] = [];
  private seq = 0;
  constructor(private ms: number = Date.parse('2026-11-21T12:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.ms + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  /** Timers not yet fired. */
  get pendingTimers(): number {
    return this.timers.length;
  }
  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    this.set(this.ms + ms);
  }
  /** Sets the time, firing timers due by then in order (each sees the clock at its own time). */
  set(ms: number): void {
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= ms)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.ms = Math.max(this.ms, due.at);
      due.fn();
    }
    this.ms = ms;
  }
}
