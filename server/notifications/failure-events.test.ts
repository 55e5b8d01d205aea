import { describe, expect, it } from 'vitest';
import type { NotificationSettings, PipelineEvent } from '../contract.ts';
import { FakeGitLab } from '../gitlab/testing/fake-gitlab.ts';
import { failedJob } from '../gitlab/testing/wire-fixtures.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { MemorySettingsStore } from '../settings/settings-store.ts';
import { PipelinePoller } from '../summary/poller.ts';
import { describeEvent, FailureEvents, type FailureEventsDeps } from './failure-events.ts';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  inQuietHours,
  readNotificationSettings,
  updateNotificationSettings,
} from './notification-settings.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const OTHER = {
  id: 99,
  username: 'lin',
  name: 'Lin',
  state: 'active',
  avatar_url: '',
  web_url: '',
};

function job(
  gitlab: FakeGitLab,
  projectId: number,
  pipelineId: number,
  over: Partial<GitLabJob> = {},
) {
  const j: GitLabJob = {
    ...failedJob({
      id: pipelineId * 10 + gitlab.jobs.length,
      created_at: iso(NOW),
      started_at: iso(NOW),
      finished_at: iso(NOW),
      duration: 10,
      queued_duration: 1,
      web_url: `https://gitlab.test/jobs/${pipelineId}`,
      commit: {
        id: `sha${pipelineId}`,
        short_id: 'sha',
        title: `Commit of ${pipelineId}`,
        message: '',
        author_name: 'Someone',
        author_email: 'someone@example.com',
        created_at: iso(NOW),
      },
      pipeline: {
        id: pipelineId,
        project_id: projectId,
        ref: 'main',
        sha: `sha${pipelineId}`,
        status: 'failed',
      },
    }),
    ...over,
  };
  gitlab.jobs.push(j);
  return j;
}

function setup(
  settings: Partial<NotificationSettings> = {},
  burstThreshold = 4,
  extra: Partial<FailureEventsDeps> = {},
) {
  const clock = new ManualClock(NOW);
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  gitlab.addProject(2, 'web');
  gitlab.addProject(3, 'docs');
  // Failing at start-up on the default branch: history, never a notification.
  gitlab.addPipeline(1, 10, iso(NOW - 3_600_000), 'failed');
  job(gitlab, 1, 10);
  const store = new MemorySettingsStore();
  updateNotificationSettings(store, settings);
  const events: PipelineEvent[] = [];
  const poller = new PipelinePoller({
    gitlab,
    clock,
    logger: silentLogger,
    group: 'acme',
    since: '7d',
    mergeRequests: (projectId, iid) =>
      iid === 406
        ? { title: 'Fix the search index', webUrl: 'https://gitlab.test/mr/406' }
        : undefined,
  });
  const failures = new FailureEvents({
    gitlab,
    clock,
    logger: silentLogger,
    settings: () => readNotificationSettings(store),
    emit: (e) => events.push(e),
    isWatched: (id) => poller.projectName(id) !== undefined,
    refLabel: poller.refLabel,
    pipeline: poller.pipelineRecord,
    burstThreshold,
    ...extra,
  });
  poller.onPipelineChanges((c) => failures.observe(c));
  const cycle = async () => {
    clock.advance(10_000);
    await poller.cycleOnce();
    await failures.settle();
  };
  /** A new pipeline that fails in the next cycle (its jobs carry the commit). */
  const fail = (
    projectId: number,
    id: number,
    over: { ref?: string; user?: typeof OTHER; email?: string; reason?: string } = {},
  ) => {
    gitlab.addPipeline(projectId, id, iso(clock.now() + 1_000), 'failed', 60, {
      ref: over.ref ?? 'main',
      user: over.user ?? OTHER,
    });
    const j = job(gitlab, projectId, id, { failure_reason: over.reason ?? 'script_failure' });
    if (over.email) j.commit!.author_email = over.email;
  };
  return { clock, gitlab, store, events, poller, failures, cycle, fail };
}

