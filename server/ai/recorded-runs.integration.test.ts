// The analysis reads the job's earlier runs from the pipeline history the service keeps, through
// the composition root, and asks GitLab only what the history lacks. GitLab's pipeline job list
// (doc/api/jobs.md, "List pipeline jobs") is what the history stores for each finished pipeline;
// without the history, "when did it last pass?" and "who broke it?" list the jobs of up to 13
// pipelines on every analysis. Requests are counted in the simulator's request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyseResponse } from '../contract.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import type { RouteKind } from '../simulator/index.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';
import { createAiService } from './ai-service.ts';
import type { StoredRuns } from './recorded-runs.ts';
import { AnalysisStore } from './store/analysis-store.ts';

let h: Harness;
const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));

beforeAll(async () => {
  // One clock for GitLab and the service: the history holds the same week GitLab serves.
  h = await startHarness({ simulator: { clock, projects: 6, days: 8 }, edges: { clock } });
  await h.service.groupHealth.idle();
  await h.service.groupHealth.history.loadAll();
}, 120_000);
afterAll(() => h.close());

/** The simulator's requests by kind while `run` runs. */
async function requestsDuring(
  run: () => Promise<unknown>,
): Promise<Partial<Record<RouteKind, number>>> {
  const before = { ...h.simulator.stats.byKind };
  await run();
  const out: Partial<Record<RouteKind, number>> = {};
  for (const [kind, n] of Object.entries(h.simulator.stats.byKind) as [RouteKind, number][])
    if (n - (before[kind] ?? 0) > 0) out[kind] = n - (before[kind] ?? 0);
  return out;
}

/**
 * A failed job whose last green run on its ref lies a few pipelines back, with failures between:
 * the analysis searches, and walks, the ref's pipelines.
 */
function brokenJob() {
  const { pipelines, jobs } = h.service.groupHealth.history.snapshot();
  const finished = pipelines.filter((p) => p.status === 'success' || p.status === 'failed');
  for (const p of [...finished].reverse()) {
    for (const job of (jobs.get(p.pipelineId) ?? []).filter((j) => j.status === 'failed')) {
      const earlier = finished.filter(
        (q) => q.projectId === p.projectId && q.ref === p.ref && q.pipelineId < p.pipelineId,
      );
      const ran = (q: (typeof earlier)[number]) =>
        (jobs.get(q.pipelineId) ?? []).find((j) => j.name === job.name && !j.retried)?.status;
      const green = earlier.findLastIndex((q) => ran(q) === 'success');
      if (green >= 0 && earlier.slice(green + 1).filter((q) => ran(q) === 'failed').length >= 1)
        return { projectId: p.projectId, pipelineId: p.pipelineId, jobId: job.jobId };
    }
  }
  throw new Error('the simulated week has no job that broke after a green run');
}

/** An AI service on the simulator, with or without the pipeline history to read first. */
function aiService(storedRuns: StoredRuns | undefined) {
  const store = AnalysisStore.open(':memory:', silentLogger);
  const ai = createAiService({
    gitlab: new GitLabClient({
      baseUrl: h.simulator.url,
      token: h.simulator.token,
      logger: silentLogger,
    }),
    store,
    logger: silentLogger,
    clock,
    config: {},
    projectName: () => undefined,
    storedRuns,
  });
  return { ai, close: () => store.close() };
}

describe('earlier runs from the pipeline history', () => {
  it('lists no pipeline’s jobs for an analysis through the composition root', async () => {
    const id = brokenJob();
    const signed = h.service.triage.recorder.logsRead;
    const counted = await requestsDuring(async () => {
      const res = await h.api('/api/ai/analyse', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(id),
      });
      expect(res.status).toBe(200);
      expect((res.body as AnalyseResponse).analysis).toContain('**Facts**');
    });
    // The job, its pipeline, the ref's pipeline list, the repository tree (other), and three
    // logs: the job's, the last green run's and the one triage reads to sign the failure for
    // "fixed before". No job list: the history held every pipeline the analysis read.
    expect(h.service.triage.recorder.logsRead - signed).toBe(1);
    expect(counted).toEqual({ job: 1, pipeline: 1, 'pipelines-list': 1, other: 1, trace: 3 });
  });

  it('gives the same answer as GitLab alone, which lists the jobs of each pipeline it reads', async () => {
    const id = brokenJob();
    const withHistory = aiService(h.service.groupHealth.history);
    const alone = aiService(undefined);
    let fromHistory: AnalyseResponse | undefined;
    let fromGitLab: AnalyseResponse | undefined;
    const read = await requestsDuring(async () => {
      fromHistory = await withHistory.ai.analyse(id);
    });
    const listed = await requestsDuring(async () => {
      fromGitLab = await alone.ai.analyse(id);
    });
    withHistory.close();
    alone.close();
    expect(read).toEqual({ job: 1, pipeline: 1, 'pipelines-list': 1, other: 1, trace: 2 });
    expect(listed).toEqual({ ...read, jobs: 4 });
    // Same last green run, first failure, failed runs between and attempts.
    expect(fromHistory!.analysis).toBe(fromGitLab!.analysis);
    expect(fromHistory!.analysis).toMatch(/last green run/i);
  });
});
