import { describe, expect, it } from 'vitest';
import { FakeGitLab } from '../../gitlab/testing/fake-gitlab.ts';
import type { GitLabPipeline } from '../../gitlab/wire.ts';
import { silentLogger } from '../../platform/logger.ts';
import type { FeedUpdate } from '../pipeline-feed.ts';
import { PipelineFeed } from '../pipeline-feed.ts';
import { aPipeline, aProject } from '../testing/factories.ts';
import { observerTeller } from './change-listeners.ts';
import { CursorReads, resumeCursors, type CursorReadsDeps } from './cursor-reads.ts';
import { WatchedProjects, type ProjectState } from './watched-projects.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;
const WINDOW_START = NOW - 7 * 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const signal = () => new AbortController().signal;

function setup(feed?: CursorReadsDeps['feed']) {
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  gitlab.addProject(2, 'web');
  gitlab.addPipeline(1, 11, iso(NOW - 2 * HOUR), 'success');
  gitlab.addPipeline(1, 12, iso(NOW - HOUR), 'running');
  gitlab.addPipeline(2, 20, iso(NOW - 9 * 24 * HOUR), 'success'); // before the window
  const watched = new WatchedProjects();
  watched.replaceProjects([
    aProject({ id: 1, path: 'acme/api' }),
    aProject({ id: 2, path: 'acme/web' }),
  ]);
  const listed: number[][] = [];
  const arrived: number[] = [];
  const remembered: number[] = [];
  const reads = new CursorReads({
    feed: feed ?? new PipelineFeed(gitlab, silentLogger, 4),
    watched,
    reads: { remember: (detail) => remembered.push(detail.id) },
    details: { arrived: (_state, detail) => arrived.push(detail.id) },
    tell: observerTeller(
      { pipelinesListed: (_projectId, items) => listed.push(items.map((i) => i.id)) },
      silentLogger,
    ),
    logger: silentLogger,
  });
  return { gitlab, watched, reads, listed, arrived, remembered };
}

describe('CursorReads', () => {
  it('reads each window once as the baseline and moves the cursor past the newest change', async () => {
    const { watched, reads, listed } = setup();
    const changes = await reads.read(watched.readable(), WINDOW_START, signal());
    expect(changes.map((c) => [c.record.id, c.previousStatus, c.baseline])).toEqual([
      [12, null, true],
      [11, null, true],
    ]);
    expect([...watched.pipelines()].map((p) => p.id).sort()).toEqual([11, 12]);
    expect(listed).toEqual([[12, 11]]);
    // One second of overlap: GitLab's timestamps may have whole seconds only.
    expect(watched.get(1)!.cursor).toBe(iso(NOW - HOUR - 1_000));
    // Nothing in its window yet: the next read asks for the whole window again.
    expect(watched.get(2)!.cursor).toBeNull();
  });

  it('reports only the pipeline whose status changed since, as news', async () => {
    const { gitlab, watched, reads, listed } = setup();
    await reads.read(watched.readable(), WINDOW_START, signal());
    gitlab.update(1, 12, { status: 'failed', updated_at: iso(NOW) });
    const changes = await reads.read(watched.readable(), WINDOW_START, signal());
    expect(
      changes.map((c) => [c.record.id, c.previousStatus, c.record.status, c.baseline]),
    ).toEqual([[12, 'running', 'failed', false]]);
    expect(listed.at(-1)).toEqual([12]);
    expect(watched.get(1)!.cursor).toBe(iso(NOW - 1_000));
  });

  it('leaves out a project whose pipelines the token may not read, and reads the others', async () => {
    const { gitlab, watched, reads } = setup();
    gitlab.forbidden.add(2);
    await reads.read(watched.readable(), WINDOW_START, signal());
    expect(watched.readable().map((s) => s.project.id)).toEqual([1]);
  });

  it('hands details a list carried to the detail queue, and to the shared reads first', async () => {
    const detail = {
      id: 12,
      project_id: 1,
      status: 'failed',
      ref: 'main',
      source: 'push',
      created_at: iso(NOW - HOUR),
      updated_at: iso(NOW - HOUR),
      web_url: 'https://gitlab.test/acme/api/-/pipelines/12',
      duration: 75,
      user: { id: 7, username: 'ada', name: 'Ada', avatar_url: null },
    } as unknown as GitLabPipeline;
    const feed = {
      updates: async (): Promise<FeedUpdate[]> => [
        { projectId: 1, items: [{ item: detail, details: detail }] },
      ],
    };
    const { watched, reads, arrived, remembered } = setup(feed);
    await reads.read(watched.readable(), WINDOW_START, signal());
    expect(remembered).toEqual([12]);
    expect(arrived).toEqual([12]);
    expect(watched.pipeline(1, 12)).toMatchObject({ duration: 75, detailsFor: detail.updated_at });
  });
});

describe('resumeCursors', () => {
  it('starts each restored project one second before its newest updated_at', () => {
    const withPipelines: ProjectState = {
      project: aProject({ id: 1 }),
      pipelines: new Map([
        [11, aPipeline({ id: 11, updatedAt: '2026-11-21T10:00:00.000Z' })],
        [12, aPipeline({ id: 12, updatedAt: '2026-11-21T11:30:00.000Z' })],
      ]),
      cursor: null,
    };
    const empty: ProjectState = {
      project: aProject({ id: 2 }),
      pipelines: new Map(),
      cursor: null,
    };
    resumeCursors([withPipelines, empty]);
    expect(withPipelines.cursor).toBe('2026-11-21T11:29:59.000Z');
    expect(empty.cursor).toBeNull();
  });
});
