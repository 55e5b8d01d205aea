import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  FailureSignaturesEvent,
  FailureSignaturesResponse,
  PipelineDetails,
  PipelineEvent,
} from '../contract.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { silentLogger } from '../platform/logger.ts';
import { graphqlSwitchedOff } from '../simulator/faults.ts';
import type { GitLabSimulator, SimulatorOptions } from '../simulator/index.ts';
import { latestAttempts } from '../summary/from-gitlab.ts';
import { PipelineDetailsService } from '../summary/pipeline-details.ts';
import { startHarness, type Harness } from './service-harness.ts';

// How many times the whole service (poller, failure events, pipeline history) asks GitLab for one
// pipeline: GET /projects/:id/pipelines/:pipeline_id and GET …/pipelines/:pipeline_id/jobs
// (https://docs.gitlab.com/api/pipelines/#get-a-single-pipeline, https://docs.gitlab.com/api/jobs/#list-pipeline-jobs).
// A pipeline at one `updated_at` is the same answer for every reader, so each is asked once.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(simulator: SimulatorOptions = {}): Promise<Harness> {
  const h = await startHarness({ simulator: { projects: 3, days: 3, ...simulator } });
  cleanups.push(() => h.close());
  return h;
}

/** Single-pipeline and job-list requests for `pipelineId` since the last stats reset. */
function readsOf(sim: GitLabSimulator, pipelineId: number): { pipeline: number; jobs: number } {
  const reads = { pipeline: 0, jobs: 0 };
  for (const r of sim.stats.recent) {
    const m = /\/pipelines\/(\d+)(\/jobs)?(?:\?|$)/.exec(r.url);
    if (!m || Number(m[1]) !== pipelineId) continue;
    if (m[2]) reads.jobs++;
    else reads.pipeline++;
  }
  return reads;
}

/** One `pipeline-failed` event for the pipeline, the same as one built from GitLab's own answers. */
async function expectAnnouncedOnce(
  sim: GitLabSimulator,
  events: PipelineEvent[],
  projectId: number,
  pipelineId: number,
): Promise<void> {
  const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
  const pipeline = await gitlab.getPipeline(projectId, pipelineId);
  const jobs = await gitlab.listPipelineJobs(projectId, pipelineId);
  expect(events.map((e) => e.event)).toEqual(['pipeline-failed']);
  expect(events[0]!.pipelines).toEqual([
    expect.objectContaining({
      pipeline_id: pipelineId,
      reasons: ['mine'],
      user: {
        username: pipeline.user!.username,
        name: pipeline.user!.name,
        avatar_url: pipeline.user!.avatar_url ?? '',
      },
      commit_title: jobs[0]!.commit!.title,
      failed_jobs: jobs
        .filter((j) => j.status === 'failed')
        .sort((a, b) => a.id - b.id)
        // Additive fields (signature, verdict: issue 27) may follow.
        .map((j) =>
          expect.objectContaining({
            id: j.id,
            name: j.name,
            stage: j.stage,
            failure_reason: j.failure_reason ?? null,
          }),
        ),
    }),
  ]);
  expect(events[0]!.pipelines[0]!.failed_jobs.length).toBeGreaterThan(0);
}

/** The named events of GET /api/events/pipelines as they arrive (read in the background). */
async function sseEvents(h: Harness) {
  const controller = new AbortController();
  const res = await fetch(`${h.service.url}/api/events/pipelines`, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
    }
  })();
  const named = (event: string) =>
    buffer
      .split('\n\n')
      .filter((b) => b.startsWith(`event: ${event}\n`))
      .map((b) => JSON.parse(b.split('\ndata: ')[1]!) as unknown);
  return {
    async waitFor(event: string, n: number): Promise<unknown[]> {
      await vi.waitFor(() => expect(named(event).length).toBeGreaterThanOrEqual(n));
      return named(event);
    },
    close: () => controller.abort(),
  };
}

/** One poller cycle as the service runs it, and everything it sets off. */
async function cycle(h: Harness): Promise<void> {
  await h.service.poller.cycleOnce();
  await h.service.poller.detailsSettled();
  await h.service.groupHealth.idle();
  await h.service.failureEvents.settle();
}

