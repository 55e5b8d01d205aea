import { describe, expect, it } from 'vitest';
import { HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { defaultBranchHealth, timeToFixStats } from './default-branch.ts';
import { HealthIndex } from './health-index.ts';

const WEEK_MS = 7 * 86_400_000;

function group() {
  const b = new HistoryBuilder()
    .project(1, 'api')
    .project(2, 'web', 'master')
    .project(3, 'docs')
    .project(4, 'cli');
  // api: broken, fixed (3 h after it broke), broken again two hours ago.
  b.pipeline({ projectId: 1, status: 'success', minutesAgo: 4320 });
  b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 2880, commitTitle: 'Bump deps' });
  b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 2800 });
  b.pipeline({ projectId: 1, status: 'success', minutesAgo: 2700 });
  const broke = b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 120,
    commitTitle: 'Refactor auth',
    commitAuthor: 'Carol',
    username: 'carol',
    jobs: [
      { name: 'lint', status: 'failed', allowFailure: true },
      { name: 'unit-tests', status: 'failed', failureReason: 'script_failure' },
      { name: 'unit-tests', status: 'failed', failureReason: 'script_failure' },
      { name: 'build', status: 'success' },
    ],
  });
  const failedAfter = b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 60 });
  const running = b.pipeline({ projectId: 1, status: 'running', minutesAgo: 30 });
  b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 50,
    ref: 'refs/merge-requests/439/head',
  });
  b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 40,
    ref: 'refs/merge-requests/439/head',
  });
  b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 45, ref: 'feature/x' });
  // web: red, then green 90 minutes later; a canceled pipeline says nothing.
  b.pipeline({ projectId: 2, status: 'failed', minutesAgo: 100, ref: 'master' });
  b.pipeline({ projectId: 2, status: 'success', minutesAgo: 10, ref: 'master' });
  b.pipeline({ projectId: 2, status: 'canceled', minutesAgo: 5, ref: 'master' });
  // cli: red for ten days (before the window), nothing since.
  const cliBroke = b.pipeline({ projectId: 4, status: 'failed', minutesAgo: 14_400 });
  return { b, broke, failedAfter, running, cliBroke };
}

describe('defaultBranchHealth', () => {
  it('orders broken first and says since when, by whom, and what ran since', () => {
    const { b, broke, failedAfter, running, cliBroke } = group();
    const health = defaultBranchHealth(
      new HealthIndex({ snapshot: b.build(), now: b.now, windowMs: WEEK_MS, since: '7d' }),
    );
    expect(health.projects.map((p) => [p.project_name, p.state])).toEqual([
      ['cli', 'broken'],
      ['api', 'broken'],
      ['web', 'passing'],
      ['docs', 'unknown'],
    ]);
    expect([health.broken, health.passing, health.unknown]).toEqual([2, 1, 1]);
    const cli = health.projects[0]!;
    expect(cli.broken_since?.pipeline_id).toBe(cliBroke);
    expect(cli.broken_for_seconds).toBe(864_000);
    const api = health.projects[1]!;
    expect(api.broken_since).toMatchObject({
      pipeline_id: broke,
      commit_title: 'Refactor auth',
      commit_author: 'Carol',
      created_at: '2026-11-21T10:00:00.000Z',
      ref_label: 'main',
    });
    expect(api.broken_for_seconds).toBe(7200);
    // Which job broke it (issue 30, item 2): the blocking failure first, the retried attempt once.
    expect(api.broken_jobs!.map((j) => [j.name, j.allow_failure, j.failure_reason])).toEqual([
      ['unit-tests', false, 'script_failure'],
      ['lint', true, 'script_failure'],
    ]);
    expect(cli.broken_jobs).toEqual([]);
    expect(api.pipelines_since.map((p) => p.pipeline_id)).toEqual([running, failedAfter]);
    expect(api.pipelines_since_count).toBe(2);
    expect(api.latest?.pipeline_id).toBe(running);
    const web = health.projects[2]!;
    expect(web).toMatchObject({
      broken_since: null,
      broken_jobs: [],
      broken_for_seconds: null,
      default_branch: 'master',
    });
    expect(web.latest?.status).toBe('canceled');
  });

  it('measures time to fix from the breaking pipeline to the green one finishing', () => {
    const { b } = group();
    const health = defaultBranchHealth(
      new HealthIndex({ snapshot: b.build(), now: b.now, windowMs: WEEK_MS, since: '7d' }),
    );
    // api: broke 2880 min ago, fixed by the pipeline created 2700 min ago (+30 s queue +600 s run).
    expect(health.projects[1]!.time_to_fix).toEqual({
      fixes: 1,
      median_seconds: 11_430,
      p90_seconds: 11_430,
      max_seconds: 11_430,
      mean_seconds: 11_430,
    });
    // web: 90 min + 630 s.
    expect(health.projects[2]!.time_to_fix.median_seconds).toBe(6030);
    expect(health.time_to_fix).toEqual({
      fixes: 2,
      median_seconds: 8730,
      p90_seconds: 11_430,
      max_seconds: 11_430,
      mean_seconds: 8730,
    });
    expect(health.projects[0]!.time_to_fix.fixes).toBe(0);
    // A one-day window leaves out the api fix of two days ago.
    const day = defaultBranchHealth(
      new HealthIndex({ snapshot: b.build(), now: b.now, windowMs: 86_400_000, since: '1d' }),
    );
    expect(day.time_to_fix.fixes).toBe(1);
  });

  it('splits success rates: default branch only, merge requests only, all (§3.1 formula)', () => {
    const { b } = group();
    const health = defaultBranchHealth(
      new HealthIndex({ snapshot: b.build(), now: b.now, windowMs: WEEK_MS, since: '7d' }),
    );
    expect(health.projects[1]!.success_rates).toEqual({
      default_branch: { successful: 2, failed: 4, success_rate: 33.3 },
      merge_requests: { successful: 1, failed: 1, success_rate: 50 },
      all: { successful: 3, failed: 6, success_rate: 33.3 },
    });
    // cli's failure is older than the window: no rate at all, and 0 by §3.1 when nothing finished.
    expect(health.projects[0]!.success_rates.all).toEqual({
      successful: 0,
      failed: 0,
      success_rate: 0,
    });
    expect(health.success_rates.all).toEqual({ successful: 4, failed: 7, success_rate: 36.4 });
  });

  it('labels merge-request pipelines !iid with the looked-up title and link', () => {
    const { b } = group();
    const index = new HealthIndex({
      snapshot: b.build(),
      now: b.now,
      windowMs: WEEK_MS,
      since: '7d',
      mergeRequests: (projectId, iid) =>
        projectId === 1 && iid === 439
          ? { title: 'Add SSO', webUrl: 'https://gitlab.example/acme/api/-/merge_requests/439' }
          : undefined,
    });
    const mr = b.build().pipelines.find((p) => p.ref === 'refs/merge-requests/439/head')!;
    expect(index.toHealthPipeline(mr)).toMatchObject({
      ref_label: '!439',
      merge_request: {
        iid: 439,
        title: 'Add SSO',
        web_url: 'https://gitlab.example/acme/api/-/merge_requests/439',
      },
    });
  });

  it('summarises no fixes as nulls', () => {
    expect(timeToFixStats([])).toEqual({
      fixes: 0,
      median_seconds: null,
      p90_seconds: null,
      max_seconds: null,
      mean_seconds: null,
    });
    expect(timeToFixStats([100, 10, 50, 40]).median_seconds).toBe(45);
    expect(timeToFixStats([100, 10, 50, 40]).p90_seconds).toBe(100);
  });
});
