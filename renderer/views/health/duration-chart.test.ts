import { describe, expect, it } from 'vitest';
import { dateTicks, dayLabel, durationTicks } from './duration-chart.tsx';

describe('the durations chart axes', () => {
  it('ticks durations in whole units from 0 to at least the highest p90', () => {
    expect(durationTicks(45)).toEqual([0, 15, 30, 45]);
    expect(durationTicks(100)).toEqual([0, 60, 120]);
    expect(durationTicks(1_190)).toEqual([0, 600, 1200]);
    expect(durationTicks(1)).toEqual([0, 1]);
    expect(durationTicks(40_000)).toEqual([0, 14_400, 28_800, 43_200]);
  });

  it('labels dates at least 70 px apart, first and last day always', () => {
    // 7 days over 340 px: 56.7 px a day → every 2nd day.
    expect([...dateTicks(7, 340 / 6)]).toEqual([0, 2, 4, 6]);
    // 8 days: the 7th (index 6) would sit 57 px from the last, so the last takes its place.
    expect([...dateTicks(8, 340 / 6)]).toEqual([0, 2, 4, 7]);
    expect([...dateTicks(7, 100)]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect([...dateTicks(30, 10)]).toEqual([0, 7, 14, 21, 29]);
    expect([...dateTicks(2, 5)]).toEqual([0, 1]);
    expect([...dateTicks(1, 0)]).toEqual([0]);
    expect(dayLabel('2026-11-28')).toBe('28 Nov');
  });
});
