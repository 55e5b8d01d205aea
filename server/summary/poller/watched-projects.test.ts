import { describe, expect, it } from 'vitest';
import { aPipeline, aProject } from '../testing/factories.ts';
import { WatchedProjects } from './watched-projects.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;

function watching(...ids: number[]): WatchedProjects {
  const watched = new WatchedProjects();
  watched.replaceProjects(ids.map((id) => aProject({ id })));
  return watched;
}

describe('WatchedProjects', () => {
  it('keeps the pipelines and cursor of a project still listed, and drops a project that left', () => {
    const watched = watching(1, 2);
    const state = watched.get(1)!;
    state.pipelines.set(11, aPipeline({ id: 11, projectId: 1 }));
    state.cursor = '2026-11-21T11:00:00.000Z';
    watched.replaceProjects([aProject({ id: 1, name: 'renamed' })]);
    expect(watched.get(1)).toMatchObject({
      project: { name: 'renamed' },
      cursor: '2026-11-21T11:00:00.000Z',
    });
    expect(watched.pipeline(1, 11)?.id).toBe(11);
    expect(watched.get(2)).toBeUndefined();
  });

  it('leaves an unreadable project out until the next project list, and forgets list caps then', () => {
    const watched = watching(1, 2);
    watched.get(2)!.pipelines.set(21, aPipeline({ id: 21, projectId: 2 }));
    watched.markInaccessible(watched.get(2)!);
    watched.capReached(1, 'Listing stopped at 100 pages');
    expect(watched.readable().map((s) => s.project.id)).toEqual([1]);
    expect(watched.all().map((s) => s.project.id)).toEqual([1, 2]);
    expect(watched.pipeline(2, 21)).toBeUndefined();
    expect(watched.capMessage).toBe('Listing stopped at 100 pages');
    watched.replaceProjects([aProject({ id: 1 }), aProject({ id: 2 })]);
    expect(watched.readable().map((s) => s.project.id)).toEqual([1, 2]);
    expect(watched.capMessage).toBeNull();
  });

  it('restores only pipelines of known projects inside the window', () => {
    const watched = new WatchedProjects();
    watched.restore(
      [aProject({ id: 1 })],
      [
        aPipeline({ id: 11, projectId: 1, createdAt: NOW - HOUR }),
        aPipeline({ id: 12, projectId: 1, createdAt: NOW - 9 * 24 * HOUR }),
        aPipeline({ id: 21, projectId: 2, createdAt: NOW - HOUR }),
      ],
      NOW - 7 * 24 * HOUR,
    );
    expect([...watched.pipelines()].map((p) => p.id)).toEqual([11]);
  });

  it('is unsettled while any pipeline may change on its own', () => {
    const watched = watching(1);
    const pipelines = watched.get(1)!.pipelines;
    pipelines.set(1, aPipeline({ id: 1, status: 'success' }));
    pipelines.set(2, aPipeline({ id: 2, status: 'manual' }));
    expect(watched.anyUnsettled()).toBe(false);
    pipelines.set(3, aPipeline({ id: 3, status: 'scheduled' }));
    expect(watched.anyUnsettled()).toBe(true);
  });

  it('re-reads every window from scratch after forgetting cursors, keeping the pipelines', () => {
    const watched = watching(1);
    const state = watched.get(1)!;
    state.pipelines.set(11, aPipeline({ id: 11 }));
    state.cursor = '2026-11-21T11:00:00.000Z';
    state.listed = true;
    watched.forgetCursors();
    expect(state).toMatchObject({ cursor: null, listed: false });
    expect(state.pipelines.size).toBe(1);
  });

  it('drops pipelines that aged out of the window', () => {
    const watched = watching(1);
    const state = watched.get(1)!;
    state.pipelines.set(11, aPipeline({ id: 11, createdAt: NOW - 2 * HOUR }));
    state.pipelines.set(12, aPipeline({ id: 12, createdAt: NOW - HOUR }));
    watched.dropOlderThan(watched.readable(), NOW - 90 * 60_000);
    expect([...state.pipelines.keys()]).toEqual([12]);
  });
});
