import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { HistoryStore } from './history-store.ts';
import { PipelineHistory } from './pipeline-history.ts';
import { FIXTURE_NOW, HistoryBuilder } from './testing/history-fixtures.ts';

const DAY = 86_400_000;
let dir: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'pipeline-history-'));
  store = HistoryStore.open(path.join(dir, 'history.db'), silentLogger);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function seed() {
  const b = new HistoryBuilder().project(1, 'api').project(2, 'web');
  const recent = b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 60,
    jobs: [{ name: 'test', status: 'success' }],
  });
  const old = b.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 20 * 24 * 60,
    jobs: [{ name: 'test', status: 'failed' }],
  });
  const other = b.pipeline({ projectId: 2, status: 'success', minutesAgo: 30 });
  const snapshot = b.build();
  const history = PipelineHistory.open(store, FIXTURE_NOW, 0);
  history.setProjects(snapshot.projects);
  history.save(snapshot.pipelines, snapshot.jobs);
  history.flush();
  return { snapshot, recent, old, other };
}

describe('PipelineHistory', () => {
  it('reopens with the window’s pipelines at once and the rest of the retention after loadAll', async () => {
    const { snapshot, recent, old } = seed();
    const reopened = PipelineHistory.open(store, FIXTURE_NOW, FIXTURE_NOW - 7 * DAY);
    expect(reopened.pipeline(recent)?.status).toBe('success');
    expect(reopened.pipeline(old)).toBeUndefined();
    expect(reopened.jobsOf(recent)).toEqual([]);
    const before = reopened.version;
    await reopened.loadAll();
    expect(reopened.version).toBeGreaterThan(before);
    expect(reopened.snapshot()).toEqual({ ...snapshot, jobs: expect.any(Map) });
    expect(reopened.jobsOf(old).map((j) => j.status)).toEqual(['failed']);
    expect(reopened.loadAll()).toBe(reopened.loadAll());
  });

  it('keeps what changed in memory while the rest loads', async () => {
    const { snapshot, recent } = seed();
    const reopened = PipelineHistory.open(store, FIXTURE_NOW, FIXTURE_NOW - 7 * DAY);
    const changed = { ...snapshot.pipelines.find((p) => p.pipelineId === recent)! };
    changed.status = 'running';
    changed.updatedAt = new Date(FIXTURE_NOW).toISOString();
    reopened.save([changed]);
    await reopened.loadAll();
    expect(reopened.pipeline(recent)?.status).toBe('running');
  });

  it('shows only watched projects and reuses one snapshot until a change', () => {
    const { other } = seed();
    const history = PipelineHistory.open(store, FIXTURE_NOW, 0);
    const first = history.snapshot();
    expect(history.snapshot()).toBe(first);
    history.setProjects([
      { id: 1, name: 'api', path: 'acme/api', webUrl: 'u', defaultBranch: 'main' },
    ]);
    const second = history.snapshot();
    expect(second).not.toBe(first);
    expect(second.projects.map((p) => p.id)).toEqual([1]);
    expect(second.pipelines.map((p) => p.pipelineId)).not.toContain(other);
  });

  it('writes a burst of changes together, after a moment or on flush', async () => {
    const history = PipelineHistory.open(store, FIXTURE_NOW, 0);
    const b = new HistoryBuilder().project(1, 'api');
    b.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo: 5,
      jobs: [{ name: 't', status: 'success' }],
    });
    const { pipelines, jobs } = b.build();
    history.save(pipelines, jobs);
    expect(store.counts()).toMatchObject({ pipelines: 0, jobs: 0 });
    await new Promise((r) => setTimeout(r, 120));
    expect(store.counts()).toMatchObject({ pipelines: 1, jobs: 1 });
    history.delete([pipelines[0]!.pipelineId]);
    history.flush();
    expect(store.counts()).toMatchObject({ pipelines: 0, jobs: 0 });
  });

  it('prunes beyond the retention and forgets deleted pipelines', () => {
    const { recent, old } = seed();
    const history = PipelineHistory.open(store, FIXTURE_NOW, 0);
    history.delete([recent]);
    expect(history.pipeline(recent)).toBeUndefined();
    history.prune(FIXTURE_NOW + 80 * DAY);
    expect(history.pipeline(old)).toBeUndefined();
    expect(store.counts().pipelines).toBe(1);
  });
});
