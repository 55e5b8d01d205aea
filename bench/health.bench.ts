// Group-health benchmarks (issue 13): recomputing default-branch health, flaky jobs and duration
// regressions over 90 days of history for a 200-project group, against a bare pass over the same
// records in the same run; and a warm restart of a 200-project group against the simulator.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitLabClient } from '../server/gitlab/client.ts';
import { RequestBudget } from '../server/gitlab/request-budget.ts';
import { computeGroupHealth } from '../server/group-health/group-health.ts';
import { openPollerWithHealth } from '../server/group-health/testing/poller-with-health.ts';
import { FIXTURE_NOW, generateHistory } from '../server/history/testing/history-fixtures.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import { median } from './measure.ts';
import { LARGE_GROUP } from './large-group.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

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
  const cpu: number[] = [];
  const bare: number[] = [];
  let regressions = 0;
  for (let i = 0; i < 7; i++) {
    let started = performance.now();
    const cpuBefore = process.cpuUsage();
    const health = computeGroupHealth(input);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    regressions = health.regressions.regressions.length;
    // Baseline: touch every pipeline and job once (the least any recompute must do).
    started = performance.now();
    let sum = 0;
    for (const p of snapshot.pipelines) sum += p.duration ?? 0;
    for (const list of snapshot.jobs.values()) for (const j of list) sum += j.duration ?? 0;
    bare.push(performance.now() - started + (sum < 0 ? 1 : 0));
  }
  const ms = median(times.slice(2));
  // CPU time of this process during the recompute: what a busy machine (other processes on the
  // two cores) does not inflate, unlike the wall time shown next to it.
  const cpuMs = median(cpu.slice(2));
  return [
    {
      name: `health recompute, 200 projects × 90 days (${fmt(snapshot.pipelines.length)} pipelines, ${fmt(jobs)} jobs)`,
      value: `${fmt(cpuMs, 1)} ms CPU (${fmt(ms, 1)} ms wall; ${regressions} regressions)`,
      baseline: `${fmt(median(bare.slice(2)), 1)} ms bare pass over the records`,
      target: '≤ 200 ms CPU',
      ok: cpuMs <= 200,
    },
  ];
}

/** The poller and group health over one data dir, as the service wires them (restart = again). */
function openService(sim: GitLabSimulator, dir: string, budget: RequestBudget) {
  const gitlab = new GitLabClient({
    baseUrl: sim.url,
    token: sim.token,
    logger: silentLogger,
    budget,
  });
  return openPollerWithHealth(gitlab, sim.groupPath, dir);
}

async function warmRestart(): Promise<BenchRow[]> {
  const sim = await startSimulator(LARGE_GROUP);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-bench-history-'));
  const budget = new RequestBudget({ requestsPerMinute: 1e9, maxConcurrency: 12 });
  try {
    const cold = openService(sim, dir, budget);
    await cold.poller.cycleOnce();
    await cold.settle();
    sim.stats.reset();
    await cold.poller.cycleOnce();
    await cold.settle();
    const steady = sim.stats.total;
    await cold.close();

    sim.stats.reset();
    const started = performance.now();
    const warm = openService(sim, dir, budget);
    const firstSummaryMs = performance.now() - started;
    const served = warm.poller.snapshot.summary.total_pipelines;
    await warm.poller.cycleOnce();
    await warm.settle();
    const restartRequests = sim.stats.total;
    await warm.close();
    return [
      {
        name: 'warm restart, 200 projects: first summary after start (from disk)',
        value: `${fmt(firstSummaryMs, 0)} ms (${fmt(served)} pipelines)`,
        baseline: 'cold start needs a full GitLab load',
        target: '≤ 1 s',
        ok: firstSummaryMs <= 1000 && served > 0,
      },
      {
        name: 'warm restart, 200 projects: GitLab requests of the first cycle',
        value: `${fmt(restartRequests)} requests`,
        baseline: `${fmt(steady)} in a steady cycle`,
        target: '≤ steady cycle',
        ok: restartRequests <= steady,
      },
    ];
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The health suite. */
export const run: BenchSuite = async () => [...(await recompute()), ...(await warmRestart())];
