import { describe, expect, it } from 'vitest';
import { startSimulator } from './index.ts';

// The triage scenarios are planted into a dataset that depends on the clock's start: every start
// must carry all of them, or tests and the demo's My MRs view would miss a verdict on some days.
describe('triage scenarios at any start time', () => {
  it('plants each verdict, an outage in three projects and a twice-fixed error, over two weeks of starts', async () => {
    const missed: string[] = [];
    for (let i = 0; i < 34; i++) {
      const start = Date.UTC(2026, 10, 14) + i * 10 * 3_600_000;
      const sim = await startSimulator({
        live: false,
        projects: 12,
        days: 8,
        clock: { now: () => start },
      });
      const t = sim.triage;
      const got = [
        t.mergeRequests.map((m) => m.verdict).join(','),
        new Set(t.registryOutage.map((o) => o.projectId)).size,
        t.fixedTwice?.failedPipelineIds.length ?? 0,
      ].join(' ');
      if (got !== 'broken-on-default,flaky,new 3 3')
        missed.push(`${new Date(start).toISOString()}: ${got}`);
      await sim.close();
    }
    expect(missed).toEqual([]);
  }, 60_000);
});
