import { describe, expect, it } from 'vitest';
import { activityFixture, recentPipeline } from '../testing/fixtures.ts';
import { timelineFromActivity } from './timeline.ts';

const now = new Date('2026-03-10T12:30:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const sum = (t: ReturnType<typeof timelineFromActivity>) =>
  t.buckets.reduce((s, b) => s + b.success + b.failed + b.running + b.other, 0);

describe('timelineFromActivity', () => {
  it('draws one bar per hour for short windows, split by outcome', () => {
    const activity = activityFixture(
      [
        recentPipeline({ created_at: '2026-03-10T12:10:00.000Z', status: 'success' }),
        recentPipeline({ created_at: '2026-03-10T12:20:00.000Z', status: 'failed' }),
        recentPipeline({ created_at: '2026-03-10T11:59:59.000Z', status: 'running' }),
        recentPipeline({ created_at: '2026-03-10T11:00:00.000Z', status: 'canceled' }),
        recentPipeline({ created_at: '2026-03-09T12:00:00.000Z', status: 'success' }), // outside 12h
      ],
      now,
      '12h',
      12 * HOUR,
    );
    const t = timelineFromActivity(activity);
    expect(t.unit).toBe('hour');
    expect(t.daysPerBar).toBe(1);
    expect(t.buckets).toHaveLength(13); // 00:00 … 12:00 UTC
    const last = t.buckets[t.buckets.length - 1]!;
    expect(new Date(last.start).toISOString()).toBe('2026-03-10T12:00:00.000Z');
    expect(last.end - last.start).toBe(HOUR);
    expect([last.success, last.failed, last.running, last.other]).toEqual([1, 1, 0, 0]);
    const prev = t.buckets[t.buckets.length - 2]!;
    expect([prev.success, prev.failed, prev.running, prev.other]).toEqual([0, 0, 1, 1]);
    expect(t.max).toBe(2);
    expect(t.total).toBe(4);
    expect(sum(t)).toBe(4);
  });

  it('draws one bar per day beyond two days and covers the whole window', () => {
    const pipelines = Array.from({ length: 7 * 24 }, (_, i) =>
      recentPipeline({
        created_at: new Date(now.getTime() - i * HOUR).toISOString(),
        status: i % 4 === 0 ? 'failed' : 'success',
      }),
    );
    const t = timelineFromActivity(activityFixture(pipelines, now, '7d', 7 * DAY));
    expect(t.unit).toBe('day');
    expect(t.buckets).toHaveLength(8); // 3 Mar … 10 Mar UTC
    expect(new Date(t.buckets[0]!.start).toISOString()).toBe('2026-03-03T00:00:00.000Z');
    expect(t.total).toBe(7 * 24);
    expect(t.max).toBe(24);
    for (let i = 1; i < t.buckets.length; i++) {
      expect(t.buckets[i]!.start).toBe(t.buckets[i - 1]!.end);
    }
  });

  it('merges days so a long window stays readable, without dropping a pipeline', () => {
    const pipelines = Array.from({ length: 365 }, (_, i) =>
      recentPipeline({ created_at: new Date(now.getTime() - i * DAY).toISOString() }),
    );
    const activity = activityFixture(pipelines, now, '365d', 365 * DAY);
    expect(activity.buckets).toHaveLength(366);
    const t = timelineFromActivity(activity);
    expect(t.buckets.length).toBeLessThanOrEqual(60);
    expect(t.daysPerBar).toBe(7);
    expect(t.buckets[0]!.end - t.buckets[0]!.start).toBe(7 * DAY);
    // The last bar holds the leftover days only.
    const last = t.buckets[t.buckets.length - 1]!;
    expect(last.end).toBe(Date.parse(activity.buckets[365]!.start) + DAY);
    expect(t.total).toBe(365);
    expect(t.max).toBe(7);
  });
});
