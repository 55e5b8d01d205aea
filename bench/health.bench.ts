// Group-health benchmarks (issue 13): recomputing default-branch health, flaky jobs and duration
// regressions over 90 days of history for a 200-project group, against a bare pass over the same
// records in the same run.
import { computeGroupHealth } from '../server/health/group-health.ts';
import { FIXTURE_NOW, generateHistory } from '../server/history/testing/history-fixtures.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

async function recompute(): Promise<BenchRow[]> {
  const snapshot = generateHistory({
    projects: 200,
    days: 90,
    pipelinesPerDay: 6,
    jobsPerPipeline: 8,
    seed: 13,
  });
  let jobs = 0;
  for (const list of snapshot.jobs.values()) jobs += list.length;
  const input = { snapshot, now: FIXTURE_NOW, windowMs: 7 * 86_400_000, since: '7d' };
  const times: number[] = [];
  const bare: number[] = [];
  let regressions = 0;
  for (let i = 0; i < 7; i++) {
    let started = performance.now();
    const health = computeGroupHealth(input);
    times.push(performance.now() - started);
    regressions = health.regressions.regressions.length;
    // Baseline: touch every pipeline and job once (the least any recompute must do).
    started = performance.now();
    let sum = 0;
    for (const p of snapshot.pipelines) sum += p.duration ?? 0;
    for (const list of snapshot.jobs.values()) for (const j of list) sum += j.duration ?? 0;
    bare.push(performance.now() - started + (sum < 0 ? 1 : 0));
  }
  const ms = medianOf(times.slice(2));
  return [
    {
      name: `health recompute, 200 projects × 90 days (${fmt(snapshot.pipelines.length)} pipelines, ${fmt(jobs)} jobs)`,
      value: `${fmt(ms, 1)} ms (${regressions} regressions)`,
      baseline: `${fmt(medianOf(bare.slice(2)), 1)} ms bare pass over the records`,
      target: '≤ 200 ms',
      ok: ms <= 200,
    },
  ];
}

/** The health suite. */
export const run: BenchSuite = async () => [...(await recompute())];
