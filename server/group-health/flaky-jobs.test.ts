import { describe, expect, it } from 'vitest';
import { HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { FlakeIndex, flakeHistory, flakyJobs } from './flaky-jobs.ts';
import { HealthIndex } from './health-index.ts';

const WEEK_MS = 7 * 86_400_000;

function history() {
  const b = new HistoryBuilder().project(1, 'api').project(2, 'web');
  const ok = { name: 'lint', status: 'success' };
  // api: a retry that passed (flake), a same-commit pass (flake), a real failure, a double retry.
  const retried = b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 600,
    jobs: [ok, { name: 'test', status: 'failed' }, { name: 'test', status: 'success' }],
  });
  const sameCommitFail = b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 500,
    sha: 'abc',
    ref: 'feature/a',
    jobs: [{ name: 'e2e', status: 'failed' }],
  });
  b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 400,
    sha: 'abc',
    ref: 'refs/merge-requests/7/head',
    jobs: [{ name: 'e2e', status: 'success' }],
  });
  const real = b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 300,
    sha: 'def',
    jobs: [{ name: 'test', status: 'failed' }],
  });
  const twice = b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 200,
    jobs: [
      { name: 'test', status: 'failed' },
      { name: 'test', status: 'failed' },
      { name: 'test', status: 'success' },
    ],
  });
  // web: one retry flake; one flake older than the window.
  const web = b.pipeline({
    projectId: 2,
    status: 'success',
    minutesAgo: 100,
    jobs: [{ name: 'test', status: 'failed' }, { name: 'test', status: 'success' }, ok],
  });
  b.pipeline({
    projectId: 2,
    status: 'success',
    minutesAgo: 8 * 24 * 60,
    jobs: [
      { name: 'test', status: 'failed' },
      { name: 'test', status: 'success' },
    ],
  });
  return { b, retried, sameCommitFail, real, twice, web };
}

const indexOf = (b: HistoryBuilder) =>
  new HealthIndex({ snapshot: b.build(), now: b.now, windowMs: WEEK_MS, since: '7d' });

describe('flaky jobs', () => {
  it('finds retry and same-commit flakes, once per commit, inside the window', () => {
    const { b, retried, sameCommitFail, twice, web } = history();
    const flakes = new FlakeIndex(indexOf(b));
    expect(
      flakes.events.map((e) => [e.projectId, e.jobName, e.kind, e.pipeline.pipelineId]),
    ).toEqual([
      [2, 'test', 'retry', web],
      [1, 'test', 'retry', twice],
      [1, 'e2e', 'same-commit', sameCommitFail],
      [1, 'test', 'retry', retried],
    ]);
    expect(flakes.isFlaky(1, 'test')).toBe(true);
    expect(flakes.isFlaky(1, 'lint')).toBe(false);
    expect(flakes.isFlaky(2, 'e2e')).toBe(false);
  });

  it('reports per job name: count, rate over runs, last flake and projects affected', () => {
    const { b, web } = history();
    const index = indexOf(b);
    const report = flakyJobs(index, new FlakeIndex(index));
    expect(report.jobs.map((j) => [j.job_name, j.flakes, j.runs, j.flake_rate])).toEqual([
      // test ran in 3 api pipelines and 1 web pipeline in the window (retries folded).
      ['test', 3, 4, 75],
      ['e2e', 1, 2, 50],
    ]);
    const test = report.jobs[0]!;
    expect(test.last_flake).toMatchObject({
      project_name: 'web',
      pipeline_id: web,
      kind: 'retry',
      // The passing retry finished 60 s after its start, 10 s after the pipeline's creation.
      at: '2026-11-21T10:21:10.000Z',
    });
    expect(test.projects).toEqual([
      { project_id: 1, project_name: 'api', flakes: 2 },
      { project_id: 2, project_name: 'web', flakes: 1 },
    ]);
  });

  it('words a job’s flake history for the AI prompt', () => {
    const { b } = history();
    const flakes = new FlakeIndex(indexOf(b));
    expect(flakeHistory(flakes, 1, 'test', 'this week')).toEqual({
      flakes: 2,
      runs: 3,
      lastFlakeAt: '2026-11-21T08:41:10.000Z',
      summary: 'failed and passed on retry 2 times this week (3 runs)',
    });
    expect(flakeHistory(flakes, 1, 'e2e', 'this week').summary).toBe(
      'failed and passed on the same commit once this week (2 runs)',
    );
    expect(flakeHistory(flakes, 1, 'lint', 'this week').summary).toBe(
      'had no flake in 1 runs this week',
    );
  });
});