describe('failure events', () => {
  it('announces nothing for pipelines already failed at start-up, but counts their ref as failing', async () => {
    const t = setup();
    await t.cycle();
    await t.cycle();
    expect(t.events).toEqual([]);
    const state = t.failures.state();
    expect(state.failing.map((f) => [f.pipeline_id, f.reasons])).toEqual([
      [10, ['default-branch']],
    ]);
  });

  it('fills a failing ref from what the summary knows: source, user, commit, failing job (issue 30)', async () => {
    const t = setup();
    await t.cycle();
    await t.poller.detailsSettled();
    const [failing] = t.failures.state().failing;
    expect(failing).toMatchObject({
      pipeline_id: 10,
      source: 'push',
      user: { username: 'ada', name: 'Ada Lovelace' },
      commit_title: 'Commit of 10',
      failed_jobs: [{ id: 100, stage: 'test', failure_reason: 'script_failure' }],
      ref_label: 'main',
      merge_request: null,
    });
    expect(failing!.failed_jobs[0]!.name).toBeTruthy();
  });

  it('names a merge request `!iid` with its title in events and state (issue 30, item 1)', async () => {
    const t = setup({ reasons: { mine: true, 'default-branch': true, watched: true } }, 10);
    await t.cycle();
    const ref = 'refs/merge-requests/406/head';
    updateNotificationSettings(t.store, { starred_projects: [2] });
    t.fail(2, 70, { ref });
    await t.cycle();
    t.gitlab.addPipeline(2, 71, iso(t.clock.now() + 1_000), 'success', 60, { ref });
    await t.cycle();
    expect(t.events.map((e) => e.title)).toEqual([
      'web: pipeline #70 failed on !406 (Fix the search index)',
      'web: !406 (Fix the search index) is green again (#71)',
    ]);
    expect(t.events[0]!.pipelines[0]).toMatchObject({
      ref,
      ref_label: '!406',
      merge_request: { iid: 406, title: 'Fix the search index' },
    });
  });

  it('learns what was failing from a warm start without announcing it', async () => {
    const t = setup();
    t.poller.restore({
      projects: [
        {
          id: 1,
          name: 'api',
          path: 'acme/api',
          webUrl: 'https://gitlab.test/acme/api',
          defaultBranch: 'main',
        },
      ],
      pipelines: [
        {
          id: 10,
          projectId: 1,
          status: 'failed',
          ref: 'main',
          source: 'push',
          createdAt: NOW - 3_600_000,
          updatedAt: iso(NOW - 3_600_000),
          webUrl: 'https://gitlab.test/acme/api/-/pipelines/10',
          duration: 60,
          user: null,
          detailsFor: iso(NOW - 3_600_000),
        },
      ],
      projectsReadAt: NOW,
    });
    expect(t.failures.state().failing.map((f) => f.pipeline_id)).toEqual([10]);
    await t.cycle();
    expect(t.events).toEqual([]);
  });

  it('forgets failing refs of projects no longer watched', async () => {
    const t = setup();
    await t.cycle();
    expect(t.failures.state().failing).toHaveLength(1);
    t.gitlab.projects = t.gitlab.projects.filter((p) => p.id !== 1);
    t.clock.advance(300_000); // the next project refresh
    await t.cycle();
    expect(t.failures.state()).toMatchObject({ failing: [], recent: [] });
  });

  it('tells mine (triggered by me or authored with my email), default branch and starred projects apart', async () => {
    const t = setup({ starred_projects: [3] }, 10);
    await t.cycle();
    t.fail(2, 20, { ref: 'feature/a', user: { ...OTHER, id: 7, username: 'ada' } }); // mine: triggered
    t.fail(2, 21, { ref: 'feature/b', email: 'ADA@example.com' }); // mine: authored
    t.fail(1, 22); // default branch, someone else's
    t.fail(3, 30, { ref: 'feature/c' }); // starred project
    t.fail(2, 23, { ref: 'feature/d' }); // none of these: not news
    await t.cycle();
    const byPipeline = Object.fromEntries(
      t.events.flatMap((e) => e.pipelines).map((p) => [p.pipeline_id, p.reasons]),
    );
    expect(byPipeline).toEqual({
      20: ['mine'],
      21: ['mine'],
      22: ['default-branch'],
      30: ['watched'],
    });
    const mine = t.events.find((e) => e.pipelines[0]!.pipeline_id === 20)!;
    expect(mine).toMatchObject({
      event: 'pipeline-failed',
      coalesced: false,
      notify: true,
      title: 'web: pipeline #20 failed on feature/a',
    });
    expect(mine.pipelines[0]).toMatchObject({
      project_path: 'acme/web',
      source: 'push',
      commit_title: 'Commit of 20',
      user: { username: 'ada' },
      failed_jobs: [{ name: 'test:unit', stage: 'test', failure_reason: 'script_failure' }],
    });
    expect(mine.body).toBe('Commit of 20 — Failed: test:unit — (yours)');
  });

  it("carries the verdict of the user's own failures, judged against the default branch (issue 27)", async () => {
    const asked: unknown[] = [];
    const t = setup({}, 10, {
      jobVerdicts: async (projectId, pipelineId, jobs, target) => {
        asked.push([projectId, pipelineId, jobs.map((j) => j.name), target]);
        return new Map(
          jobs.map((j) => [
            j.id,
            {
              verdict: 'flaky' as const,
              evidence: {
                text: `\`${j.name}\` failed and passed on retry 4 times this week (31 runs)`,
              },
            },
          ]),
        );
      },
    });
    await t.cycle();
    t.fail(2, 20, { ref: 'feature/a', user: { ...OTHER, id: 7, username: 'ada' } }); // mine
    t.fail(1, 22); // default branch, someone else's: no verdict asked
    await t.cycle();
    expect(asked).toEqual([[2, 20, ['test:unit'], 'main']]);
    const mine = t.events.find((e) => e.pipelines[0]!.pipeline_id === 20)!;
    expect(mine.body).toBe(
      'Commit of 20 — Failed: test:unit (flaky — failed and passed on retry 4 times this week (31 runs)) — (yours)',
    );
    expect(mine.pipelines[0]!.failed_jobs[0]).toMatchObject({
      verdict: 'flaky',
      verdict_evidence: 'failed and passed on retry 4 times this week (31 runs)',
    });
    const other = t.events.find((e) => e.pipelines[0]!.pipeline_id === 22)!;
    expect(other.pipelines[0]!.failed_jobs[0]!.verdict).toBeUndefined();
  });

  it('announces a pipeline once, even when it is retried and fails again', async () => {
    const t = setup();
    await t.cycle();
    t.fail(1, 40);
    await t.cycle();
    t.gitlab.update(1, 40, { status: 'running', updated_at: iso(t.clock.now() + 1_000) });
    await t.cycle();
    t.gitlab.update(1, 40, { status: 'failed', updated_at: iso(t.clock.now() + 1_000) });
    await t.cycle();
    expect(t.events.map((e) => e.pipelines.map((p) => p.pipeline_id))).toEqual([[40]]);
  });

  it('coalesces a burst into one notification that suspects the runners', async () => {
    const t = setup();
    await t.cycle();
    for (let i = 0; i < 6; i++) t.fail(1 + (i % 3), 50 + i, { reason: 'runner_system_failure' });
    await t.cycle();
    expect(t.events).toHaveLength(1);
    expect(t.events[0]).toMatchObject({
      coalesced: true,
      title: '6 pipelines failed in 3 projects — runner unavailable?',
      body: 'api, web, docs',
    });
    expect(t.events[0]!.pipelines).toHaveLength(6);
  });

  it('names the error a burst shares, from the failure signatures, instead of guessing (issue 27)', async () => {
    const asked: number[] = [];
    const t = setup({}, 4, {
      jobSignatures: async (_projectId, pipelineId, jobs) => {
        asked.push(pipelineId);
        // Five of the six pipelines hit the same registry outage; one has a test failure.
        const signature =
          pipelineId === 55
            ? { signature: 'test_failure: E assert # == #', sampleLine: 'E assert 1 == 2' }
            : {
                signature: 'dependency_network: npm error code ECONNRESET',
                sampleLine: 'npm error code ECONNRESET',
              };
        return new Map(jobs.map((j) => [j.id, signature]));
      },
    });
    await t.cycle();
    // Runner-like failure reasons would suggest the runners; the logs say otherwise.
    for (let i = 0; i < 6; i++) t.fail(1 + (i % 3), 50 + i, { reason: 'runner_system_failure' });
    await t.cycle();
    expect(asked.sort()).toEqual([50, 51, 52, 53, 54, 55]);
    expect(t.events).toHaveLength(1);
    expect(t.events[0]).toMatchObject({
      coalesced: true,
      title: '6 pipelines failed in 3 projects — 5 with the same error: npm error code ECONNRESET',
      body: 'api, web, docs',
    });
    expect(t.events[0]!.pipelines.find((p) => p.pipeline_id === 50)!.failed_jobs).toEqual([
      expect.objectContaining({
        signature: 'dependency_network: npm error code ECONNRESET',
        sample_line: 'npm error code ECONNRESET',
      }),
    ]);
  });

  it('says "all with the same error" when every pipeline of a burst shares it', async () => {
    const t = setup({}, 4, {
      jobSignatures: async (_p, _id, jobs) =>
        new Map(
          jobs.map((j) => [
            j.id,
            {
              signature: 'permission_auth: HTTP Basic: Access denied',
              sampleLine: 'remote: HTTP Basic: Access denied',
            },
          ]),
        ),
    });
    await t.cycle();
    for (let i = 0; i < 4; i++) t.fail(1 + (i % 2), 80 + i);
    await t.cycle();
    expect(t.events.map((e) => e.title)).toEqual([
      '4 pipelines failed in 2 projects — all with the same error: remote: HTTP Basic: Access denied',
    ]);
  });

  it('announces a fixed ref once it passes again', async () => {
    const t = setup();
    await t.cycle();
    t.gitlab.addPipeline(1, 60, iso(t.clock.now() + 1_000), 'success');
    await t.cycle();
    expect(t.events.map((e) => [e.event, e.title])).toEqual([
      ['pipeline-fixed', 'api: main is green again (#60)'],
    ]);
    expect(t.failures.state().failing).toEqual([]);
  });

  it('keeps quiet for muted projects and switched-off reasons, and silent in quiet hours', async () => {
    const t = setup({
      muted_projects: [2],
      reasons: { ...DEFAULT_NOTIFICATION_SETTINGS.reasons, watched: false },
      starred_projects: [3],
    });
    await t.cycle();
    t.fail(2, 70); // muted
    t.fail(3, 71, { ref: 'feature/x' }); // watched, switched off
    await t.cycle();
    expect(t.events).toEqual([]);
    const hour = new Date(t.clock.now()).getHours();
    const pad = (h: number) => `${String((h + 24) % 24).padStart(2, '0')}:00`;
    updateNotificationSettings(t.store, {
      quiet_hours: { start: pad(hour - 1), end: pad(hour + 1) },
    });
    t.fail(1, 72);
    await t.cycle();
    expect(t.events.map((e) => e.notify)).toEqual([false]);
  });
});