describe.each(['graphql', 'rest'] as const)('GitLab reads per pipeline (%s)', (api) => {
  async function started(
    simulator?: SimulatorOptions,
  ): Promise<{ h: Harness; events: PipelineEvent[]; projectId: number }> {
    const h = await harness(simulator);
    if (api === 'rest') {
      h.simulator.faults.add(graphqlSwitchedOff());
      await cycle(h);
    }
    expect(h.service.poller.status.gitlab_api).toBe(api);
    const events: PipelineEvent[] = [];
    h.service.failureEvents.onEvent((e) => events.push(e));
    return { h, events, projectId: h.simulator.projectIds()[0]! };
  }

  it('a failure event reads nothing the poller has not read for it', async () => {
    const { h, events, projectId } = await started();
    const sim = h.simulator;
    const { pipelineId } = sim.startPipeline(projectId, { byTokenUser: true, ref: 'feature/x' });
    await cycle(h);
    sim.finishPipeline(projectId, pipelineId, 'failed');
    sim.stats.reset();
    await cycle(h);

    // GraphQL brings the pipeline with the list; REST needs its single-pipeline read (for the
    // duration and user). Its jobs are read once, for the summary's failing job, the history and
    // the event alike.
    expect(readsOf(sim, pipelineId)).toEqual({ pipeline: api === 'rest' ? 1 : 0, jobs: 1 });
    await expectAnnouncedOnce(sim, events, projectId, pipelineId);
  });

  it('a retried failure lists the latest attempts, from the one read of every attempt', async () => {
    const { h, events, projectId } = await started();
    const sim = h.simulator;
    const { pipelineId } = sim.startPipeline(projectId, { byTokenUser: true, ref: 'feature/y' });
    await cycle(h);
    sim.finishPipeline(projectId, pipelineId, 'failed');
    sim.retryPipeline(projectId, pipelineId);
    sim.finishPipeline(projectId, pipelineId, 'failed');
    sim.stats.reset();
    await cycle(h);

    expect(readsOf(sim, pipelineId).jobs).toBe(1);
    const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const latest = await gitlab.listPipelineJobs(projectId, pipelineId);
    const every = await gitlab.listPipelineJobs(projectId, pipelineId, undefined, {
      includeRetried: true,
    });
    expect(every.length).toBeGreaterThan(latest.length);
    expect(latestAttempts(every).map((j) => j.id)).toEqual(
      expect.arrayContaining(latest.map((j) => j.id)),
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.pipelines[0]!.failed_jobs.map((j) => j.id)).toEqual(
      latest
        .filter((j) => j.status === 'failed')
        .map((j) => j.id)
        .sort((a, b) => a - b),
    );
  });

  it('a fixed default branch reads its jobs once, for the history and the event', async () => {
    const { h, events, projectId } = await started();
    const sim = h.simulator;
    const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const ref = (await gitlab.listGroupProjects(sim.groupPath)).find(
      (p) => p.id === projectId,
    )!.default_branch;
    const broken = sim.startPipeline(projectId, { ref });
    await cycle(h);
    sim.finishPipeline(projectId, broken.pipelineId, 'failed');
    await cycle(h);
    const fix = sim.startPipeline(projectId, { ref });
    await cycle(h);
    sim.finishPipeline(projectId, fix.pipelineId, 'success');
    sim.stats.reset();
    await cycle(h);

    expect(readsOf(sim, fix.pipelineId)).toEqual({ pipeline: api === 'rest' ? 1 : 0, jobs: 1 });
    expect(events.map((e) => [e.event, e.pipelines[0]!.pipeline_id])).toEqual([
      ['pipeline-failed', broken.pipelineId],
      ['pipeline-fixed', fix.pipelineId],
    ]);
  });

  it('a warm restart reads the jobs of a failure left unread once', async () => {
    const { h, projectId } = await started();
    const sim = h.simulator;
    const { pipelineId } = sim.startPipeline(projectId, { ref: 'feature/z' });
    await cycle(h);
    // Its jobs cannot be read before the service stops: neither the summary's failing job nor the
    // history's jobs are known at the restart.
    const outage = sim.faults.add({
      kind: 'status',
      status: 503,
      match: new RegExp(`/pipelines/${pipelineId}/jobs`),
    });
    sim.finishPipeline(projectId, pipelineId, 'failed');
    await cycle(h);
    outage.remove();
    cleanups.pop();

    sim.stats.reset();
    const warm = await h.restart();
    cleanups.push(() => warm.close());
    expect(readsOf(sim, pipelineId).jobs).toBe(1);
    const row = warm.service.poller.snapshot.projects
      .find((p) => p.project_id === projectId)!
      .recent_pipelines.find((r) => r.pipeline_id === pipelineId)!;
    expect(row.failing_job_id).not.toBeNull();

    // A failure after the restart: nothing of it was read before, and it is announced as ever.
    const events: PipelineEvent[] = [];
    warm.service.failureEvents.onEvent((e) => events.push(e));
    const next = sim.startPipeline(projectId, { byTokenUser: true, ref: 'feature/after' });
    await cycle(warm);
    sim.finishPipeline(projectId, next.pipelineId, 'failed');
    sim.stats.reset();
    await cycle(warm);
    expect(readsOf(sim, next.pipelineId)).toEqual({ pipeline: api === 'rest' ? 1 : 0, jobs: 1 });
    await expectAnnouncedOnce(sim, events, projectId, next.pipelineId);
  });

  it('a warm restart reads a pipeline left half-read once, for the summary and the history', async () => {
    const { h, projectId } = await started();
    const sim = h.simulator;
    const { pipelineId } = sim.startPipeline(projectId, { ref: 'feature/w' });
    await cycle(h);
    // Finished just before the stop: listed (and stored), but neither its details nor its jobs came.
    const outage = sim.faults.add({
      kind: 'status',
      status: 503,
      match: new RegExp(`/pipelines/${pipelineId}(/jobs)?(\\?|$)`),
    });
    sim.finishPipeline(projectId, pipelineId, 'success');
    await cycle(h);
    outage.remove();
    // A slow jobs answer: the history's read is still under way when the poller's details arrive.
    sim.faults.add({ kind: 'delay', ms: 400, match: new RegExp(`/pipelines/${pipelineId}/jobs`) });
    cleanups.pop();

    sim.stats.reset();
    const warm = await h.restart();
    cleanups.push(() => warm.close());
    // Over GraphQL the details came with the list before the stop; REST reads them now (the read
    // may still be on its way when the restart resolves: on a loaded machine it was).
    const once = { pipeline: api === 'rest' ? 1 : 0, jobs: 1 };
    await vi.waitFor(() => expect(readsOf(sim, pipelineId)).toEqual(once));
    // Details land in the summary with its next recompute (batched, a moment later).
    await vi.waitFor(() => {
      const row = warm.service.poller.snapshot.projects
        .find((p) => p.project_id === projectId)!
        .recent_pipelines.find((r) => r.pipeline_id === pipelineId)!;
      expect(row.duration).not.toBeNull();
    });
    await warm.service.poller.detailsSettled();
    expect(readsOf(sim, pipelineId)).toEqual(once);
  });
  // The dashboard's details route (GET /api/pipelines/:projectId/details/:pipelineId): one
  // single-pipeline read to learn the current `updated_at`, the jobs, and the trigger jobs
  // (GET …/pipelines/:pipeline_id/bridges, https://docs.gitlab.com/api/jobs/#list-pipeline-trigger-jobs).
  it('opening the failure just announced reads its pipeline and bridges, not its jobs or logs', async () => {
    const { h, events, projectId } = await started();
    const sim = h.simulator;
    // The backfill of the seeded history signed, so the cycle's log budget is the new failure's.
    while ((await h.service.triage.recorder.cycle()) > 0);
    const { pipelineId } = sim.startPipeline(projectId, { byTokenUser: true, ref: 'feature/open' });
    await cycle(h);
    sim.finishPipeline(projectId, pipelineId, 'failed');
    await cycle(h);
    await h.service.triage.idle();
    expect(events.map((e) => e.event)).toEqual(['pipeline-failed']);
    const sse = await sseEvents(h);

    sim.stats.reset();
    const res = await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`);
    expect(res.status).toBe(200);
    // The jobs the poller read for the event serve the details too: the pipeline and its bridges.
    // No job log is read for the answer: the failed jobs' signatures (fixed_before, issue 27) are
    // read in the background, within the per-cycle budget of 4 logs, and announced.
    expect(readsOf(sim, pipelineId)).toEqual({ pipeline: 1, jobs: 0 });
    expect(sim.stats.total - sim.stats.byKind.trace).toBe(2);
    const failedJobs = (res.body as PipelineDetails).jobs.filter((j) => j.status === 'failed');
    await h.service.triage.idle();
    expect(sim.stats.byKind.trace).toBe(Math.min(4, failedJobs.length));
    expect(sim.stats.total).toBe(2 + Math.min(4, failedJobs.length));
    // The signatures landed: announced once on the event stream, and listed.
    const [announced] = await sse.waitFor('failure-signatures', 1);
    sse.close();
    const signed = failedJobs.slice(0, 4).map((j) => j.id);
    expect((announced as FailureSignaturesEvent).jobs.map((j) => j.job_id).sort()).toEqual(
      signed.sort(),
    );
    const listed = (await h.api('/api/failures/signatures?since=1d'))
      .body as FailureSignaturesResponse;
    expect(
      listed.signatures
        .flatMap((s) => s.jobs.map((j) => j.job_id))
        .filter((id) => signed.includes(id)),
    ).toHaveLength(signed.length);

    // The very answer GitLab's own reads build, key order included.
    const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const direct = await new PipelineDetailsService({
      gitlab,
      projectName: h.service.poller.projectName,
    }).get(projectId, pipelineId);
    // The route adds how the ref reads (`!iid` for a merge request) to that answer, what the JUnit
    // report says (this pipeline failed building: no test ran, no report) and what fixed each failed
    // job's error before (none yet here: issue 27).
    const labelled = {
      ...direct,
      tests: null,
      failed_tests: [],
      jobs: direct.jobs.map((j) => (j.status === 'failed' ? { ...j, fixed_before: [] } : j)),
      ...h.service.poller.refLabel(projectId, direct.ref),
    };
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(labelled));
    expect((res.body as PipelineDetails).jobs.some((j) => j.status === 'failed')).toBe(true);
  });

  // Opening details always asks GitLab for the pipeline (a deleted one is a 404 at once, issue 24);
  // the cache keyed on its `updated_at` saves the jobs and bridges reads while it is unchanged.
  it("opening a finished pipeline's details again asks GitLab for the pipeline only", async () => {
    const frozen: { at?: number } = {};
    const { h, projectId } = await started({ clock: { now: () => frozen.at ?? Date.now() } });
    const sim = h.simulator;
    const { pipelineId } = sim.startPipeline(projectId, { ref: 'feature/again' });
    await cycle(h);
    // Finished at a known fraction of a second, so REST's milliseconds are not `.000`.
    frozen.at = Math.ceil(Date.now() / 1000) * 1000 + 250;
    sim.finishPipeline(projectId, pipelineId, 'success');
    await cycle(h);
    const open = () => h.api(`/api/pipelines/${projectId}/details/${pipelineId}`);
    const first = await open();
    expect(first.status).toBe(200);
    expect((first.body as PipelineDetails).status).toBe('success');

    sim.stats.reset();
    const again = await open();
    expect(again.body).toEqual(first.body);
    expect(readsOf(sim, pipelineId)).toEqual({ pipeline: 1, jobs: 0 });
    expect(sim.stats.total).toBe(1);
  });

  it("a running pipeline's details show a job's new status while its updated_at stays", async () => {
    // GitLab moves jobs without always touching the pipeline's updated_at: the simulator's clock
    // stands still, so every change below keeps the same updated_at.
    const frozen: { at?: number } = {};
    const { h, projectId } = await started({ clock: { now: () => frozen.at ?? Date.now() } });
    const sim = h.simulator;
    const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const { pipelineId } = sim.startPipeline(projectId, { ref: 'feature/watch' });
    await cycle(h);
    frozen.at = Date.now();
    sim.step();
    const open = async () =>
      (await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`)).body as PipelineDetails;
    const statuses = (d: PipelineDetails) => d.jobs.map((j) => `${j.id}:${j.status}`);
    const upstream = async () =>
      latestAttempts(
        await gitlab.listPipelineJobs(projectId, pipelineId, undefined, { includeRetried: true }),
      )
        .sort((a, b) => a.id - b.id)
        .map((j) => `${j.id}:${j.status}`);

    sim.stats.reset();
    const before = await open();
    const updatedAt = (await gitlab.getPipeline(projectId, pipelineId)).updated_at;
    expect(before.status).not.toMatch(/^(success|failed|canceled|skipped)$/);
    sim.step();
    const after = await open();

    // Each opening read the jobs afresh.
    expect(readsOf(sim, pipelineId).jobs).toBe(2);
    expect((await gitlab.getPipeline(projectId, pipelineId)).updated_at).toBe(updatedAt);
    expect(statuses(after)).not.toEqual(statuses(before));
    expect(statuses(after).sort()).toEqual((await upstream()).sort());
  });
});
