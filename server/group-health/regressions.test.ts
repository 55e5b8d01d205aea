import { describe, expect, it } from 'vitest';
import { HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { HealthIndex } from './health-index.ts';
import {
  collectRuns,
  REGRESSION_RULE,
  dailyTrend,
  detectRegression,
  durationRegressions,
  projectTrends,
} from './regressions.ts';

const DAY_MS = 86_400_000;
const HOUR_MIN = 60;

/** One successful pipeline per hour (oldest first) running `build` for the given seconds. */
function runs(durations: number[], b = new HistoryBuilder().project(1, 'api')) {
  const ids = durations.map((seconds, i) =>
    b.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo: (durations.length - i) * HOUR_MIN,
      duration: 600 + seconds,
      commitTitle: `Commit ${i}`,
      jobs: [{ name: 'build', status: 'success', duration: seconds, queued: i % 3 }],
    }),
  );
  const index = new HealthIndex({
    snapshot: b.build(),
    now: b.now,
    windowMs: 90 * DAY_MS,
    since: '90d',
  });
  return { b, ids, index, series: collectRuns(index, 1) };
}

const fast = (n: number) => Array.from({ length: n }, (_, i) => 100 + (i % 5)); // 100..104
const slow = (n: number) => Array.from({ length: n }, (_, i) => 150 + (i % 5)); // 150..154

describe('duration regressions', () => {
  it('flags a job whose last 10 runs have a median ≥ 1.25× the 30 before, naming the first slow run', () => {
    const { ids, index } = runs([...fast(30), ...slow(10)]);
    const report = durationRegressions(index);
    expect(report.rule).toEqual(REGRESSION_RULE);
    const jobs = report.regressions.filter((r) => r.kind === 'job');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      project_name: 'api',
      job_name: 'build',
      recent_median: 152,
      baseline_median: 102,
      ratio: 1.49,
      baseline_runs: 30,
      first_slow: { pipeline_id: ids[30], commit_title: 'Commit 30', duration: 150 },
    });
    // The default-branch pipeline (600 s + the job) grew by 50 s, under 1.25×: no pipeline row.
    expect(report.regressions.filter((r) => r.kind === 'pipeline')).toEqual([]);
  });

  it('finds the first slow run before the recent ten, ignoring an old slow outlier', () => {
    const durations = [...fast(25), ...slow(15)];
    durations[3] = 400; // one slow run long before the change
    durations[33] = 101; // one fast run after it
    const { ids, series } = runs(durations);
    const found = detectRegression(series.jobs.get('build')!)!;
    expect(found.firstSlow.pipeline.pipelineId).toBe(ids[25]);
    expect(found.baselineMedian).toBe(102.5);
  });

  it('stays silent below the ratio, below the absolute increase, and with too few runs', () => {
    const small = (n: number, s: number) => Array.from({ length: n }, () => s);
    expect(durationRegressions(runs([...fast(30), ...small(10, 120)]).index).regressions).toEqual(
      [],
    );
    const tiny = runs([...small(30, 4), ...small(10, 8)]);
    expect(detectRegression(tiny.series.jobs.get('build')!)).toBeNull();
    const few = runs([...fast(9), ...slow(10)]);
    expect(detectRegression(few.series.jobs.get('build')!)).toBeNull();
    const enough = runs([...fast(10), ...slow(10)]);
    expect(detectRegression(enough.series.jobs.get('build')!)?.baselineRuns).toBe(10);
  });

  it('flags a slower default-branch pipeline and ignores failed runs', () => {
    const b = new HistoryBuilder().project(1, 'api');
    for (let i = 0; i < 40; i++)
      b.pipeline({
        projectId: 1,
        status: 'success',
        minutesAgo: 100 - i,
        duration: i < 30 ? 600 : 900,
      });
    b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 1, duration: 10 });
    const index = new HealthIndex({
      snapshot: b.build(),
      now: b.now,
      windowMs: DAY_MS,
      since: '1d',
    });
    const [regression] = durationRegressions(index).regressions;
    expect(regression).toMatchObject({
      kind: 'pipeline',
      job_name: null,
      ratio: 1.5,
      recent_median: 900,
    });
  });

  it('keeps only the newest runs of each job when asked, oldest first', () => {
    const { index, ids } = runs([...fast(30), ...slow(10)]);
    const recent = collectRuns(index, 1, 3).jobs.get('build')!;
    expect(recent.map((r) => r.pipeline.pipelineId)).toEqual(ids.slice(-3));
  });

  it('gives p50/p90 of duration and queue time per UTC day, empty days included', () => {
    const { b, series } = runs([10, 20, 30, 40, 50]);
    // Five runs between 07:00 and 11:00 on 2026-11-21.
    const days = dailyTrend(series.jobs.get('build')!, b.now - DAY_MS, b.now);
    expect(days).toEqual([
      {
        day: '2026-11-20',
        runs: 0,
        duration_p50: null,
        duration_p90: null,
        queued_p50: null,
        queued_p90: null,
      },
      {
        day: '2026-11-21',
        runs: 5,
        duration_p50: 30,
        duration_p90: 50,
        queued_p50: 1,
        queued_p90: 2,
      },
    ]);
  });

  it('builds a project’s trends with each job’s regression', () => {
    const { b, index } = runs([...fast(30), ...slow(10)]);
    const trends = projectTrends(index, 1, b.now - 3 * DAY_MS)!;
    expect(trends.jobs.map((j) => [j.job_name, j.days.length, j.regression?.ratio])).toEqual([
      ['build', 4, 1.49],
    ]);
    expect(trends.pipeline.job_name).toBe('pipeline');
    expect(projectTrends(index, 99, 0)).toBeNull();
  });

  it('says which days the data covers, not the days asked for (issue 30, item 7)', () => {
    // 40 hourly runs up to 2026-11-21T12:00Z: the first at 2026-11-19T20:00Z.
    const { b, index } = runs([...fast(30), ...slow(10)]);
    const trends = projectTrends(index, 1, b.now - 30 * DAY_MS)!;
    expect(trends.pipeline.days).toHaveLength(31);
    expect([trends.data_from, trends.data_to, trends.data_days]).toEqual([
      '2026-11-19',
      '2026-11-21',
      3,
    ]);
    const empty = runs([]);
    expect(projectTrends(empty.index, 1, empty.b.now - 30 * DAY_MS)).toMatchObject({
      data_from: null,
      data_to: null,
      data_days: 0,
    });
  });
});
