import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failingJob } from '../contract.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { systemClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { graphqlSwitchedOff } from '../simulator/faults.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { parseSince } from '../summary/since.ts';
import { PipelinePoller } from '../summary/poller.ts';
import { HistoryRecorder } from './history-recorder.ts';
import { HistoryStore } from './history-store.ts';
import { PipelineHistory } from './pipeline-history.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A poller and the history recorder on one data dir, against `sim` (restart = call again). */
function open(sim: GitLabSimulator, dir: string) {
  const clock = systemClock;
  const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
  const store = HistoryStore.open(path.join(dir, 'history.db'), silentLogger);
  const windowMs = parseSince('7d');
  const history = PipelineHistory.open(store, clock.now(), clock.now() - windowMs);
  const recorder = new HistoryRecorder({
    history,
    gitlab,
    clock,
    logger: silentLogger,
    group: () => sim.groupPath,
  });
  const poller = new PipelinePoller({
    gitlab,
    clock,
    logger: silentLogger,
    group: sim.groupPath,
    since: '7d',
    observer: recorder,
  });
  const warm = recorder.warmState(windowMs);
  if (warm) poller.restore(warm);
  const close = async () => {
    recorder.stop();
    await poller.stop();
    history.flush();
    store.close();
  };
  return { gitlab, store, history, recorder, poller, warm, close };
}

async function settle(parts: ReturnType<typeof open>) {
  await parts.poller.detailsSettled();
  await parts.recorder.idle();
}

