import { describe, expect, it } from 'vitest';
import type { ActivityResponse } from '../../server/contract.ts';
import { ManualTimers } from '../testing/fake-event-source.ts';
import { ActivityLoader } from './activity.ts';

function activity(total: number): ActivityResponse {
  return {
    since: '7d',
    bucket: 'day',
    buckets: [
      { start: '2026-03-10T00:00:00.000Z', success: total, failed: 0, running: 0, other: 0 },
    ],
    contributors: [],
  };
}

/** A loader whose requests the test answers one by one, on a clock the test moves. */
function setup() {
  const timers = new ManualTimers();
  const requests: { resolve: (a: ActivityResponse) => void; reject: (e: Error) => void }[] = [];
  let clock = 1_000_000;
  let visible = true;
  const loader = new ActivityLoader({
    load: () => new Promise((resolve, reject) => requests.push({ resolve, reject })),
    minIntervalMs: 5_000,
    now: () => clock,
    setTimer: timers.set,
    clearTimer: timers.clear,
    isVisible: () => visible,
  });
  return {
    loader,
    timers,
    requests,
    advance: (ms: number) => (clock += ms),
    setVisible: (v: boolean) => (visible = v),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('ActivityLoader', () => {
  it('loads on start and shows the answer', async () => {
    const t = setup();
    t.loader.start();
    expect(t.requests).toHaveLength(1);
    expect(t.loader.getState().loading).toBe(true);
    t.requests[0]!.resolve(activity(3));
    await settle();
    expect(t.loader.getState()).toMatchObject({ loading: false, error: null });
    expect(t.loader.getState().activity?.buckets[0]!.success).toBe(3);
  });

  it('reloads at most once per interval however many updates arrive, keeping the last', async () => {
    const t = setup();
    t.loader.start();
    t.requests[0]!.resolve(activity(1));
    await settle();
    t.advance(1_000);
    for (let i = 0; i < 10; i++) t.loader.invalidate();
    expect(t.requests).toHaveLength(1);
    expect(t.timers.delays()).toEqual([4_000]);
    t.advance(4_000);
    t.timers.fireShortest();
    expect(t.requests).toHaveLength(2);
    // Updates during that load are not lost: one more load follows, again throttled.
    t.loader.invalidate();
    t.advance(500);
    t.requests[1]!.resolve(activity(2));
    await settle();
    expect(t.timers.delays()).toEqual([4_500]);
    t.advance(4_500);
    t.timers.fireShortest();
    expect(t.requests).toHaveLength(3);
  });

  it('loads at once when the last load is older than the interval', async () => {
    const t = setup();
    t.loader.start();
    t.requests[0]!.resolve(activity(1));
    await settle();
    t.advance(60_000);
    t.loader.invalidate();
    expect(t.requests).toHaveLength(2);
  });

  it('does not load while the page is hidden, and catches up once when shown', async () => {
    const t = setup();
    t.loader.start();
    t.requests[0]!.resolve(activity(1));
    await settle();
    t.setVisible(false);
    t.advance(60_000);
    t.loader.invalidate();
    t.loader.invalidate();
    t.loader.visibilityChanged();
    expect(t.requests).toHaveLength(1);
    expect(t.timers.delays()).toEqual([]);
    t.setVisible(true);
    t.loader.visibilityChanged();
    expect(t.requests).toHaveLength(2);
    t.requests[1]!.resolve(activity(1));
    await settle();
    // Nothing new arrived meanwhile: showing the page again costs nothing.
    t.loader.visibilityChanged();
    expect(t.requests).toHaveLength(2);
  });

  it('keeps the last activity on a failed reload and says why', async () => {
    const t = setup();
    t.loader.start();
    t.requests[0]!.resolve(activity(5));
    await settle();
    t.advance(10_000);
    t.loader.invalidate();
    t.requests[1]!.reject(new Error('Cannot reach the Pipeline Summary service'));
    await settle();
    expect(t.loader.getState().error).toBe('Cannot reach the Pipeline Summary service');
    expect(t.loader.getState().activity?.buckets[0]!.success).toBe(5);
    t.loader.reload();
    expect(t.requests).toHaveLength(3);
  });

  it('stops loading when stopped', async () => {
    const t = setup();
    t.loader.start();
    t.loader.stop();
    t.requests[0]!.resolve(activity(1));
    await settle();
    expect(t.loader.getState().activity).toBeNull();
    t.advance(10_000);
    t.loader.invalidate();
    expect(t.requests).toHaveLength(1);
    // Started again (a remount): loads again.
    t.loader.start();
    expect(t.requests).toHaveLength(2);
  });
});
