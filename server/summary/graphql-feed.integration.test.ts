// Issue 15 §3: pipelines read over GitLab's GraphQL API in bulk, under GitLab's limits
// (app/graphql/gitlab_schema.rb: complexity 250 and depth 15 for a signed-in user; complexity per
// app/graphql/types/base_field.rb), with REST as the fallback when GraphQL is off or refuses.
import { afterEach, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import {
  CHANGES_PAGE,
  changesQuery,
  GITLAB_GRAPHQL_LIMITS,
  GRAPHQL_BATCH,
  idsQuery,
  pipelinesQuery,
} from '../gitlab/graphql-pipelines.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { analyse } from '../simulator/graphql/execute.ts';
import { graphqlSwitchedOff } from '../simulator/faults.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { PipelinePoller, type PipelineChange } from './poller.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
let sim: GitLabSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

function pollerFor(simulator: GitLabSimulator, clock: ManualClock): PipelinePoller {
  return new PipelinePoller({
    gitlab: new GitLabClient({
      baseUrl: simulator.url,
      token: simulator.token,
      logger: silentLogger,
    }),
    clock,
    logger: silentLogger,
    group: simulator.groupPath,
    since: '7d',
  });
}

describe('GraphQL queries stay under GitLab limits', () => {
  it.each([
    ['pipelines', pipelinesQuery, GRAPHQL_BATCH.pipelines, 240],
    ['changes', changesQuery, GRAPHQL_BATCH.changes, 240],
    ['ids', idsQuery, GRAPHQL_BATCH.ids, 240],
  ] as const)(
    '%s: a full batch costs what the docs say; one more project would be refused',
    (_, query, batch, cost) => {
      expect(analyse(query(batch))).toEqual({ complexity: cost, depth: expect.any(Number) });
      expect(analyse(query(batch)).depth).toBeLessThanOrEqual(GITLAB_GRAPHQL_LIMITS.depth);
      expect(cost).toBeLessThanOrEqual(GITLAB_GRAPHQL_LIMITS.complexity);
      if (query !== changesQuery)
        expect(analyse(query(batch + 1)).complexity).toBeGreaterThan(
          GITLAB_GRAPHQL_LIMITS.complexity,
        );
    },
  );

  it('the simulator refuses an over-complex query with GitLab’s message', async () => {
    sim = await startSimulator({ live: false, projects: 1 });
    const res = await fetch(`${sim.url}/api/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: pipelinesQuery(6),
        variables: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`p${i}`, 'acme/x'])),
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      errors: [{ message: 'Query has complexity of 288, which exceeds max complexity of 250' }],
    });
  });
});

describe('reading pipelines over GraphQL', () => {
  it('a first load has durations and users without one request per pipeline; a quiet cycle costs one request per 40 projects', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 30, clock });
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    await poller.detailsSettled();
    const { summary, projects, status } = poller.snapshot;
    expect(status?.gitlab_api).toBe('graphql');
    expect(sim.stats.byKind.pipeline).toBe(0);
    expect(sim.stats.byKind['pipelines-list']).toBe(0);
    const finished = projects
      .flatMap((p) => p.recent_pipelines)
      .filter((p) => p.status === 'success');
    expect(finished.length).toBeGreaterThan(0);
    for (const p of finished) {
      expect(p.duration).toEqual(expect.any(Number));
      expect(p.user?.username).toEqual(expect.any(String));
    }
    expect(summary.average_duration).toBeGreaterThan(0);

    sim.stats.reset();
    await poller.cycleOnce();
    expect(sim.stats.total).toBe(Math.ceil(projects.length / GRAPHQL_BATCH.changes));
    await poller.stop();
  });

  it('falls back to REST when GraphQL is switched off, says so, and shows the same numbers', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 8, clock });
    const viaGraphQL = pollerFor(sim, clock);
    await viaGraphQL.cycleOnce();
    await viaGraphQL.detailsSettled();
    await viaGraphQL.stop();

    sim.faults.add(graphqlSwitchedOff());
    const viaRest = pollerFor(sim, clock);
    await viaRest.cycleOnce();
    await viaRest.detailsSettled();
    await viaRest.stop();

    const { status, ...restData } = viaRest.snapshot;
    const { status: _ignored, ...graphqlData } = viaGraphQL.snapshot;
    expect(status?.gitlab_api).toBe('rest');
    expect(status?.gitlab_api_note).toMatch(/REST/);
    // GraphQL's `Time` has whole seconds where REST has milliseconds (gitlabhq
    // app/graphql/types/time_type.rb: `value.iso8601`): the same numbers, timestamps to the second.
    const toSeconds = (data: object): unknown =>
      JSON.parse(JSON.stringify(data).replace(/("created_at":"[^"]*?:\d\d)\.\d{3}Z"/g, '$1.000Z"'));
    expect(JSON.stringify(restData)).toMatch(/"created_at":"[^"]*\.(?!000)\d{3}Z"/);
    expect(toSeconds(restData)).toEqual(graphqlData);
  });
});

describe('the change probe with more changes than it asks for', () => {
  // Project.pipelines(updatedAfter:, first:) pages newest id first by keyset cursor
  // (docs.gitlab.com/api/graphql/reference/#projectpipelines; gitlab-org/gitlab!77396, gitlab-foss!20249).
  it('a full probe page hides an older pipeline updated since; the project is read in full and nothing is missed', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 3, clock });
    const projectId = sim.projectIds()[0]!;
    // An older pipeline, then five newer ones updated in the second the first cycle reads: those
    // five stay inside the cursor's one-second overlap, so the next probe's whole page is them.
    const older = sim.startPipeline(projectId);
    clock.advance(10 * 60_000);
    const newer = Array.from({ length: CHANGES_PAGE }, () => sim!.startPipeline(projectId));
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    await poller.detailsSettled();

    const heard: PipelineChange[] = [];
    poller.onPipelineChanges((changes) => heard.push(...changes));
    clock.advance(60_000);
    sim.finishPipeline(projectId, older.pipelineId, 'failed');
    sim.stats.reset();
    await poller.cycleOnce();

    // The probe saw CHANGES_PAGE known pipelines, unchanged; a shorter page would have ended the
    // cycle there. The full page made it read the project: one probe, one full read.
    expect(sim.stats.byKind.graphql).toBe(2);
    expect(heard.map((c) => [c.record.id, c.previousStatus, c.record.status])).toEqual([
      [older.pipelineId, 'created', 'failed'],
    ]);
    const recent = poller.snapshot.projects.find((p) => p.project_id === projectId)!;
    const shown = new Map(recent.recent_pipelines.map((p) => [p.pipeline_id, p.status]));
    expect(shown.get(older.pipelineId)).toBe('failed');
    for (const n of newer) expect(shown.get(n.pipelineId)).toBe('created');
    await poller.stop();
  });

  it('more than a probe page of pipelines changed since the last cycle: every one of them is read', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 3, clock });
    const projectId = sim.projectIds()[1]!;
    const running = Array.from({ length: 4 }, () => sim!.startPipeline(projectId));
    clock.advance(60_000);
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    await poller.detailsSettled();

    // Four older pipelines finish and five new ones start: nine changes, probe page of five.
    clock.advance(60_000);
    running.forEach((r, i) =>
      sim!.finishPipeline(projectId, r.pipelineId, i % 2 ? 'success' : 'failed'),
    );
    clock.advance(1_000);
    const started = Array.from({ length: CHANGES_PAGE }, () => sim!.startPipeline(projectId));
    const heard: PipelineChange[] = [];
    poller.onPipelineChanges((changes) => heard.push(...changes));
    await poller.cycleOnce();

    const byId = new Map(heard.map((c) => [c.record.id, c.record.status]));
    running.forEach((r, i) => expect(byId.get(r.pipelineId)).toBe(i % 2 ? 'success' : 'failed'));
    for (const s of started) expect(byId.get(s.pipelineId)).toBe('created');
    expect(heard).toHaveLength(running.length + started.length);
    await poller.stop();
  });
});
