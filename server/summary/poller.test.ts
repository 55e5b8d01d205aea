import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { silentLogger } from '../platform/logger.ts';
import { PipelinePoller } from './poller.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import { FakeGitLab } from '../gitlab/testing/fake-gitlab.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

function setup() {
  const clock = new ManualClock(NOW);
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  gitlab.addProject(2, 'web');
  gitlab.addPipeline(1, 11, iso(NOW - 2 * HOUR), 'success', 100);
  gitlab.addPipeline(1, 12, iso(NOW - HOUR), 'failed', 50);
  gitlab.addPipeline(2, 21, iso(NOW - 3 * HOUR), 'running');
  gitlab.addPipeline(2, 20, iso(NOW - 9 * 24 * HOUR), 'success'); // outside a 7d window
  const published: string[] = [];
  const poller = new PipelinePoller({
    gitlab,
    clock,
    logger: silentLogger,
    group: 'acme',
    since: '7d',
    onChange: (json) => published.push(json),
  });
  return { clock, gitlab, poller, published };
}

describe('PipelinePoller', () => {
  it('first load lists projects and pipelines in the window, then fetches details once each', async () => {
    const { gitlab, poller } = setup();
    await poller.cycleOnce();
    await poller.detailsSettled();
    expect(gitlab.callCount('listGroupProjects')).toBe(1);
    expect(gitlab.callCount('listPipelines')).toBe(2);
    expect(gitlab.callCount('getPipeline')).toBe(3); // 20 is outside the window
    const { summary, projects, status } = poller.snapshot;
    expect(summary).toEqual({
      total_pipelines: 3,
      successful: 1,
      failed: 1,
      running: 1,
      average_duration: 75,
      overall_success_rate: 50,
    });
    expect(projects.map((p) => p.project_name)).toEqual(['api', 'web']);
    expect(projects[0]!.recent_pipelines[0]!.user?.username).toBe('ada');
    expect(status?.state).toBe('ok');
  });

  it('steady cycles ask each project once and fetch no details when nothing changed', async () => {
    const { gitlab, poller } = setup();
    await poller.cycleOnce();
    await poller.detailsSettled();
    gitlab.resetCalls();
    await poller.cycleOnce();
    await poller.detailsSettled();
    expect(gitlab.callCount('listPipelines')).toBe(2);
    expect(gitlab.callCount('getPipeline')).toBe(0);
    expect(gitlab.callCount()).toBe(2);
  });

  it('fetches details only for the pipeline that changed and publishes only on change', async () => {
    const { gitlab, poller, published, clock } = setup();
    await poller.cycleOnce();
    await poller.detailsSettled();
    clock.advance(150); // throttled recompute after details
    const before = published.length;
    await poller.cycleOnce();
    expect(published.length).toBe(before); // unchanged: no new update
    clock.advance(60_000);
    gitlab.update(2, 21, { status: 'success', duration: 300, updated_at: iso(clock.now()) });
    gitlab.resetCalls();
    await poller.cycleOnce();
    await poller.detailsSettled();
    clock.advance(150);
    expect(gitlab.callCount('getPipeline')).toBe(1);
    expect(published.length).toBeGreaterThan(before);
    expect(poller.snapshot.summary).toMatchObject({
      successful: 2,
      running: 0,
      average_duration: 150,
    });
  });

  it('sees new pipelines through updated_after and drops pipelines that age out of the window', async () => {
    const { gitlab, poller, clock } = setup();
    await poller.cycleOnce();
    await poller.detailsSettled();
    clock.advance(HOUR);
    gitlab.addPipeline(1, 13, iso(clock.now()), 'pending');
    await poller.cycleOnce();
    expect(poller.snapshot.summary.total_pipelines).toBe(4);
    expect(poller.snapshot.summary.running).toBe(2);
    clock.advance(7 * 24 * HOUR - 2 * HOUR); // 11 (created 3h before the new now - 7d) falls out
    await poller.cycleOnce();
    expect(
      poller.snapshot.projects
        .find((p) => p.project_name === 'api')!
        .recent_pipelines.map((p) => p.pipeline_id),
    ).toEqual([13, 12]);
  });

  it('keeps serving the last good summary while GitLab fails, and says so', async () => {
    const { gitlab, poller } = setup();
    await poller.cycleOnce();
    await poller.detailsSettled();
    const good = poller.snapshot.summary;
    gitlab.failWith = new AppError(
      'upstream_unavailable',
      'GitLab at https://gitlab.test answered 503',
    );
    await expect(poller.cycleOnce()).rejects.toThrow(/503/);
    expect(poller.snapshot.summary).toEqual(good);
  });

  it('reports a degraded state and backs off in the background loop', async () => {
    const { gitlab, poller } = setup();
    gitlab.failWith = new AppError('unauthorized', 'GitLab rejected the token (401)');
    const sleeps: number[] = [];
    const p2 = new PipelinePoller({
      gitlab,
      clock: new ManualClock(NOW),
      logger: silentLogger,
      group: 'acme',
      since: '7d',
      timing: { fastIntervalMs: 1000 },
      sleep: async (ms, signal) => {
        sleeps.push(ms);
        if (sleeps.length >= 3)
          await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      },
    });
    p2.start();
    await new Promise((r) => setTimeout(r, 20));
    expect(p2.status).toMatchObject({
      state: 'degraded',
      last_error: 'GitLab rejected the token (401)',
    });
    expect(sleeps.slice(0, 3)).toEqual([1000, 2000, 4000]);
    await p2.stop();
    void poller;
  });

  it('leaves out a project whose pipelines the token may not read, instead of failing the group', async () => {
    const { gitlab, poller } = setup();
    gitlab.forbidden.add(2);
    await poller.cycleOnce();
    expect(poller.snapshot.status?.state).toBe('ok');
    expect(poller.snapshot.projects.map((p) => p.project_name)).toEqual(['api']);
    gitlab.resetCalls();
    await poller.cycleOnce();
    expect(gitlab.callCount('listPipelines')).toBe(1); // not asked again until the project refresh
  });

  it('still fails the cycle when the token itself is rejected', async () => {
    const { gitlab, poller } = setup();
    await poller.cycleOnce();
    gitlab.failWith = new AppError('unauthorized', 'GitLab rejected the token (401)', {
      upstreamStatus: 401,
    });
    await expect(poller.cycleOnce()).rejects.toThrow(/401/);
    expect(poller.status.state).toBe('degraded');
  });

  it('re-targets at once when the group or window changes', async () => {
    const { poller } = setup();
    await poller.cycleOnce();
    poller.retarget({ since: '90m' });
    await poller.cycleOnce();
    expect(poller.snapshot.summary.total_pipelines).toBe(1);
    expect(poller.target).toEqual({ group: 'acme', since: '90m' });
    poller.retarget({ group: 'other' });
    expect(poller.snapshot.projects).toEqual([]);
    expect(poller.snapshot.status?.state).toBe('loading');
    expect(() => poller.retarget({ since: 'soon' })).toThrow(/Invalid since/);
  });

  it('reads the failing job and commit title of a recent failed pipeline once, and pushes activity with the summary', async () => {
    const { gitlab } = setup();
    const pushed: [string, string][] = [];
    const withActivity = new PipelinePoller({
      gitlab,
      clock: new ManualClock(NOW),
      logger: silentLogger,
      group: 'acme',
      since: '7d',
      onChange: (summary, activity) => pushed.push([summary, activity]),
    });
    const job = (id: number, status: GitLabJob['status'], allowFailure = false) =>
      ({
        id,
        name: `job-${id}`,
        stage: 'test',
        status,
        allow_failure: allowFailure,
        commit: { title: 'Bump the parser' },
      }) as GitLabJob;
    // An allowed failure comes first by id; the job to open is the first one not allowed to fail.
    (gitlab as GitLabApi).listPipelineJobs = async (_projectId, pipelineId) => {
      (gitlab as unknown as { record(m: string, arg: number): void }).record(
        'listPipelineJobs',
        pipelineId,
      );
      return pipelineId === 12
        ? [job(121, 'success'), job(122, 'failed', true), job(123, 'failed')]
        : [];
    };
    await withActivity.cycleOnce();
    await withActivity.detailsSettled();
    expect(gitlab.callCount('listPipelineJobs')).toBe(1); // only the failed pipeline
    const failed = withActivity.snapshot.projects[0]!.recent_pipelines.find(
      (p) => p.pipeline_id === 12,
    )!;
    expect(failed).toMatchObject({ failing_job_id: 123, commit_title: 'Bump the parser' });

    await new Promise((r) => setTimeout(r, 150)); // throttled recompute after details
    const [summaryJson, activityJson] = pushed.at(-1)!;
    expect(JSON.parse(summaryJson).summary.total_pipelines).toBe(3);
    const activity = JSON.parse(activityJson) as ReturnType<PipelinePoller['activity']>;
    expect(activity).toEqual(withActivity.activity());
    const counted = activity.buckets.reduce(
      (n, b) => n + b.success + b.failed + b.running + b.other,
      0,
    );
    expect(counted).toBe(3);

    gitlab.resetCalls();
    await withActivity.cycleOnce();
    await withActivity.detailsSettled();
    expect(gitlab.callCount('listPipelineJobs')).toBe(0); // a failed pipeline changes only when retried
  });
});
