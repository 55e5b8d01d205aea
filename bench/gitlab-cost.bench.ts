// GitLab cost of the poller (issue 15 §3) against the simulator with GitLab.com's rate budget ON
// (2,000 requests/min, the client's shared host budget) and 50 ms upstream latency: time and
// requests for a first *complete* summary of 200 projects with ≥ 20,000 pipelines in the window,
// requests per quiet steady cycle, and the REST fallback's numbers against the GraphQL path's.
import { GitLabClient } from '../server/gitlab/client.ts';
import { RequestBudget } from '../server/gitlab/request-budget.ts';
import { systemClock } from '../server/platform/clock.ts';
import { silentLogger } from '../server/platform/logger.ts';
import { PipelinePoller } from '../server/summary/poller.ts';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import type { BenchSuite } from './types.ts';

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function poller(client: GitLabClient, group: string, detailConcurrency = 4): PipelinePoller {
  return new PipelinePoller({
    gitlab: client,
    clock: systemClock,
    logger: silentLogger,
    group,
    // The dataset holds 7 days; an 8-day window keeps every run's numbers free of edge effects.
    since: '8d',
    timing: { detailConcurrency },
  });
}

/** Every finished pipeline in the summary has its duration and user: the summary is complete. */
function complete(p: PipelinePoller): boolean {
  return p.snapshot.projects.every((project) =>
    project.recent_pipelines.every(
      (r) => !['success', 'failed'].includes(r.status) || (r.duration !== null && r.user !== null),
    ),
  );
}

async function restNumbers(simulator: GitLabSimulator): Promise<string> {
  // GraphQL switched off (404), as an instance may have it; same data, read over REST. The budget
  // is lifted here: 20,000 single-pipeline reads at 2,000/min would take ten minutes by design.
  simulator.setLatency(0);
  simulator.setRateLimit(1e9);
  const handle = simulator.faults.add({
    kind: 'rewrite',
    match: /\/api\/graphql/,
    rewrite: (reply) => {
      reply.status = 404;
      reply.body = { message: '404 Not Found' };
    },
  });
  const rest = poller(
    new GitLabClient({
      baseUrl: simulator.url,
      token: simulator.token,
      logger: silentLogger,
      budget: new RequestBudget({ requestsPerMinute: 1e9, maxConcurrency: 16 }),
    }),
    simulator.groupPath,
    16,
  );
  await rest.cycleOnce();
  await rest.detailsSettled();
  await rest.stop();
  handle.remove();
  const { status, ...data } = rest.snapshot;
  if (status?.gitlab_api !== 'rest') throw new Error('the REST run did not fall back to REST');
  return JSON.stringify(data);
}

/** The GitLab-cost suite. */
export const run: BenchSuite = async () => {
  const simulator = await startSimulator({
    live: false,
    projects: 200,
    pipelinesPerDay: 15,
    days: 7,
    latencyMs: 50,
    rateLimitPerMinute: 2_000,
  });
  try {
    // The client's own host budget: GitLab.com's 2,000/min for a token (with 10 % headroom).
    const client = new GitLabClient({
      baseUrl: simulator.url,
      token: simulator.token,
      logger: silentLogger,
    });
    const graphql = poller(client, simulator.groupPath);
    simulator.stats.reset();
    const started = performance.now();
    await graphql.cycleOnce();
    await graphql.detailsSettled();
    const firstMs = performance.now() - started;
    const firstRequests = simulator.stats.total;
    const { summary, projects, status } = graphql.snapshot;
    const pipelines = summary.total_pipelines;
    const isComplete = complete(graphql) && status?.gitlab_api === 'graphql';

    simulator.stats.reset();
    await graphql.cycleOnce();
    await graphql.detailsSettled();
    const steady = simulator.stats.total;
    await graphql.stop();
    const { status: _status, ...graphqlData } = graphql.snapshot;

    // GraphQL's `Time` has whole seconds where REST has milliseconds (gitlabhq
    // app/graphql/types/time_type.rb: `value.iso8601`): the same numbers, timestamps to the second.
    const toSeconds = (json: string) =>
      json.replace(/("created_at":"[^"]*?:\d\d)\.\d{3}Z"/g, '$1.000Z"');
    const same = toSeconds(await restNumbers(simulator)) === toSeconds(JSON.stringify(graphqlData));
    const perPipeline = pipelines / Math.max(1, firstRequests);
    return [
      {
        name: `first complete summary (counts, durations, users), ${projects.length} projects, ${fmt(pipelines)} pipelines, 2,000/min budget, 50 ms latency`,
        value: `${fmt(firstMs / 1000, 1)} s${isComplete ? '' : ' (INCOMPLETE)'}`,
        baseline: `over GraphQL (${status?.gitlab_api})`,
        target: '≤ 30 s, ≥ 20,000 pipelines',
        ok: firstMs <= 30_000 && pipelines >= 20_000 && isComplete,
      },
      {
        name: 'GitLab requests for that first load',
        value: `${fmt(firstRequests)} requests (1 per ${fmt(perPipeline, 0)} pipelines)`,
        baseline: `${fmt(pipelines)} pipelines`,
        target: '≤ 1 per 25 pipelines',
        ok: firstRequests * 25 <= pipelines,
      },
      {
        name: `GitLab requests per steady cycle with nothing changed, ${projects.length} projects`,
        value: `${fmt(steady)} requests`,
        baseline: `${projects.length} projects`,
        target: '≤ 1 per 10 projects',
        ok: steady * 10 <= projects.length,
      },
      {
        name: 'REST fallback (GraphQL answering 404), same data',
        value: same ? 'numbers identical (timestamps to the second)' : 'numbers DIFFER',
        baseline: 'the GraphQL run above',
        target: 'identical to GraphQL',
        ok: same,
      },
    ];
  } finally {
    await simulator.close();
  }
};
