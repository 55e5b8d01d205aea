import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import type { HistorySnapshot } from '../history/model.ts';
import { PipelineHistory } from '../history/pipeline-history.ts';
import {
  FIXTURE_NOW,
  HistoryBuilder,
  generateHistory,
} from '../history/testing/history-fixtures.ts';
import { silentLogger } from '../platform/logger.ts';
import { listFailures } from './failures.ts';
import { computeGroupHealth } from './group-health.ts';
import { HealthIndex } from './health-index.ts';
import { projectTrends, REGRESSION_RULE } from './regressions.ts';

// Memory holds the last 8 days; the answers must be those of the whole retention in memory.
const DAY = 86_400_000;
const HOT_DAYS = 8;
const RUNS_KEPT = REGRESSION_RULE.recent_runs + REGRESSION_RULE.baseline_runs;
let dir: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hot-horizon-'));
  store = HistoryStore.open(path.join(dir, 'history.db'), silentLogger);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * 40 days of 10 generated projects (3 pipelines a day: the job series reach past memory), and by
 * hand: a default branch red for 20 days, one never green, and a job that began 3 days ago.
 */
function fullHistory(): HistorySnapshot {
  const generated = generateHistory({
    projects: 10,
    days: 40,
    pipelinesPerDay: 3,
    jobsPerPipeline: 4,
    seed: 7,
  });
  const b = new HistoryBuilder().project(1, 'red-for-weeks').project(2, 'never-green');
  for (let day = 40; day >= 1; day--) {
    const minutesAgo = day * 24 * 60;
    const red = day <= 20;
    b.pipeline({
      projectId: 1,
      status: red ? 'failed' : 'success',
      minutesAgo,
      duration: 300 + (day < 5 ? 200 : 0),
      jobs: [
        { name: 'build', status: 'success', duration: 100 + day },
        { name: 'test', status: red ? 'failed' : 'success', duration: 50 },
        ...(day <= 3 ? [{ name: 'lint', status: 'success', duration: 20 }] : []),
      ],
    });
    if (day % 3 === 0)
      b.pipeline({
        projectId: 2,
        status: day % 2 === 0 ? 'failed' : 'canceled',
        minutesAgo: minutesAgo + 30,
        jobs: [{ name: 'deploy', status: 'failed', duration: 10 }],
      });
  }
  // The builder's ids start at 1,000, inside the generated ones: moved past them.
  const hand = b.build();
  const moved = (id: number) => id + 100_000;
  const jobs = new Map(generated.jobs);
  for (const [id, list] of hand.jobs)
    jobs.set(
      moved(id),
      list.map((j) => ({ ...j, pipelineId: moved(id) })),
    );
  const handPipelines = hand.pipelines.map((p) => ({ ...p, pipelineId: moved(p.pipelineId) }));
  return {
    projects: [...generated.projects, ...hand.projects],
    pipelines: [...generated.pipelines, ...handPipelines].sort(
      (a, b) => a.createdAt - b.createdAt || a.pipelineId - b.pipelineId,
    ),
    jobs,
  };
}

async function openHot(full: HistorySnapshot): Promise<PipelineHistory> {
  store.upsertProjects(full.projects);
  store.savePipelines(full.pipelines, full.jobs);
  const history = PipelineHistory.open(store, FIXTURE_NOW, FIXTURE_NOW - 7 * DAY, {
    hotStart: (now) => now - HOT_DAYS * DAY,
    runsKept: RUNS_KEPT,
  });
  history.setProjects(full.projects);
  await history.loadAll();
  return history;
}

const input = (snapshot: HistorySnapshot, days: number) => ({
  snapshot,
  now: FIXTURE_NOW,
  windowMs: days * DAY,
  since: `${days}d`,
});

