import { describe, expect, it } from 'vitest';
import { PipelineReads } from '../../gitlab/pipeline-reads.ts';
import { FakeGitLab } from '../../gitlab/testing/fake-gitlab.ts';
import type { GitLabJob, GitLabPipeline } from '../../gitlab/wire.ts';
import { silentLogger } from '../../platform/logger.ts';
import { toPipelineRecord } from '../from-gitlab.ts';
import { aProject } from '../testing/factories.ts';
import { observerTeller } from './change-listeners.ts';
import { DetailQueue } from './detail-queue.ts';
import { WatchedProjects } from './watched-projects.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function failedJob(id: number, pipelineId: number, allowFailure = false): GitLabJob {
  return {
    id,
    name: `job-${id}`,
    stage: 'test',
    status: 'failed',
    allow_failure: allowFailure,
    commit: { title: 'Bump the parser' },
    pipeline: { id: pipelineId, project_id: 1 },
  } as unknown as GitLabJob;
}

/** A watched project 1 holding, as listed (no details yet), the fake's pipelines. */
function setup(concurrency = 4) {
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  const watched = new WatchedProjects();
  watched.replaceProjects([aProject({ id: 1 })]);
  const detailed: { id: number; jobs: number[] | undefined }[] = [];
  const deleted: number[] = [];
  let scheduled = 0;
  let settled = 0;
  const queue = new DetailQueue({
    gitlab,
    reads: new PipelineReads(gitlab),
    watched,
    tell: observerTeller(
      {
        pipelineDetailed: (detail, jobs) =>
          detailed.push({ id: detail.id, jobs: jobs?.map((j) => j.id) }),
        pipelineDeleted: (_projectId, id) => deleted.push(id),
      },
      silentLogger,
    ),
    logger: silentLogger,
    concurrency,
    windowStart: () => NOW - 7 * 24 * 60 * MINUTE,
    onDetails: () => scheduled++,
    onSettled: () => settled++,
  });
  const list = (...pipelines: GitLabPipeline[]) => {
    for (const p of pipelines) watched.get(1)!.pipelines.set(p.id, toPipelineRecord(p));
  };
  return {
    gitlab,
    watched,
    queue,
    list,
    detailed,
    deleted,
    counts: () => ({ scheduled, settled }),
  };
}

describe('DetailQueue', () => {
  it('reads each listed pipeline once, newest first, and says when it has settled', async () => {
    const { gitlab, watched, queue, list, detailed, counts } = setup(1);
    list(
      gitlab.addPipeline(1, 11, iso(NOW - 30 * MINUTE), 'success', 100),
      gitlab.addPipeline(1, 12, iso(NOW - 10 * MINUTE), 'success', 50),
    );
    queue.queueMissing(watched.readable());
    const settled = queue.settled();
    queue.pump(new AbortController().signal);
    await settled;
    expect(gitlab.calls.filter((c) => c.startsWith('getPipeline'))).toEqual([
      'getPipeline:12',
      'getPipeline:11',
    ]);
    expect(watched.pipeline(1, 11)).toMatchObject({ duration: 100, user: { username: 'ada' } });
    expect(detailed.map((d) => d.id)).toEqual([12, 11]);
    expect(counts()).toEqual({ scheduled: 2, settled: 1 });
    expect(queue.idle).toBe(true);

    gitlab.resetCalls();
    queue.queueMissing(watched.readable());
    expect(queue.idle).toBe(true); // details are current: nothing to read again
  });

  it("reads a recent failed pipeline's jobs once, and tells them with its details", async () => {
    const { gitlab, watched, queue, list, detailed } = setup();
    list(gitlab.addPipeline(1, 12, iso(NOW - 10 * MINUTE), 'failed', 50));
    gitlab.jobs.push(failedJob(121, 12, true), failedJob(122, 12));
    queue.queueMissing(watched.readable());
    queue.pump(new AbortController().signal);
    await queue.settled();
    expect(watched.pipeline(1, 12)!.failure).toEqual({
      jobId: 122,
      commitTitle: 'Bump the parser',
      job: { name: 'job-122', stage: 'test', failureReason: null },
    });
    expect(detailed).toEqual([{ id: 12, jobs: [121, 122] }]);
    expect(gitlab.callCount('listPipelineJobs')).toBe(1);
  });

  it('reads no jobs for a failed pipeline beyond the newest ten of its project', async () => {
    const { gitlab, watched, queue, list } = setup();
    list(gitlab.addPipeline(1, 1, iso(NOW - 60 * MINUTE), 'failed'));
    for (let id = 2; id <= 11; id++) list(gitlab.addPipeline(1, id, iso(NOW - (60 - id) * MINUTE)));
    queue.queueMissing(watched.readable());
    queue.pump(new AbortController().signal);
    await queue.settled();
    expect(gitlab.callCount('listPipelineJobs')).toBe(0);
    expect(watched.pipeline(1, 1)!.failure).toBeUndefined();
  });

  it('drops a pipeline GitLab deleted since it was listed, and tells the observer', async () => {
    const { gitlab, watched, queue, list, deleted } = setup();
    list(gitlab.addPipeline(1, 12, iso(NOW - 10 * MINUTE)));
    gitlab.pipelines.set(1, []);
    queue.queueMissing(watched.readable());
    queue.pump(new AbortController().signal);
    await queue.settled();
    expect(watched.pipeline(1, 12)).toBeUndefined();
    expect(deleted).toEqual([12]);
  });

  it('tells details a list carried at once, but holds a recent failure back until its jobs are read', async () => {
    const { gitlab, watched, queue, detailed } = setup();
    const state = watched.get(1)!;
    const ok = gitlab.addPipeline(1, 11, iso(NOW - 20 * MINUTE));
    const failed = gitlab.addPipeline(1, 12, iso(NOW - 10 * MINUTE), 'failed');
    for (const p of [ok, failed])
      state.pipelines.set(p.id, { ...toPipelineRecord(p), detailsFor: p.updated_at });
    gitlab.jobs.push(failedJob(122, 12));
    queue.arrived(state, ok);
    queue.arrived(state, failed);
    expect(detailed).toEqual([{ id: 11, jobs: undefined }]);
    queue.pump(new AbortController().signal);
    await queue.settled();
    expect(gitlab.callCount('getPipeline')).toBe(0); // the list brought the details
    expect(detailed).toEqual([
      { id: 11, jobs: undefined },
      { id: 12, jobs: [122] },
    ]);
  });

  it('releases its waiters when stopped with nothing in flight', async () => {
    const { gitlab, watched, queue, list } = setup();
    list(gitlab.addPipeline(1, 12, iso(NOW - 10 * MINUTE)));
    queue.queueMissing(watched.readable());
    const settled = queue.settled();
    queue.stop();
    await settled;
    expect(gitlab.callCount('getPipeline')).toBe(0);
  });
});
