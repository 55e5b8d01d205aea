/** The clock edge: injected everywhere time matters so tests can fix or advance it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.parse('2026-11-21T12:00:00Z')) {}
  now(): number {
    return this.ms;
  }
  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.ms += ms;
  }
  /** Sets the time. */
  set(ms: number): void {
    this.ms = ms;
  }
}