describe('history held hot in memory, the past in the store', () => {
  it('answers group health as the whole retention in memory does, reading only what it needs of the past', async () => {
    const full = fullHistory();
    const history = await openHot(full);
    const snapshot = history.snapshot();
    const whole = computeGroupHealth(input(full, 7));
    const hot = computeGroupHealth(input(snapshot, 7));
    expect(hot.defaultBranches).toEqual(whole.defaultBranches);
    expect(hot.regressions).toEqual(whole.regressions);
    expect(hot.flakyJobs).toEqual(whole.flakyJobs);
    // The cases the past decides are there: red for 20 days, never green, slower builds.
    const red = hot.defaultBranches.projects.find((p) => p.project_id === 1)!;
    expect(red.state).toBe('broken');
    expect(red.broken_for_seconds).toBe(20 * 86_400);
    expect(red.pipelines_since_count).toBe(19);
    expect(red.broken_jobs!.map((j) => j.name)).toEqual(['test']);
    expect(hot.defaultBranches.projects.find((p) => p.project_id === 2)!.state).toBe('broken');
    expect(hot.regressions.regressions.length).toBeGreaterThan(0);
    expect(full.pipelines.length).toBe(1_253);
    expect(snapshot.pipelines.length).toBe(641);
    const page = { page: 1, pageSize: 500 };
    expect(listFailures(hot.index, hot.flakes, page)).toEqual(
      listFailures(whole.index, whole.flakes, page),
    );
  });

  it('reads a window longer than memory from the store, for that answer only', async () => {
    const full = fullHistory();
    const history = await openHot(full);
    const kept = history.snapshot().pipelines.length;
    const whole = computeGroupHealth(input(full, 30));
    const long = computeGroupHealth(input(history.snapshotFrom(FIXTURE_NOW - 30 * DAY), 30));
    expect(long.defaultBranches).toEqual(whole.defaultBranches);
    expect(long.flakyJobs).toEqual(whole.flakyJobs);
    expect(long.regressions).toEqual(whole.regressions);
    const page = { page: 1, pageSize: 1_000 };
    expect(listFailures(long.index, long.flakes, page)).toEqual(
      listFailures(whole.index, whole.flakes, page),
    );
    expect(history.snapshot().pipelines.length).toBe(kept);
  });

  it('draws one project’s trends over the whole retention', async () => {
    const full = fullHistory();
    const history = await openHot(full);
    const whole = new HealthIndex(input(full, 7));
    for (const projectId of [100, 103, 1]) {
      const one = new HealthIndex(input(history.projectHistory(projectId), 7));
      expect(projectTrends(one, projectId, FIXTURE_NOW - 40 * DAY)).toEqual(
        projectTrends(whole, projectId, FIXTURE_NOW - 40 * DAY),
      );
    }
  });

  it('reads the past again when a job name new to memory needs older runs', async () => {
    const full = fullHistory();
    const history = await openHot(full);
    const before = computeGroupHealth(input(history.snapshot(), 7));
    // A pipeline today runs a job whose older runs are all before the horizon.
    const b = new HistoryBuilder().project(100, 'project-0');
    const today = b.pipeline({
      projectId: 100,
      status: 'success',
      minutesAgo: 10,
      jobs: [{ name: 'build', status: 'success', duration: 400 }],
    });
    const added = b.build();
    const record = { ...added.pipelines[0]!, pipelineId: 9_000_000 };
    const jobs = added.jobs.get(today)!.map((j) => ({ ...j, pipelineId: 9_000_000 }));
    history.save([record], new Map([[9_000_000, jobs]]));
    const after = computeGroupHealth(input(history.snapshot(), 7));
    const wholeAfter = computeGroupHealth(
      input(
        {
          ...full,
          pipelines: [...full.pipelines, record],
          jobs: new Map([...full.jobs, [9_000_000, jobs]]),
        },
        7,
      ),
    );
    expect(after.regressions).toEqual(wholeAfter.regressions);
    expect(after.regressions).not.toEqual(before.regressions);
  });
});
