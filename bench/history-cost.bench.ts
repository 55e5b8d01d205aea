// What history costs in GitLab requests (issue 24 §5): the first hour of a 200-project group with
// every background read the service makes by itself — the poller's reads, the history recorder's
// job lists, commit and merge-request lookups, JUnit test reports — counted by kind at the
// simulator. The hour is the first load until nothing is queued, then one steady cycle a minute
// (the poller's quiet interval) on a clock moved by hand, so periodic reads (project list,
// deletion reconciliation) happen as they would in an hour. Avatars are not counted: only a browser showing them asks.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitLabClient } from '../server/gitlab/client.ts';
import { RequestBudget } from '../server/gitlab/request-budget.ts';
import { openPollerWithHealth } from '../server/group-health/testing/poller-with-health.ts';
import type { Clock } from '../server/platform/clock.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { ROUTE_KINDS } from '../server/simulator/stats.ts';
import { startSimulator } from '../server/simulator/index.ts';
import { LARGE_GROUP } from './large-group.ts';
import type { BenchSuite } from './types.ts';

const MINUTE = 60_000;
/** Requests for a first hour at or under this fit well inside GitLab.com's 2,000 a minute. */
const TARGET = 2_000;

/**
 * Projects in the group: 200 (the row's target is for that size); `PS_BENCH_COST_PROJECTS=2000`
 * measures the ten-times group's first hour, a figure reported without a target.
 */
function groupSize(): number {
  const asked = Number(process.env.PS_BENCH_COST_PROJECTS ?? '');
  return Number.isInteger(asked) && asked > 0 ? asked : (LARGE_GROUP.projects ?? 200);
}

/** The history-cost suite. */
export const run: BenchSuite = async () => {
  const projects = groupSize();
  const sim = await startSimulator({ ...LARGE_GROUP, projects, latencyMs: 0 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-bench-history-cost-'));
  let offset = 0;
  const clock: Clock = { now: () => Date.now() + offset };
  const gitlab = new GitLabClient({
    baseUrl: sim.url,
    token: sim.token,
    logger: silentLogger,
    budget: new RequestBudget({ requestsPerMinute: 1e9, maxConcurrency: 12 }),
  });
  const service = openPollerWithHealth(gitlab, sim.groupPath, dir, clock);
  try {
    sim.stats.reset();
    await service.poller.cycleOnce();
    await service.settle();
    const firstLoad = sim.stats.total;
    const pipelines = service.poller.snapshot.summary.total_pipelines;
    for (let minute = 1; minute < 60; minute++) {
      offset = minute * MINUTE;
      await service.poller.cycleOnce();
      await service.settle();
    }
    const total = sim.stats.total;
    const tests = service.group.testReports.recorder.requests;
    const testReads = `test reports: ${tests.summaryQueries.toLocaleString('en-US')} GraphQL queries for ${tests.summarised.toLocaleString('en-US')} summaries, ${tests.summaries.toLocaleString('en-US')} over REST, ${tests.reports.toLocaleString('en-US')} full reports`;
    const byKind = ROUTE_KINDS.filter((k) => sim.stats.byKind[k] > 0)
      .map((k) => `${k} ${sim.stats.byKind[k].toLocaleString('en-US')}`)
      .join(', ');
    return [
      {
        name: `first hour, ${service.poller.snapshot.projects.length} projects (${pipelines.toLocaleString('en-US')} pipelines): GitLab requests incl. history and test-report reads (${byKind}; ${testReads})`,
        value: `${total.toLocaleString('en-US')} requests`,
        baseline: `${firstLoad.toLocaleString('en-US')} in the first load`,
        target:
          projects === LARGE_GROUP.projects ? `≤ ${TARGET.toLocaleString('en-US')}` : 'reported',
        ok: projects !== LARGE_GROUP.projects || total <= TARGET,
      },
    ];
  } finally {
    await service.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
