import { describe, expect, it } from 'vitest';
import { FakeGitLab } from '../../gitlab/testing/fake-gitlab.ts';
import { silentLogger } from '../../platform/logger.ts';
import { observerTeller } from './change-listeners.ts';
import { ProjectListRefresh } from './project-list.ts';
import { WatchedProjects } from './watched-projects.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const MINUTE = 60_000;

function setup() {
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  gitlab.addProject(2, 'web');
  const watched = new WatchedProjects();
  const heard: { names: string[]; at: number }[] = [];
  const refresh = new ProjectListRefresh({
    gitlab,
    watched,
    tell: observerTeller(
      { projectsListed: (projects, at) => heard.push({ names: projects.map((p) => p.name), at }) },
      silentLogger,
    ),
    intervalMs: 5 * MINUTE,
  });
  return { gitlab, watched, heard, refresh };
}

describe('ProjectListRefresh', () => {
  it('reads the list at once, then again only after its interval', async () => {
    const { gitlab, watched, heard, refresh } = setup();
    expect(refresh.due(NOW)).toBe(true);
    await refresh.refresh('acme', NOW, new AbortController().signal);
    expect(watched.readable().map((s) => s.project.path)).toEqual(['acme/api', 'acme/web']);
    expect(heard).toEqual([{ names: ['api', 'web'], at: NOW }]);
    expect(refresh.due(NOW + 5 * MINUTE - 1)).toBe(false);
    expect(refresh.due(NOW + 5 * MINUTE)).toBe(true);
    gitlab.projects.pop();
    await refresh.refresh('acme', NOW + 5 * MINUTE, new AbortController().signal);
    expect(watched.readable().map((s) => s.project.name)).toEqual(['api']);
  });

  it('waits out the interval of a list restored from disk, and reads at once after a reset', () => {
    const { refresh } = setup();
    refresh.restore(NOW - MINUTE);
    expect(refresh.due(NOW)).toBe(false);
    refresh.reset();
    expect(refresh.due(NOW)).toBe(true);
  });

  it('changes nothing when the cycle was cancelled meanwhile', async () => {
    const { watched, heard, refresh } = setup();
    const controller = new AbortController();
    controller.abort();
    await refresh.refresh('acme', NOW, controller.signal);
    expect(watched.all()).toEqual([]);
    expect(heard).toEqual([]);
    expect(refresh.due(NOW)).toBe(true);
  });
});