describe('failure notification words', () => {
  it('names the failed tests when the pipeline has a JUnit report (issue 26)', () => {
    const item = {
      project_id: 1,
      project_name: 'web',
      project_path: 'acme/web',
      pipeline_id: 40,
      web_url: 'https://gitlab.example.com/acme/web/-/pipelines/40',
      ref: 'main',
      source: 'push',
      user: null,
      commit_title: 'Round prices',
      failed_jobs: [
        { id: 400, name: 'unit-tests', stage: 'test', failure_reason: 'script_failure' },
      ],
      failed_tests: ['PriceTag rounds half to even', 'PriceTag escapes user input', 'Modal closes'],
      reasons: ['default-branch' as const],
      at: iso(NOW),
    };
    expect(describeEvent('pipeline-failed', [item]).body).toBe(
      'Round prices — Failed: unit-tests — 3 tests: PriceTag rounds half to even, PriceTag escapes user input… — (default branch)',
    );
    expect(
      describeEvent('pipeline-failed', [{ ...item, failed_tests: ['Modal closes'] }]).body,
    ).toBe('Round prices — Failed: unit-tests — 1 test: Modal closes — (default branch)');
  });
});

describe('notification settings', () => {
  it('keeps defaults until changed and merges partial updates', () => {
    const store = new MemorySettingsStore({ group: 'acme' });
    expect(readNotificationSettings(store)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    const next = updateNotificationSettings(store, {
      reasons: { watched: false },
      starred_projects: [5, 3, 5],
    });
    expect(next.reasons).toEqual({ mine: true, 'default-branch': true, watched: false });
    expect(next.starred_projects).toEqual([3, 5]);
    expect(store.read().group).toBe('acme');
  });

  it('spans midnight in quiet hours', () => {
    const at = (h: number) => new Date(2026, 10, 21, h, 30).getTime();
    const quiet = { start: '22:00', end: '07:00' };
    expect([at(23), at(3), at(7), at(12)].map((t) => inQuietHours(quiet, t))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(inQuietHours(null, at(23))).toBe(false);
  });
});
