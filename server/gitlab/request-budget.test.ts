import { describe, expect, it } from 'vitest';
import { isAppError } from '../platform/errors.ts';
import { RequestBudget } from './request-budget.ts';
import { VirtualTime } from './testing/virtual-time.ts';

function budget(time: VirtualTime, perMinute = 2000, maxConcurrency = 6): RequestBudget {
  return new RequestBudget({
    requestsPerMinute: perMinute,
    maxConcurrency,
    host: 'https://gitlab.test',
    clock: time.clock,
    sleep: time.sleep,
  });
}

/** Largest number of starts inside any 60-second window. */
function busiestMinute(starts: number[]): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= 60_000) from++;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

describe('RequestBudget', () => {
  it('never starts more than 90% of the per-minute limit in any minute, without idling early', async () => {
    const time = new VirtualTime();
    const b = budget(time, 50, 4); // cap 45/min
    expect(b.perMinuteCap).toBe(45);
    const starts: number[] = [];
    const t0 = time.clock.now();
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        const release = await b.acquire();
        starts.push(time.clock.now());
        await time.sleep(100); // the request takes 100 ms of virtual time
        release();
      }),
    );
    expect(starts).toHaveLength(200);
    expect(busiestMinute(starts)).toBe(45);
    // The first 45 go out at once (4 at a time, 100 ms each), not trickled.
    expect(starts.filter((s) => s - t0 < 60_000)).toHaveLength(45);
    // 200 requests at 45/min need at least four full windows.
    expect(Math.max(...starts) - t0).toBeGreaterThanOrEqual(4 * 60_000);
  });

  it('bounds concurrency and hands slots over first come, first served', async () => {
    const time = new VirtualTime();
    const b = budget(time, 2000, 2);
    const first = await b.acquire();
    await b.acquire();
    const order: number[] = [];
    const third = b.acquire().then((r) => (order.push(3), r));
    const fourth = b.acquire().then((r) => (order.push(4), r));
    await new Promise((r) => setImmediate(r));
    expect(b.inFlight).toBe(2);
    expect(order).toEqual([]);
    first();
    first(); // releasing twice must not free a second slot
    (await third)();
    expect(order).toEqual([3]);
    await fourth;
    expect(order).toEqual([3, 4]);
    expect(b.inFlight).toBe(2);
  });

  it('pauses every caller of the host for a Retry-After', async () => {
    const time = new VirtualTime();
    const b = budget(time);
    const t0 = time.clock.now();
    b.pauseFor(5_000);
    const starts = await Promise.all(
      [1, 2, 3].map(async () => {
        const release = await b.acquire();
        release();
        return time.clock.now() - t0;
      }),
    );
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(5_000);
    expect(b.pauseRemainingMs()).toBe(0);
  });

  it('fails fast with retryAfterMs when the pause is longer than the caller will wait', async () => {
    const time = new VirtualTime();
    const b = budget(time);
    b.pauseFor(300_000);
    const err = await b.acquire({ maxPauseMs: 60_000 }).catch((e: unknown) => e);
    expect(isAppError(err, 'upstream_unavailable')).toBe(true);
    expect((err as { retryAfterMs: number }).retryAfterMs).toBe(300_000);
    expect((err as Error).message).toContain('https://gitlab.test');
    expect(b.inFlight).toBe(0);
  });

  it('spreads the remaining requests until the reset when RateLimit-Remaining runs low', async () => {
    const time = new VirtualTime();
    const b = budget(time);
    const now = time.clock.now();
    b.observe({
      'ratelimit-remaining': '4',
      'ratelimit-reset': String(now / 1000 + 8),
      'ratelimit-limit': '2000',
      date: new Date(now).toUTCString(),
    });
    const starts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const release = await b.acquire();
      starts.push(time.clock.now() - now);
      release();
    }
    expect(starts).toEqual([0, 2_000, 4_000, 6_000]);
  });

  it('does not slow down while plenty remain, and waits for the reset when none remain', async () => {
    const time = new VirtualTime();
    const b = budget(time);
    const now = time.clock.now();
    const date = new Date(now).toUTCString();
    b.observe({ 'ratelimit-remaining': '1500', 'ratelimit-reset': '30', date });
    for (let i = 0; i < 5; i++) (await b.acquire())();
    expect(time.clock.now()).toBe(now);
    b.observe({ 'ratelimit-remaining': '0', 'ratelimit-reset': '12', date });
    (await b.acquire())();
    expect(time.clock.now() - now).toBe(12_000);
  });

  it('cancels a wait for the pause or for a slot when the signal aborts', async () => {
    const time = new VirtualTime({ auto: false });
    const b = budget(time, 2000, 1);
    b.pauseFor(30_000);
    const paused = new AbortController();
    const waiting = b.acquire({ signal: paused.signal });
    await new Promise((r) => setImmediate(r));
    expect(time.pending).toBe(1);
    paused.abort(new Error('user navigated away'));
    await expect(waiting).rejects.toThrow('user navigated away');
    expect(time.pending).toBe(0);
    expect(b.inFlight).toBe(0);

    time.advance(30_000);
    const holder = await b.acquire();
    const queued = new AbortController();
    const inQueue = b.acquire({ signal: queued.signal });
    queued.abort();
    await expect(inQueue).rejects.toMatchObject({ name: 'AbortError' });
    holder();
    expect(b.inFlight).toBe(0); // the aborted waiter did not keep the slot
  });

  it('shares one budget per host and credential kind, sized by GitLab limits', () => {
    const a = RequestBudget.forHost('https://shared.test', { authenticated: true });
    const b = RequestBudget.forHost('https://shared.test', { authenticated: true });
    const anonymous = RequestBudget.forHost('https://shared.test', { authenticated: false });
    expect(a).toBe(b);
    expect(anonymous).not.toBe(a);
    expect(a.perMinuteCap).toBe(1800);
    expect(anonymous.perMinuteCap).toBe(270);
  });
});

describe('what is left of the budget (metrics)', () => {
  it('counts the requests started in the last minute against our own cap', async () => {
    const time = new VirtualTime();
    const b = budget(time, 100);
    expect(b.remainingInWindow()).toBe(90);
    for (let i = 0; i < 5; i++) (await b.acquire())();
    expect(b.remainingInWindow()).toBe(85);
    await time.sleep(60_001);
    expect(b.remainingInWindow()).toBe(90);
  });

  it("remembers GitLab's last RateLimit-Remaining, null until one arrived", () => {
    const time = new VirtualTime();
    const b = budget(time);
    expect(b.lastRateLimitRemaining).toBeNull();
    const date = new Date(time.clock.now()).toUTCString();
    b.observe({ 'ratelimit-remaining': '1234', 'ratelimit-reset': '30', date });
    expect(b.lastRateLimitRemaining).toBe(1234);
    b.observe({ date });
    expect(b.lastRateLimitRemaining).toBe(1234);
  });
});
