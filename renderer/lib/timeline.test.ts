import { describe, expect, it } from 'vitest';
import { projectSummary, recentPipeline } from '../testing/fixtures.ts';
import { bucketTimeline, coverageStart, topContributors } from './timeline.ts';

const now = new Date('2026-03-10T12:30:00.000Z');
const HOUR = 3_600_000;

describe('bucketTimeline', () => {
  it('uses hourly buckets up to two days and splits each by outcome', () => {
    const t = bucketTimeline(
      [
        { created_at: '2026-03-10T12:10:00.000Z', status: 'success' },
        { created_at: '2026-03-10T12:20:00.000Z', status: 'failed' },
        { created_at: '2026-03-10T11:59:59.000Z', status: 'running' },
        { created_at: '2026-03-10T11:00:00.000Z', status: 'canceled' },
        { created_at: '2026-03-09T12:00:00.000Z', status: 'success' }, // outside 12h
      ],
      { now, windowMs: 12 * HOUR },
    );
    expect(t.unit).toBe('hour');
    expect(t.buckets).toHaveLength(13); // 00:00 … 12:00 UTC
    const last = t.buckets[t.buckets.length - 1]!;
    expect(new Date(last.start).toISOString()).toBe('2026-03-10T12:00:00.000Z');
    expect([last.success, last.failed, last.running, last.other]).toEqual([1, 1, 0, 0]);
    const prev = t.buckets[t.buckets.length - 2]!;
    expect([prev.success, prev.failed, prev.running, prev.other]).toEqual([0, 0, 1, 1]);
    expect(t.max).toBe(2);
    expect(t.buckets.reduce((s, b) => s + b.success + b.failed + b.running + b.other, 0)).toBe(4);
  });

  it('uses daily buckets for longer windows and counts every pipeline in the window once', () => {
    const pipelines = Array.from({ length: 7 * 24 }, (_, i) => ({
      created_at: new Date(now.getTime() - i * HOUR).toISOString(),
      status: i % 4 === 0 ? 'failed' : 'success',
    }));
    const t = bucketTimeline(pipelines, { now, windowMs: 7 * 24 * HOUR });
    expect(t.unit).toBe('day');
    expect(t.buckets.length).toBeGreaterThanOrEqual(7);
    expect(t.buckets.length).toBeLessThanOrEqual(8);
    const total = t.buckets.reduce((s, b) => s + b.success + b.failed, 0);
    expect(total).toBe(7 * 24);
    for (let i = 1; i < t.buckets.length; i++) {
      expect(t.buckets[i]!.start).toBe(t.buckets[i - 1]!.end);
    }
  });

  it('merges days so a long window stays readable', () => {
    const t = bucketTimeline([], { now, windowMs: 365 * 24 * HOUR });
    expect(t.buckets.length).toBeLessThanOrEqual(60);
    expect(t.max).toBe(0);
  });
});

describe('topContributors', () => {
  it('ranks users by pipelines and computes their success rate over finished ones', () => {
    const grace = { username: 'grace', name: 'Grace Hopper', avatar_url: 'g.png' };
    const projects = [
      projectSummary(1, [
        recentPipeline({ status: 'success' }),
        recentPipeline({ status: 'failed', user: grace }),
        recentPipeline({ status: 'success', user: grace }),
      ]),
      projectSummary(2, [
        recentPipeline({ status: 'running', user: grace }),
        recentPipeline({ status: 'success', user: null }),
      ]),
    ];
    const top = topContributors(projects);
    expect(top.map((c) => [c.username, c.pipelines, c.successRate])).toEqual([
      ['grace', 3, 50],
      ['ada', 1, 100],
    ]);
  });
});

describe('coverageStart', () => {
  it("starts where the busiest truncated project's recent list ends", () => {
    const windowStart = Date.parse('2026-03-03T12:30:00.000Z');
    const complete = projectSummary(1, [
      recentPipeline({ created_at: '2026-03-04T00:00:00.000Z' }),
    ]);
    expect(coverageStart([complete], windowStart)).toBe(windowStart);
    const truncated = projectSummary(
      2,
      [
        recentPipeline({ created_at: '2026-03-10T11:00:00.000Z' }),
        recentPipeline({ created_at: '2026-03-09T20:00:00.000Z' }),
      ],
      { total_pipelines: 30 },
    );
    expect(new Date(coverageStart([complete, truncated], windowStart)).toISOString()).toBe(
      '2026-03-09T20:00:00.000Z',
    );
  });
});