describe('history recorder against the simulator', () => {
  it('records every pipeline in the window with its jobs and commit, once', async () => {
    const sim = await startSimulator({ live: false, projects: 3, days: 8 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'history-rec-'));
    cleanups.push(
      () => sim.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const parts = open(sim, dir);
    cleanups.push(parts.close);
    expect(parts.warm).toBeNull();
    await parts.poller.cycleOnce();
    await settle(parts);
    const snapshot = parts.history.snapshot();
    expect(snapshot.pipelines).toHaveLength(parts.poller.snapshot.summary.total_pipelines);
    const finished = snapshot.pipelines.filter((p) =>
      ['success', 'failed', 'canceled'].includes(p.status),
    );
    expect(finished.length).toBeGreaterThan(20);
    for (const p of finished) {
      expect(p.jobsFor).toBe(p.updatedAt);
      expect(p.defaultBranch).toBe(p.ref === 'main');
    }
    // The title and author come from the jobs' commit: the same GitLab's commit API reports.
    const sample = finished.find((p) => (snapshot.jobs.get(p.pipelineId)?.length ?? 0) > 0)!;
    const commit = await parts.gitlab.getCommit(sample.projectId, sample.sha);
    expect([sample.commitTitle, sample.commitAuthor]).toEqual([commit.title, commit.author_name]);
    // Nothing changed: a second cycle fetches no jobs.
    sim.stats.reset();
    await parts.poller.cycleOnce();
    await settle(parts);
    expect(sim.stats.byKind.jobs ?? 0).toBe(0);
  });

  it('restarts warm: the first summary comes from disk, then only what changed is read', async () => {
    const sim = await startSimulator({ live: false, projects: 3, days: 8 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'history-rec-'));
    cleanups.push(
      () => sim.close(),
      () => rmSync(dir, { recursive: true, force: true }),
    );
    const first = open(sim, dir);
    await first.poller.cycleOnce();
    await settle(first);
    const before = first.poller.snapshot;
    await first.close();

    sim.stats.reset();
    const second = open(sim, dir);
    cleanups.push(second.close);
    expect(second.warm).not.toBeNull();
    // Served before any request: same projects and numbers as before the restart.
    expect(second.poller.snapshot.summary).toEqual(before.summary);
    expect(second.poller.snapshot.projects).toEqual(before.projects);
    expect(sim.stats.total).toBe(0);
    await second.poller.cycleOnce();
    await settle(second);
    // The project list is fresh and nothing is re-fetched: a change probe over GraphQL (one
    // request per 40 projects) and the deletion check, where REST needed one list per project.
    expect(sim.stats.total).toBeLessThanOrEqual(3);
    expect(sim.stats.byKind.pipeline).toBe(0);
    expect(sim.stats.byKind.jobs).toBe(0);
  });

  // GET /projects/:id/pipelines/:pipeline_id/jobs lists the latest attempts; `include_retried=true`
  // adds the retried ones, and the REST job has no `retried` field (doc/api/jobs.md, gitlab!48589).
  it.each(['graphql', 'rest'] as const)(
    'reads the jobs of a recent failed pipeline once, for the summary and the history alike (%s)',
    async (api) => {
      // Six projects: the first three carry the health scenarios (the flaky one is green all
      // week), so three would leave as few as two failed pipelines among the newest ten at some
      // hours; the ordinary ones fail at their usual rate.
      const sim = await startSimulator({ live: false, projects: 6, days: 8 });
      const dir = mkdtempSync(path.join(os.tmpdir(), 'history-rec-'));
      cleanups.push(
        () => sim.close(),
        () => rmSync(dir, { recursive: true, force: true }),
      );
      if (api === 'rest') sim.faults.add(graphqlSwitchedOff());
      const parts = open(sim, dir);
      cleanups.push(parts.close);
      /** Job-list requests per pipeline since the last stats reset. */
      const jobReads = () => {
        const reads = new Map<number, number>();
        for (const r of sim.stats.recent) {
          const id = /\/pipelines\/(\d+)\/jobs/.exec(r.url)?.[1];
          if (r.kind === 'jobs' && id) reads.set(Number(id), (reads.get(Number(id)) ?? 0) + 1);
        }
        return reads;
      };

      sim.stats.reset();
      await parts.poller.cycleOnce();
      await settle(parts);
      expect(parts.poller.snapshot.status?.gitlab_api).toBe(api);
      const reads = jobReads();
      const failed = parts.poller.snapshot.projects.flatMap((p) =>
        p.recent_pipelines
          .filter((r) => r.status === 'failed')
          .map((r) => ({ ...r, projectId: p.project_id })),
      );
      expect(failed.length).toBeGreaterThan(2);
      for (const p of failed)
        expect([p.pipeline_id, reads.get(p.pipeline_id)]).toEqual([p.pipeline_id, 1]);
      expect(Math.max(...reads.values())).toBe(1);
      expect(sim.stats.byKind.jobs).toBe(reads.size);

      // A pipeline that fails, is retried and fails again: one read gives the history every attempt
      // and the summary the failing job among the latest attempts.
      const projectId = sim.projectIds()[0]!;
      const { pipelineId } = sim.startPipeline(projectId);
      sim.finishPipeline(projectId, pipelineId, 'failed');
      sim.retryPipeline(projectId, pipelineId);
      sim.finishPipeline(projectId, pipelineId, 'failed');
      sim.stats.reset();
      await parts.poller.cycleOnce();
      await settle(parts);
      expect(jobReads()).toEqual(new Map([[pipelineId, 1]]));

      const latest = await parts.gitlab.listPipelineJobs(projectId, pipelineId);
      const all = await parts.gitlab.listPipelineJobs(projectId, pipelineId, undefined, {
        includeRetried: true,
      });
      expect(all.length).toBeGreaterThan(latest.length);
      const row = parts.poller.snapshot.projects
        .find((p) => p.project_id === projectId)!
        .recent_pipelines.find((r) => r.pipeline_id === pipelineId)!;
      expect(row.failing_job_id).toBe(failingJob(latest)!.id);
      const stored = parts.history.jobsOf(pipelineId);
      expect(stored.map((j) => j.jobId).sort()).toEqual(all.map((j) => j.id).sort());
      expect(
        stored
          .filter((j) => !j.retried)
          .map((j) => j.jobId)
          .sort(),
      ).toEqual(latest.map((j) => j.id).sort());
      expect(parts.history.pipeline(pipelineId)?.jobsFor).toBe(
        parts.history.pipeline(pipelineId)?.updatedAt,
      );
      // Every earlier failed pipeline still shows the job GitLab's latest attempts name.
      for (const p of failed.slice(0, 3)) {
        const jobs = await parts.gitlab.listPipelineJobs(p.projectId, p.pipeline_id);
        expect(p.failing_job_id).toBe(failingJob(jobs)?.id ?? null);
      }
    },
  );
});
