import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import { systemClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
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
});
