// Test-report benchmarks (issue 26): what reading JUnit reports costs GitLab per pipeline with a
// report, in a 200-project group whose reports hold 2,000 tests each; and recomputing the failing
// and flaky tests over 90 days of stored test history for 200 projects.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitLabClient } from '../server/gitlab/client.ts';
import { RequestBudget } from '../server/gitlab/request-budget.ts';
import { openPollerWithHealth } from '../server/group-health/testing/poller-with-health.ts';
import { systemClock } from '../server/platform/clock.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { startSimulator } from '../server/simulator/index.ts';
import type { TestReportRecorder } from '../server/test-reports/recorder.ts';
import type { TestReportStore, TestRun, TestRunsSnapshot } from '../server/test-reports/store.ts';
import { TestReportService } from '../server/test-reports/test-report-service.ts';
import { LARGE_GROUP } from './large-group.ts';
import { median } from './measure.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function requestsPerPipeline(): Promise<BenchRow[]> {
  // Projects without test jobs report nothing anyway; of those with, a share keeps reports so that
  // about 30 % of the pipelines carry them.
  const sim = await startSimulator({
    ...LARGE_GROUP,
    latencyMs: 0,
    testsPerReport: 2_000,
    testReportShare: 0.35,
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-bench-tests-'));
  try {
    const gitlab = new GitLabClient({
      baseUrl: sim.url,
      token: sim.token,
      logger: silentLogger,
      budget: new RequestBudget({ requestsPerMinute: 1e9, maxConcurrency: 12 }),
    });
    const service = openPollerWithHealth(gitlab, sim.groupPath, dir);
    await service.poller.cycleOnce();
    await service.settle();
    const finished = service.poller.snapshot.summary.total_pipelines;
    const counted = { ...service.group.testReports.recorder.requests };
    // The simulator's count agrees with the recorder's: nothing else reads reports.
    const rest = sim.stats.byKind['test-report-summary'];
    const reports = sim.stats.byKind['test-report'];
    await service.close();
    const { summaryQueries, summarised } = counted;
    const requests = rest + summaryQueries + reports;
    const perPipeline = requests / Math.max(1, summarised);
    return [
      {
        name: `test reports, 200 projects: GitLab requests per pipeline with reports (2,000 tests each; ${fmt((summarised / Math.max(1, finished)) * 100)} % of ${fmt(finished)} pipelines)`,
        value: `${fmt(perPipeline, 2)} requests (${fmt(summaryQueries)} GraphQL queries for ${fmt(summarised)} summaries, ${fmt(rest)} over REST, ${fmt(reports)} full reports)`,
        baseline: `${fmt((summarised + reports) / Math.max(1, summarised), 2)} with one REST summary request each`,
        target: '≤ 0.5 per pipeline',
        ok:
          perPipeline <= 0.5 &&
          summarised > 0 &&
          rest === counted.summaries &&
          reports === counted.reports,
      },
    ];
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 90 days of test history for 200 projects: 6 pipelines a day, 30 % with reports, failures. */
export function history(): TestRunsSnapshot {
  const now = Date.parse('2026-11-21T12:00:00Z');
  const runs: TestRun[] = [];
  const results: TestRunsSnapshot['results'] = [];
  let runId = 0;
  let seed = 26;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let project = 1; project <= 200; project++) {
    for (let i = 0; i < 90 * 6; i++) {
      if (rand() >= 0.3) continue;
      const createdAt = now - 90 * 86_400_000 + i * 4 * 3_600_000;
      const defaultBranch = rand() < 0.5;
      const sha = `${project}-${Math.floor(i / 2)}`;
      const failed = rand() < 0.15 ? 1 + Math.floor(rand() * 3) : 0;
      const run: TestRun = {
        runId: ++runId,
        pipelineId: project * 10_000 + i,
        projectId: project,
        suite: 'unit-tests',
        buildIds: [runId],
        jobId: runId,
        jobName: 'unit-tests',
        latest: true,
        total: 2_000,
        success: 2_000 - failed,
        failed,
        skipped: 0,
        error: 0,
        time: 600,
        cases: failed > 0 ? 'read' : 'none',
        sha,
        ref: defaultBranch ? 'main' : `feature/${i % 7}`,
        defaultBranch,
        createdAt,
        pipelineWebUrl: `https://gitlab.example.com/g/p${project}/-/pipelines/${project * 10_000 + i}`,
      };
      runs.push(run);
      for (let f = 0; f < failed; f++)
        results.push({
          runId: run.runId,
          classname: `com.acme.p${project}.Suite${Math.floor(rand() * 10)}Test`,
          name: `case${Math.floor(rand() * 40)}()`,
          file: null,
          status: 'failed',
          duration: 0.2,
          stackTrace: 'org.opentest4j.AssertionFailedError: expected: <1> but was: <2>',
        });
    }
  }
  return { runs, results };
}

async function recompute(): Promise<BenchRow[]> {
  const snapshot = history();
  const now = Date.parse('2026-11-21T12:00:00Z');
  let version = 0;
  // The store as the service sees it: a new read stored before each measure, so each measure
  // rebuilds the index once and answers from it.
  const store = {
    version: () => String(version),
    load: () => snapshot,
  } as unknown as TestReportStore;
  const service = new TestReportService({
    store,
    recorder: {} as TestReportRecorder,
    clock: { ...systemClock, now: () => now },
    projects: () =>
      Array.from({ length: 200 }, (_, i) => ({
        id: i + 1,
        name: `p${i + 1}`,
        path: `g/p${i + 1}`,
        webUrl: '',
        defaultBranch: 'main',
      })),
    pipeline: () => undefined,
    since: () => '7d',
    retentionDays: 90,
  });
  const cpu: number[] = [];
  const wall: number[] = [];
  let failing = 0;
  let flaky = 0;
  for (let i = 0; i < 7; i++) {
    version++;
    const started = performance.now();
    const before = process.cpuUsage();
    failing = service.failing('90d').tests.length;
    flaky = service.flaky('90d').tests.length;
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - started);
  }
  const ms = median(cpu.slice(2));
  return [
    {
      name: `test history recompute, 200 projects × 90 days (${fmt(snapshot.runs.length)} reports, ${fmt(snapshot.results.length)} failed cases): failing + flaky tests`,
      value: `${fmt(ms, 1)} ms CPU (${fmt(median(wall.slice(2)), 1)} ms wall; ${fmt(failing)} failing, ${fmt(flaky)} flaky)`,
      baseline: 'index rebuilt once per measure (a read was stored)',
      target: '≤ 200 ms CPU',
      ok: ms <= 200,
    },
  ];
}

/** The test-report rows. */
export const run: BenchSuite = async () => [
  ...(await recompute()),
  ...(await requestsPerPipeline()),
];
