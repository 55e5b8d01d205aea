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
import {
  graphqlMethodNotAllowed,
  graphqlReadOnly,
  graphqlSwitchedOff,
} from '../simulator/faults.ts';
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

// Issue 24 §3: each refusal of GitLab's GraphQL endpoint taken as what GitLab means by it (gitlabhq
// app/controllers/graphql_controller.rb, app/graphql/gitlab_schema.rb, graphql-ruby's
// MaxQueryComplexity wording); the simulator words and answers each as GitLab does.
describe('GitLab’s GraphQL refusals', () => {
  async function post(
    simulator: GitLabSimulator,
    query: string,
    token = simulator.token,
    variables: Record<string, unknown> = { p0: 'acme/x' },
  ) {
    const res = await fetch(`${simulator.url}/api/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  it('the simulator refuses a query past MAX_QUERY_SIZE with 422 and a bad token with 401, in GraphQL’s shape', async () => {
    sim = await startSimulator({ live: false, projects: 1 });
    // GraphqlController: MAX_QUERY_SIZE = 10_000; `limit_query_size` raises "Query too large"
    // (ArgumentError → :unprocessable_entity); authorize_access_api! renders 'Invalid token', 401.
    const long = `${changesQuery(1)}${' '.repeat(10_000)}`;
    expect(await post(sim, long)).toEqual({
      status: 422,
      body: { errors: [{ message: 'Query too large' }] },
    });
    expect(await post(sim, changesQuery(1), 'not-a-token')).toEqual({
      status: 401,
      body: { errors: [{ message: 'Invalid token' }] },
    });
  });

  it('a query over a lowered complexity limit is re-sent for fewer projects: GraphQL stays, and the smaller batch is kept', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 12, clock });
    const reference = pollerFor(sim, clock);
    await reference.cycleOnce();
    await reference.detailsSettled();
    await reference.stop();
    // GitLab lowers the limit (or raises field costs): 5 projects now cost 240 > 200.
    sim.setGraphQLLimits({ complexity: 200 });
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    await poller.detailsSettled();
    const { status, ...data } = poller.snapshot;
    expect(status).toMatchObject({ gitlab_api: 'graphql', gitlab_api_note: null });
    const { status: _ignored, ...expected } = reference.snapshot;
    expect(data).toEqual(expected);

    // Every project read again in full: 4 projects per query (4 × 48 = 192) from the start, and
    // the due id reconciliation (12 × 15 = 180) in one query, none refused.
    poller.retarget({ since: '7d' });
    sim.stats.reset();
    await poller.cycleOnce();
    expect(sim.stats.byKind.graphql).toBe(Math.ceil(12 / 4) + 1);
    expect(poller.status.gitlab_api).toBe('graphql');
    await poller.stop();
  });

  it('a probe over the query-size limit (422 "Query too large") is split in two and stays split', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 41, clock });
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    await poller.detailsSettled();
    // 40 projects' probe is 5,255 characters; 20 projects' about half.
    sim.setGraphQLLimits({ querySize: 3_000 });
    clock.advance(60_000);
    sim.stats.reset();
    await poller.cycleOnce();
    // 40 refused, then 20 + 20, and the 41st project's own probe.
    expect(sim.stats.byKind.graphql).toBe(4);
    clock.advance(60_000);
    sim.stats.reset();
    await poller.cycleOnce();
    expect(sim.stats.byKind.graphql).toBe(Math.ceil(41 / 20));
    expect(poller.status).toMatchObject({ gitlab_api: 'graphql', gitlab_api_note: null });
    await poller.stop();
  });

  it('when even one project’s query is too complex, pipelines are read over REST for good and the status says why', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 3, clock });
    sim.setGraphQLLimits({ complexity: 40 });
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    await poller.detailsSettled();
    expect(poller.snapshot.summary.total_pipelines).toBeGreaterThan(0);
    expect(poller.status.gitlab_api).toBe('rest');
    expect(poller.status.gitlab_api_note).toMatch(
      /Query has complexity of 48, which exceeds max complexity of 40, even for a query of one project.*until the service restarts/,
    );
    clock.advance(60_000);
    sim.stats.reset();
    await poller.cycleOnce();
    expect(sim.stats.byKind.graphql).toBe(0);
    expect(sim.stats.byKind['pipelines-list']).toBe(3);
    await poller.stop();
  });

  it.each([
    // A proxy letting only GET through; GitLab itself routes POST /api/graphql.
    ['405 from a proxy', graphqlMethodNotAllowed, /HTTP 405.*refuses POST/],
    // lib/gitlab/middleware/read_only/controller.rb (before GraphQL was allow-listed): JSON 403.
    [
      '403 from a read-only instance',
      graphqlReadOnly,
      /HTTP 403 "You cannot perform write.*\(REST accepts the token\)/,
    ],
    // GraphQL switched off (gitlab-foss#59965) or blocked.
    ['404', graphqlSwitchedOff, /HTTP 404.*switched off/],
  ])(
    '%s: REST from then on, not GraphQL again every cycle, and the status says why',
    async (_, fault, note) => {
      const clock = new ManualClock(NOW);
      sim = await startSimulator({ live: false, projects: 3, clock });
      sim.faults.add(fault());
      const poller = pollerFor(sim, clock);
      await poller.cycleOnce();
      expect(poller.status).toMatchObject({ state: 'ok', gitlab_api: 'rest' });
      expect(poller.status.gitlab_api_note).toMatch(note);
      expect(poller.snapshot.summary.total_pipelines).toBeGreaterThan(0);
      for (let i = 0; i < 2; i++) {
        clock.advance(60_000);
        sim.stats.reset();
        await poller.cycleOnce();
        expect(sim.stats.byKind.graphql).toBe(0);
      }
      await poller.stop();
    },
  );

  it('401 on /api/graphql while REST takes the token: REST for good, and the status says so', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 3, clock });
    // ERROR_STATUS_MAP answers 401 for some refusals of the token on this endpoint only
    // (Gitlab::Auth::DpopValidationError, RestrictedLanguageServerClientError).
    sim.faults.add({
      kind: 'rewrite',
      match: /\/api\/graphql/,
      rewrite: (reply) => {
        reply.status = 401;
        reply.body = { errors: [{ message: 'Invalid token' }] };
      },
    });
    const poller = pollerFor(sim, clock);
    await poller.cycleOnce();
    expect(poller.status).toMatchObject({ state: 'ok', gitlab_api: 'rest' });
    expect(poller.status.gitlab_api_note).toMatch(
      /HTTP 401 "Invalid token".*REST accepts the token/,
    );
    await poller.stop();
  });

  it('a project whose pipelines the user may not read is an empty connection, left out as REST’s 403 leaves it out', async () => {
    const clock = new ManualClock(NOW);
    sim = await startSimulator({ live: false, projects: 3, clock });
    const [guarded] = sim.projectIds();
    sim.setPipelineAccess(guarded!, 'guest');
    // gitlabhq app/finders/ci/pipelines_finder.rb: `Ci::Pipeline.none` without :read_pipeline.
    const projects = await new GitLabClient({
      baseUrl: sim.url,
      token: sim.token,
    }).listGroupProjects(sim.groupPath);
    const fullPath = projects.find((p) => p.id === guarded)!.path_with_namespace;
    const direct = await post(sim, pipelinesQuery(1), sim.token, { p0: fullPath });
    expect(direct.body).toMatchObject({
      data: { p0: { pipelines: { nodes: [], pageInfo: { hasNextPage: false } } } },
    });

    const viaGraphQL = pollerFor(sim, clock);
    await viaGraphQL.cycleOnce();
    sim.faults.add(graphqlSwitchedOff());
    const viaRest = pollerFor(sim, clock);
    await viaRest.cycleOnce();
    const shown = (p: PipelinePoller) => p.snapshot.projects.map((x) => x.project_id).sort();
    expect(shown(viaGraphQL)).not.toContain(guarded);
    expect(shown(viaGraphQL)).toEqual(shown(viaRest));
    expect(viaGraphQL.status).toMatchObject({ state: 'ok', gitlab_api: 'graphql' });
    await viaGraphQL.stop();
    await viaRest.stop();
  });
});
