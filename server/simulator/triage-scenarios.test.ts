import { describe, expect, it } from 'vitest';
import { startSimulator, type GitLabSimulator } from './index.ts';

// The triage scenarios are planted into a dataset that depends on the clock's start: every start
// must carry all of them, or tests and the demo's My MRs view would miss a verdict on some days.
describe('triage scenarios at any start time', () => {
  it('plants each verdict (by job and by test), an outage in three projects and a twice-fixed error, over six weeks of starts', async () => {
    const missed: string[] = [];
    for (let i = 0; i < 100; i++) {
      const start = Date.UTC(2026, 10, 14) + i * 10 * 3_600_000;
      const sim = await startSimulator({
        live: false,
        projects: 12,
        days: 8,
        clock: { now: () => start },
      });
      const t = sim.triage;
      const got = [
        t.mergeRequests.map((m) => `${m.verdict}${m.test ? ' by test' : ''}`).join(','),
        new Set(t.registryOutage.map((o) => o.projectId)).size,
        t.fixedTwice?.failedPipelineIds.length ?? 0,
      ].join(' ');
      if (got !== 'broken-on-default,flaky,new,broken-on-default by test,flaky by test 3 3')
        missed.push(`${new Date(start).toISOString()}: ${got}`);
      await sim.close();
    }
    expect(missed).toEqual([]);
  }, 120_000);

  /** What GitLab answers about every planted pipeline: its jobs and, for the test verdicts, its tests. */
  async function planted(sim: GitLabSimulator): Promise<string> {
    const get = async (path: string) =>
      (await fetch(`${sim.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': sim.token } })).json();
    const t = sim.triage;
    const pipelines = [
      ...t.mergeRequests.map((m) => [m.projectId, m.pipelineId] as const),
      ...t.registryOutage.map((o) => [o.projectId, o.pipelineId] as const),
    ];
    const answers: unknown[] = [t, sim.testScenarios];
    for (const [projectId, pipelineId] of pipelines)
      answers.push(await get(`/projects/${projectId}/pipelines/${pipelineId}/jobs?per_page=100`));
    for (const m of t.mergeRequests.filter((x) => x.test))
      answers.push(await get(`/projects/${m.projectId}/pipelines/${m.pipelineId}/test_report`));
    // The simulator's own address differs between two runs.
    return JSON.stringify(answers).replaceAll(sim.url, 'http://simulator');
  }

  it('plants the same MRs, jobs, tests, signatures and fixes for the same seed and start', async () => {
    for (const [seed, start] of [
      [42, Date.UTC(2026, 10, 14)],
      [7, Date.UTC(2026, 10, 20, 7)],
    ] as const) {
      const answers: string[] = [];
      for (let run = 0; run < 2; run++) {
        const sim = await startSimulator({
          live: false,
          projects: 12,
          days: 8,
          seed,
          clock: { now: () => start },
        });
        answers.push(await planted(sim));
        await sim.close();
      }
      expect(answers[1]).toBe(answers[0]);
      expect(answers[0]!.length).toBeGreaterThan(10_000);
    }
  }, 60_000);
});
