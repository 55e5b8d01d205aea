// Triage benchmarks (issue 27): the GitLab requests triage adds to a poll cycle (failed jobs' logs
// for their signatures, the token user's merge request list), and recomputing the failure
// signatures and past fixes over 90 days of a 200-project group's history.
import type { StoredJobSignature } from '../server/history/failure-signatures.ts';
import { FIXTURE_NOW, generateHistory } from '../server/history/testing/history-fixtures.ts';
import { startHarness } from '../server/testing/service-harness.ts';
import { FixIndex } from '../server/triage/past-fixes.ts';
import { signatureReport } from '../server/triage/signature-report.ts';
import { median } from './measure.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const DAY_MS = 86_400_000;

async function recompute(): Promise<BenchRow[]> {
  const snapshot = generateHistory({
    projects: 200,
    days: 90,
    pipelinesPerDay: 6,
    jobsPerPipeline: 8,
    seed: 27,
  });
  // Every failed attempt signed, from 60 errors: a job name fails with a few errors of its own.
  const rows: StoredJobSignature[] = [];
  for (const [pipelineId, jobs] of snapshot.jobs)
    for (const j of jobs)
      if (j.status === 'failed')
        rows.push({
          jobId: j.jobId,
          projectId: j.projectId,
          pipelineId,
          jobName: j.name,
          signature: `test_failure: error ${(j.jobId * 7 + j.name.length) % 60}`,
          sampleLine: 'error',
          category: 'test_failure',
          failedAt: j.finishedAt ?? j.createdAt,
        });
  const names = new Map(snapshot.projects.map((p) => [p.id, p.name]));
  const window = {
    since: '90d',
    from: new Date(FIXTURE_NOW - 90 * DAY_MS).toISOString(),
    to: new Date(FIXTURE_NOW).toISOString(),
  };
  const lastDay = rows.filter((r) => r.failedAt >= FIXTURE_NOW - DAY_MS);
  const cpu: number[] = [];
  const wall: number[] = [];
  const bare: number[] = [];
  let signatures = 0;
  let fixes = 0;
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const report = signatureReport(rows, window, (id) => names.get(id));
    const index = new FixIndex(
      snapshot,
      rows,
      () => undefined,
      () => 'https://gitlab.example',
    );
    fixes = 0;
    for (const r of lastDay)
      fixes += index.fixesFor({
        projectId: r.projectId,
        pipelineId: r.pipelineId,
        signature: r.signature!,
      }).length;
    wall.push(performance.now() - started);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
    signatures = report.signatures.length;
    const bareStart = performance.now();
    let sum = 0;
    for (const p of snapshot.pipelines) sum += p.createdAt;
    for (const r of rows) sum += r.failedAt;
    bare.push(performance.now() - bareStart + (sum < 0 ? 1 : 0));
  }
  const cpuMs = median(cpu.slice(2));
  return [
    {
      name: `signatures + past fixes recompute, 200 projects × 90 days (${fmt(snapshot.pipelines.length)} pipelines, ${fmt(rows.length)} signed failures)`,
      value: `${fmt(cpuMs, 1)} ms CPU (${fmt(median(wall.slice(2)), 1)} ms wall; ${signatures} signatures, ${fmt(fixes)} past fixes for the last day's ${fmt(lastDay.length)} failures)`,
      baseline: `${fmt(median(bare.slice(2)), 1)} ms bare pass over the records`,
      target: '≤ 200 ms CPU',
      ok: cpuMs <= 200,
    },
  ];
}

/** GitLab requests of `kind`-like paths among those recorded since the last reset. */
function triageRequests(urls: readonly string[]) {
  return {
    logs: urls.filter((u) => /\/jobs\/\d+\/trace/.test(u)).length,
    mergeRequests: urls.filter((u) => /\/groups\/[^/]+\/merge_requests/.test(u)).length,
    user: urls.filter((u) => /^\/api\/v4\/user(\?|$)/.test(u)).length,
  };
}

async function requestsPerCycle(): Promise<BenchRow[]> {
  const h = await startHarness({ simulator: { projects: 12, days: 14 } });
  try {
    const { triage, poller } = h.service;
    await h.service.groupHealth.idle();
    await triage.idle();
    // The first load's failed jobs (the backfill), a few log reads per cycle until none is left.
    const backfill: number[] = [];
    for (let i = 0; i < 200; i++) {
      h.simulator.stats.reset();
      await poller.cycleOnce();
      await triage.idle();
      const steady = h.simulator.stats.recent.map((r) => r.url);
      const { logs } = triageRequests(steady);
      if (logs === 0 && triage.recorder.pending().length === 0) break;
      backfill.push(logs);
    }
    // Steady cycles: nothing new failed, so triage reads no log; the MR list at most once a minute.
    await h.api('/api/triage/mine');
    h.simulator.stats.reset();
    const cycles = 10;
    for (let i = 0; i < cycles; i++) {
      await poller.cycleOnce();
      await triage.idle();
    }
    const steady = triageRequests(h.simulator.stats.recent.map((r) => r.url));
    const total = h.simulator.stats.total;
    const extra = steady.logs + steady.mergeRequests + steady.user;
    return [
      {
        name: `triage GitLab requests per poll cycle, 12 projects: backfill (${backfill.length} cycles signing ${fmt(triage.recorder.logsRead)} failed jobs)`,
        value: `≤ ${Math.max(0, ...backfill)} log reads a cycle`,
        baseline: '4 a cycle by design',
        target: '≤ 4 + 1 MR list',
        ok: Math.max(0, ...backfill) <= 4,
      },
      {
        name: `triage GitLab requests per poll cycle, 12 projects: steady (${cycles} cycles)`,
        value: `${fmt(extra / cycles, 2)} extra requests a cycle (${steady.logs} logs, ${steady.mergeRequests} MR lists, ${steady.user} GET /user)`,
        baseline: `${fmt(total / cycles, 1)} requests a cycle in all`,
        target: '≤ 1 a cycle',
        ok: extra / cycles <= 1,
      },
    ];
  } finally {
    await h.close();
  }
}

/** The triage suite. */
export const run: BenchSuite = async () => {
  const rows = await recompute();
  process.stderr.write('recompute done\n');
  return [...rows, ...(await requestsPerCycle())];
};
