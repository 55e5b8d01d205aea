import { describe, expect, it } from 'vitest';
import { bucketSizeFor, computeActivity } from './activity.ts';
import { aPipeline } from './testing/factories.ts';

const NOW = Date.parse('2026-11-21T12:30:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('computeActivity', () => {
  it('buckets every pipeline in the window by hour for short windows, by outcome', () => {
    const activity = computeActivity(
      [
        aPipeline({ createdAt: NOW - 10 * 60_000, status: 'success' }),
        aPipeline({ createdAt: NOW - 20 * 60_000, status: 'failed' }),
        aPipeline({ createdAt: NOW - 2 * HOUR, status: 'running' }),
        aPipeline({ createdAt: NOW - 2 * HOUR, status: 'canceled' }),
        aPipeline({ createdAt: NOW - 25 * HOUR, status: 'success' }), // outside 1d
      ],
      NOW,
      DAY,
      '1d',
    );
    expect(activity.bucket).toBe('hour');
    expect(activity.buckets).toHaveLength(25); // 11:00 yesterday … 12:00 today
    expect(activity.buckets.at(-1)).toEqual({
      start: '2026-11-21T12:00:00.000Z',
      success: 1,
      failed: 1,
      running: 0,
      other: 0,
    });
    expect(activity.buckets.at(-3)).toMatchObject({
      start: '2026-11-21T10:00:00.000Z',
      running: 1,
      other: 1,
    });
    const total = activity.buckets.reduce(
      (n, b) => n + b.success + b.failed + b.running + b.other,
      0,
    );
    expect(total).toBe(4);
  });

  it('uses daily buckets beyond two days and ranks contributors by pipelines', () => {
    expect(bucketSizeFor(2 * DAY)).toBe(HOUR);
    expect(bucketSizeFor(7 * DAY)).toBe(DAY);
    const grace = { id: 2, username: 'grace', name: 'Grace Hopper', avatarUrl: 'g.png' };
    const activity = computeActivity(
      [
        aPipeline({ createdAt: NOW - 6 * DAY, status: 'failed', user: grace }),
        aPipeline({ createdAt: NOW - 5 * DAY, status: 'success', user: grace }),
        aPipeline({ createdAt: NOW - 4 * DAY, status: 'success', user: grace }),
        aPipeline({ createdAt: NOW - DAY, status: 'success' }),
        aPipeline({ createdAt: NOW - DAY, status: 'success', user: null }),
      ],
      NOW,
      7 * DAY,
      '7d',
    );
    expect(activity.bucket).toBe('day');
    expect(activity.buckets).toHaveLength(8);
    expect(activity.contributors.map((c) => [c.username, c.pipelines, c.success_rate])).toEqual([
      ['grace', 3, 66.7],
      ['ada', 1, 100],
    ]);
  });
});
