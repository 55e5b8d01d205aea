import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationSettings, PipelineEvent } from '../contract.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { systemClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { MemorySettingsStore } from '../settings/settings-store.ts';
import { PipelinePoller } from '../summary/poller.ts';
import { FailureEvents } from './failure-events.ts';
import { readNotificationSettings, updateNotificationSettings } from './notification-settings.ts';

// Failure events against the GitLab simulator over real HTTP: GET /user for the token's user
// (https://docs.gitlab.com/api/users/#get-the-current-user), the pipeline list, single pipelines
// and their jobs, exactly as a real GitLab would be polled.
let sim: GitLabSimulator;
let poller: PipelinePoller;
let failures: FailureEvents;
const events: PipelineEvent[] = [];
const store = new MemorySettingsStore();
let projects: { id: number; defaultBranch: string }[];

const cycle = async () => {
  await poller.cycleOnce();
  await failures.settle();
};
const since = () => events.length;
const newEvents = (from: number) => events.slice(from);

beforeAll(async () => {
  sim = await startSimulator({ live: false, projects: 5, days: 3 });
  const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
  const list = await gitlab.listGroupProjects(sim.groupPath);
  projects = list.map((p) => ({ id: p.id, defaultBranch: p.default_branch }));
  poller = new PipelinePoller({
    gitlab,
    clock: systemClock,
    logger: silentLogger,
    group: sim.groupPath,
    since: '7d',
  });
  failures = new FailureEvents({
    gitlab,
    clock: systemClock,
    logger: silentLogger,
    settings: () => readNotificationSettings(store),
    emit: (e) => events.push(e),
  });
  poller.onPipelineChanges((c) => failures.observe(c));
});

afterAll(async () => {
  failures?.stop();
  await poller?.stop();
  await sim?.close();
});

function settings(update: Partial<NotificationSettings>) {
  updateNotificationSettings(store, update);
}

describe('failure events against the GitLab simulator', () => {
  it('stays silent about three days of failed history at start-up', async () => {
    await cycle();
    await cycle();
    expect(events).toEqual([]);
    // The history is there: some default branches are failing right now.
    const state = failures.state();
    expect(state.failing.every((f) => f.reasons.includes('default-branch'))).toBe(true);
  });

  it("announces the token user's failure on a feature branch as mine, once", async () => {
    const from = since();
    const p = sim.startPipeline(projects[0]!.id, { byTokenUser: true, ref: 'feature/mine' });
    await cycle();
    sim.finishPipeline(p.projectId, p.pipelineId, 'failed');
    await cycle();
    const mine = newEvents(from);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ event: 'pipeline-failed', notify: true, coalesced: false });
    expect(mine[0]!.pipelines[0]).toMatchObject({
      pipeline_id: p.pipelineId,
      ref: 'feature/mine',
      reasons: ['mine'],
    });
    expect(mine[0]!.pipelines[0]!.failed_jobs.length).toBeGreaterThan(0);
    expect(failures.state().user).not.toBeNull();
    // Retried and failed again: still one event for this pipeline.
    sim.retryPipeline(p.projectId, p.pipelineId);
    await cycle();
    sim.finishPipeline(p.projectId, p.pipelineId, 'failed');
    await cycle();
    expect(newEvents(from)).toHaveLength(1);
  });

  it('announces a default branch breaking and a starred project failing', async () => {
    const from = since();
    const target = projects[1]!;
    const star = projects[2]!;
    settings({ starred_projects: [star.id] });
    const broken = sim.startPipeline(target.id, { ref: target.defaultBranch });
    const watched = sim.startPipeline(star.id, { ref: 'feature/watched' });
    await cycle();
    sim.finishPipeline(broken.projectId, broken.pipelineId, 'failed');
    sim.finishPipeline(watched.projectId, watched.pipelineId, 'failed');
    await cycle();
    const reasons = Object.fromEntries(
      newEvents(from)
        .flatMap((e) => e.pipelines)
        .map((p) => [p.pipeline_id, p.reasons]),
    );
    expect(reasons[broken.pipelineId]).toContain('default-branch');
    expect(reasons[watched.pipelineId]).toContain('watched');
    // The default branch recovers: one pipeline-fixed.
    const fixedFrom = since();
    const fix = sim.startPipeline(target.id, { ref: target.defaultBranch });
    await cycle();
    sim.finishPipeline(fix.projectId, fix.pipelineId, 'success');
    await cycle();
    expect(newEvents(fixedFrom).map((e) => [e.event, e.pipelines[0]!.pipeline_id])).toEqual([
      ['pipeline-fixed', fix.pipelineId],
    ]);
  });

  it('coalesces a burst of failures into one notification', async () => {
    const from = since();
    const started = projects.map((p) => sim.startPipeline(p.id, { ref: p.defaultBranch }));
    await cycle();
    for (const p of started) sim.finishPipeline(p.projectId, p.pipelineId, 'failed');
    await cycle();
    const burst = newEvents(from);
    expect(burst).toHaveLength(1);
    expect(burst[0]!.coalesced).toBe(true);
    expect(burst[0]!.title).toMatch(
      new RegExp(`^${projects.length} pipelines failed in ${projects.length} projects`),
    );
    expect(burst[0]!.pipelines.map((p) => p.pipeline_id).sort()).toEqual(
      started.map((p) => p.pipelineId).sort(),
    );
  });
});
