// Test report summaries read in bulk over GitLab's GraphQL API: `project.pipeline(id:)`
// (app/graphql/resolvers/ci/project_pipeline_resolver.rb: batched per project, `calls_gitaly!`,
// resolver_complexity − 10) and `Pipeline.testReportSummary` (types/ci/pipeline_type.rb,
// resolvers/ci/test_report_summary_resolver.rb: the REST summary's serializer, so the same numbers
// as GET /projects/:id/pipelines/:id/test_report_summary, doc/api/pipelines.md). Complexity per
// app/graphql/types/base_field.rb, limits per app/graphql/gitlab_schema.rb.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import {
  GITLAB_GRAPHQL_LIMITS,
  GRAPHQL_BATCH,
  testSummariesQuery,
} from '../gitlab/graphql-pipelines.ts';
import type { GitLabPipelineListItem } from '../gitlab/wire.ts';
import { silentLogger } from '../platform/logger.ts';
import { analyse, LIMITS } from '../simulator/graphql/execute.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { simJson } from '../simulator/testing/http.ts';

describe('the bulk test summary query stays under GitLab limits', () => {
  it('30 pipelines cost 7 each and 1 a project: 211 in one project, 240 in thirty', () => {
    const batch = GRAPHQL_BATCH.testSummaries;
    expect(analyse(testSummariesQuery([batch]))).toEqual({ complexity: 211, depth: 6 });
    const spread = testSummariesQuery(Array.from({ length: batch }, () => 1));
    expect(analyse(spread).complexity).toBe(240);
    expect(analyse(spread).complexity).toBeLessThanOrEqual(GITLAB_GRAPHQL_LIMITS.complexity);
    expect(analyse(spread).depth).toBeLessThanOrEqual(GITLAB_GRAPHQL_LIMITS.depth);
    // graphql_controller.rb's MAX_QUERY_SIZE (10,000 characters): 8,019 here.
    expect(spread.length).toBeLessThan(LIMITS.querySize);
  });
});

describe('bulk test summaries against the simulator', () => {
  let sim: GitLabSimulator;
  let gitlab: GitLabClient;
  const projects: { id: number; path: string; finished: GitLabPipelineListItem[] }[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ live: false, projects: 6, days: 2 });
    gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    for (const id of sim.projectIds()) {
      const project = await simJson<{ path_with_namespace: string }>(sim, `/projects/${id}`);
      const list = await gitlab.listPipelines(id, {});
      projects.push({
        id,
        path: project.path_with_namespace,
        finished: list.filter((p) => ['success', 'failed', 'canceled'].includes(p.status)),
      });
    }
  }, 60_000);
  afterAll(() => sim.close());

  it('answers what REST answers for every pipeline, suites and totals, in one request', async () => {
    const requests = projects.map((p) => ({
      fullPath: p.path,
      pipelineIds: p.finished.slice(0, 5).map((x) => x.id),
    }));
    const asked = requests.flatMap((r) => r.pipelineIds);
    expect(asked.length).toBeGreaterThanOrEqual(20);
    const before = sim.stats.byKind.graphql ?? 0;
    const bulk = await gitlab.bulk.testReportSummaries(requests);
    expect((sim.stats.byKind.graphql ?? 0) - before).toBe(1);
    let withSuites = 0;
    for (const r of requests) {
      const projectId = projects.find((p) => p.path === r.fullPath)!.id;
      for (const id of r.pipelineIds) {
        const rest = await gitlab.getTestReportSummary(projectId, id);
        const got = bulk.get(id);
        expect(got, `pipeline ${id}`).not.toBeNull();
        expect(got).not.toBe('rest');
        const summary = got as Exclude<typeof got, null | 'rest' | undefined>;
        expect(summary.test_suites).toEqual(rest.test_suites);
        const { time, ...counts } = summary.total;
        const { time: restTime, ...restCounts } = rest.total;
        expect(counts).toEqual(restCounts);
        expect(time).toBeCloseTo(restTime, 1);
        if (rest.test_suites.length > 0) withSuites++;
      }
    }
    expect(withSuites).toBeGreaterThan(0);
  });

  it('a deleted pipeline, and those of a project whose pipelines the user may not read, are null', async () => {
    const [a, b] = projects.filter((p) => p.finished.length >= 2);
    const gone = a!.finished[0]!.id;
    sim.deletePipeline(a!.id, gone);
    sim.setPipelineAccess(b!.id, 'guest');
    try {
      const bulk = await gitlab.bulk.testReportSummaries([
        { fullPath: a!.path, pipelineIds: [gone, a!.finished[1]!.id] },
        { fullPath: b!.path, pipelineIds: [b!.finished[0]!.id] },
      ]);
      expect(bulk.get(gone)).toBeNull();
      expect(bulk.get(a!.finished[1]!.id)).toMatchObject({ test_suites: expect.any(Array) });
      expect(bulk.get(b!.finished[0]!.id)).toBeNull();
    } finally {
      sim.setPipelineAccess(b!.id, 'enabled');
    }
  });

  it('over a lowered complexity limit GitLab refuses the batch with its numbers', async () => {
    const p = projects.find((x) => x.finished.length >= 5)!;
    sim.setGraphQLLimits({ complexity: 30 });
    try {
      await expect(
        gitlab.bulk.testReportSummaries([
          { fullPath: p.path, pipelineIds: p.finished.slice(0, 5).map((x) => x.id) },
        ]),
      ).rejects.toMatchObject({ kind: 'complexity', complexity: { actual: 36, max: 30 } });
    } finally {
      sim.setGraphQLLimits({ complexity: LIMITS.complexity });
    }
  });
});
