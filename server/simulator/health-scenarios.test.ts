import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import { Dataset } from './dataset.ts';

// The dataset is drawn relative to "now" (pipelines per hour follow the hour and the weekday), and
// the health integration tests take its scenarios as ground truth: they must be there whatever the
// hour, quiet weekends included (a Sunday evening once lost the recovered branch).
describe('health scenarios at any hour', () => {
  it('are planted in every dataset of the default size over two weeks of start times', () => {
    const missing: string[] = [];
    const start = Date.parse('2026-11-16T00:00:00Z'); // a Monday
    for (let hour = 0; hour < 14 * 24; hour += 5) {
      const now = start + hour * 3_600_000;
      const data = new Dataset(
        { seed: 42, projects: 12, pipelinesPerDay: 6, days: 14, groupPath: 'acme', now },
        new ManualClock(now),
      );
      for (const [name, scenario] of Object.entries(data.scenarios))
        if (scenario === null) missing.push(`${name} at ${new Date(now).toISOString()}`);
    }
    expect(missing).toEqual([]);
  });

  // Group health counts a flake once per commit and job (a commit whose job failed and passed),
  // so two retried pipelines on one commit would be one flake, not the two the scenario promises
  // (a web-triggered and an API-triggered pipeline on an unchanged main did that on 2026-11-23).
  it('puts every flaky retry in a finished pipeline on its own commit, in a project otherwise green all week', () => {
    const shared: string[] = [];
    const start = Date.parse('2026-11-16T00:00:00Z');
    for (let hour = 0; hour < 14 * 24; hour += 1) {
      const now = start + hour * 3_600_000;
      const data = new Dataset(
        { seed: 42, projects: 12, pipelinesPerDay: 6, days: 14, groupPath: 'acme', now },
        new ManualClock(now),
      );
      const flaky = data.scenarios.flaky!;
      const shas = flaky.pipelineIds.map((id) => data.pipelineById.get(id)!.sha);
      if (new Set(shas).size !== shas.length) shared.push(new Date(now).toISOString());
      // Finished, so health sees the retry (a pipeline nine minutes old was still running).
      const running = flaky.pipelineIds.filter(
        (id) => data.pipelineById.get(id)!.status !== 'success',
      );
      if (running.length > 0)
        shared.push(`${new Date(now).toISOString()}: ${running.length} not finished`);
      // Nothing else of that project failed this week: a failed tag pipeline on a commit main
      // also passed on was a second, unplanned kind of flake.
      const failed = [...data.pipelineById.values()].filter(
        (p) =>
          p.projectId === flaky.projectId &&
          p.createdAt >= now - 8 * 86_400_000 &&
          p.status === 'failed' &&
          // The triage scenario's MR failing on the flaky job (server/simulator/triage-scenarios.ts).
          !data.triage.mergeRequests.some((m) => m.pipelineId === p.id),
      );
      if (failed.length > 0) shared.push(`${new Date(now).toISOString()}: ${failed.length} failed`);
    }
    expect(shared).toEqual([]);
  });
});
