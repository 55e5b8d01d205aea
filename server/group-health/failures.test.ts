import { describe, expect, it } from 'vitest';
import { HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { listFailures, type FailureFilter } from './failures.ts';
import { FlakeIndex } from './flaky-jobs.ts';
import { HealthIndex } from './health-index.ts';

const WEEK_MS = 7 * 86_400_000;

function history() {
  const b = new HistoryBuilder().project(1, 'api').project(2, 'web');
  // api's `test` flaked (failed, then passed on retry) so its failures are marked flaky.
  b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 900,
    jobs: [
      { name: 'test', status: 'failed' },
      { name: 'test', status: 'success' },
    ],
  });
  const flakyFail = b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 800,
    username: 'bob',
    jobs: [
      { name: 'test', status: 'failed' },
      { name: 'lint', status: 'failed', allowFailure: true },
    ],
  });
  // Run again on the same commit, `test` passed: that failure was a flake.
  b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 750,
    sha: `sha${flakyFail}`,
    jobs: [{ name: 'test', status: 'success' }],
  });
  const realFail = b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 700,
    ref: 'refs/merge-requests/439/head',
    jobs: [
      { name: 'test', status: 'failed' },
      { name: 'build', status: 'failed', failureReason: 'runner_system_failure' },
    ],
  });
  const webFail = b.pipeline({
    projectId: 2,
    status: 'failed',
    minutesAgo: 60,
    ref: 'feature/x',
    source: 'web',
    jobs: [{ name: 'test', status: 'failed' }],
  });
  b.pipeline({ projectId: 2, status: 'failed', minutesAgo: 8 * 24 * 60 }); // before the window
  b.pipeline({ projectId: 2, status: 'success', minutesAgo: 30 });
  const index = new HealthIndex({
    snapshot: b.build(),
    now: b.now,
    windowMs: WEEK_MS,
    since: '7d',
  });
  const list = (filter: Partial<FailureFilter>) =>
    listFailures(index, new FlakeIndex(index), { page: 1, pageSize: 20, ...filter });
  return { b, list, flakyFail, realFail, webFail };
}

describe('listFailures', () => {
  it('lists every failed pipeline in the window, newest first, with flaky marks', () => {
    const { list, flakyFail, realFail, webFail } = history();
    const all = list({});
    expect(all.failures.map((f) => [f.pipeline.pipeline_id, f.flaky])).toEqual([
      [webFail, false],
      [realFail, false],
      [flakyFail, true],
    ]);
    expect(all.pagination).toEqual({ currentPage: 1, pageSize: 20, totalPages: 1, totalCount: 3 });
    const real = all.failures[1]!;
    expect(
      real.failed_jobs.map((j) => [j.name, j.flaky, j.passed_on_same_commit, j.failure_reason]),
    ).toEqual([
      ['test', true, false, 'script_failure'],
      ['build', false, false, 'runner_system_failure'],
    ]);
    expect(real.pipeline).toMatchObject({
      ref_label: '!439',
      merge_request: { iid: 439, title: null },
    });
    expect(real.default_branch).toBe(false);
    // The allowed-to-fail lint does not stop the test-only failure from being flaky.
    expect(all.failures[2]!.failed_jobs.map((j) => [j.name, j.passed_on_same_commit])).toEqual([
      ['test', true],
      ['lint', false],
    ]);
  });

  it('filters by project, ref (branch or !iid), source, user, flakiness and time', () => {
    const { b, list, flakyFail, realFail, webFail } = history();
    const ids = (filter: Partial<FailureFilter>) =>
      list(filter).failures.map((f) => f.pipeline.pipeline_id);
    expect(ids({ projectId: 2 })).toEqual([webFail]);
    expect(ids({ ref: '!439' })).toEqual([realFail]);
    expect(ids({ ref: 'refs/merge-requests/439/head' })).toEqual([realFail]);
    expect(ids({ ref: 'main' })).toEqual([flakyFail]);
    expect(ids({ source: 'web' })).toEqual([webFail]);
    expect(ids({ username: 'bob' })).toEqual([flakyFail]);
    expect(ids({ flaky: true })).toEqual([flakyFail]);
    expect(ids({ flaky: false })).toEqual([webFail, realFail]);
    // One overview bar: [from, to).
    expect(ids({ from: b.now - 750 * 60_000, to: b.now - 60 * 60_000 })).toEqual([realFail]);
  });

  it('pages', () => {
    const { list, realFail } = history();
    const page = list({ page: 2, pageSize: 1 });
    expect(page.failures.map((f) => f.pipeline.pipeline_id)).toEqual([realFail]);
    expect(page.pagination).toEqual({ currentPage: 2, pageSize: 1, totalPages: 3, totalCount: 3 });
    expect(list({ page: 9, pageSize: 1 }).failures).toEqual([]);
  });
});
