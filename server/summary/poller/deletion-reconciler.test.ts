import { describe, expect, it } from 'vitest';
import { FakeGitLab } from '../../gitlab/testing/fake-gitlab.ts';
import { silentLogger } from '../../platform/logger.ts';
import { PipelineFeed } from '../pipeline-feed.ts';
import { aPipeline, aProject } from '../testing/factories.ts';
import { observerTeller } from './change-listeners.ts';
import { DeletionReconciler } from './deletion-reconciler.ts';
import { WatchedProjects } from './watched-projects.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function setup() {
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  gitlab.addProject(2, 'web');
  const watched = new WatchedProjects();
  watched.replaceProjects([
    aProject({ id: 1, path: 'acme/api' }),
    aProject({ id: 2, path: 'acme/web' }),
  ]);
  for (const [projectId, id] of [
    [1, 11],
    [1, 12],
    [2, 21],
  ] as const) {
    gitlab.addPipeline(projectId, id, iso(NOW - HOUR));
    watched.get(projectId)!.pipelines.set(id, aPipeline({ id, projectId, createdAt: NOW - HOUR }));
  }
  const deleted: string[] = [];
  const reconciler = new DeletionReconciler({
    feed: new PipelineFeed(gitlab, silentLogger, 4),
    tell: observerTeller(
      { pipelineDeleted: (projectId, id) => deleted.push(`${projectId}:${id}`) },
      silentLogger,
    ),
    intervalMs: 10 * 60_000,
  });
  return { gitlab, watched, deleted, reconciler };
}

describe('DeletionReconciler', () => {
  it('drops the pipelines GitLab no longer lists and tells the observer', async () => {
    const { gitlab, watched, deleted, reconciler } = setup();
    gitlab.pipelines.set(
      1,
      gitlab.pipelines.get(1)!.filter((p) => p.id !== 12),
    );
    await reconciler.reconcile(
      watched.readable(),
      NOW - 7 * 24 * HOUR,
      NOW,
      new AbortController().signal,
    );
    expect([...watched.pipelines()].map((p) => p.id)).toEqual([11, 21]);
    expect(deleted).toEqual(['1:12']);
  });

  it('keeps what a project has when its list could not be read', async () => {
    const { gitlab, watched, deleted, reconciler } = setup();
    gitlab.forbidden.add(2);
    gitlab.pipelines.set(2, []);
    await reconciler.reconcile(
      watched.readable(),
      NOW - 7 * 24 * HOUR,
      NOW,
      new AbortController().signal,
    );
    expect(watched.pipeline(2, 21)).toBeDefined();
    expect(deleted).toEqual([]);
  });

  it('compares again only after its interval; a skipped or reset turn counts as done or due', async () => {
    const { watched, reconciler } = setup();
    expect(reconciler.due(NOW)).toBe(true);
    await reconciler.reconcile(
      watched.readable(),
      NOW - HOUR * 2,
      NOW,
      new AbortController().signal,
    );
    expect(reconciler.due(NOW + 10 * 60_000 - 1)).toBe(false);
    expect(reconciler.due(NOW + 10 * 60_000)).toBe(true);
    reconciler.skip(NOW + 10 * 60_000);
    expect(reconciler.due(NOW + 10 * 60_000)).toBe(false);
    reconciler.reset();
    expect(reconciler.due(NOW)).toBe(true);
  });

  it('changes nothing and stays due when the cycle was cancelled', async () => {
    const { gitlab, watched, deleted, reconciler } = setup();
    gitlab.pipelines.set(1, []);
    const controller = new AbortController();
    controller.abort();
    await reconciler.reconcile(watched.readable(), NOW - HOUR * 2, NOW, controller.signal);
    expect([...watched.pipelines()]).toHaveLength(3);
    expect(deleted).toEqual([]);
    expect(reconciler.due(NOW)).toBe(true);
  });
});
