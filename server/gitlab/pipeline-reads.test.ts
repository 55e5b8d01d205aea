import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { PipelineReads } from './pipeline-reads.ts';
import { FakeGitLab } from './testing/fake-gitlab.ts';
import { wireJob } from './testing/wire-fixtures.ts';
import type { GitLabJob, GitLabJobStatus, GitLabPipeline } from './wire.ts';

const AT = '2026-11-20T10:00:00.000Z';
const LATER = '2026-11-20T10:05:00.000Z';

/** A FakeGitLab whose pipeline and job reads wait until `release()`, and remember their signals. */
class SlowGitLab extends FakeGitLab {
  readonly signals: AbortSignal[] = [];
  private gates: (() => void)[] = [];

  release(): void {
    for (const open of this.gates.splice(0)) open();
  }

  override async getPipeline(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabPipeline> {
    await this.gate(signal);
    return super.getPipeline(projectId, pipelineId);
  }

  override async listPipelineJobs(
    projectId: number,
    pipelineId: number,
    signal?: AbortSignal,
  ): Promise<GitLabJob[]> {
    await this.gate(signal);
    return super.listPipelineJobs(projectId, pipelineId);
  }

  private gate(signal?: AbortSignal): Promise<void> {
    if (signal) this.signals.push(signal);
    return new Promise((resolve) => this.gates.push(resolve));
  }
}

function job(id: number, status: GitLabJobStatus): GitLabJob {
  const wire = wireJob(id) as unknown as GitLabJob;
  return { ...wire, status, pipeline: { ...wire.pipeline, id: 10, project_id: 1 } };
}

function setUp(status: GitLabPipeline['status'] = 'failed') {
  const gitlab = new SlowGitLab();
  gitlab.addPipeline(1, 10, AT, status);
  gitlab.jobs = [job(1, 'failed'), job(2, 'success')];
  return { gitlab, reads: new PipelineReads(gitlab) };
}

describe('PipelineReads', () => {
  it('asks GitLab once for readers of the same pipeline state, together or a little later', async () => {
    const { gitlab, reads } = setUp();
    const both = Promise.all([reads.jobs(1, 10, AT), reads.jobs(1, 10, AT)]);
    gitlab.release();
    const [a, b] = await both;
    expect(a).toBe(b);
    expect(await reads.jobs(1, 10, AT)).toBe(a);
    expect(gitlab.callCount('listPipelineJobs')).toBe(1);
    // A new updated_at is a new state of the pipeline: asked again.
    const again = reads.jobs(1, 10, LATER);
    gitlab.release();
    await again;
    expect(gitlab.callCount('listPipelineJobs')).toBe(2);
  });

  it('shares but does not keep answers that still move on their own', async () => {
    const { gitlab, reads } = setUp('running');
    gitlab.jobs = [job(1, 'running')];
    const together = Promise.all([
      reads.pipeline(1, 10, AT),
      reads.pipeline(1, 10, AT),
      reads.jobs(1, 10, AT),
      reads.jobs(1, 10, AT),
    ]);
    gitlab.release();
    await together;
    expect([gitlab.callCount('getPipeline'), gitlab.callCount('listPipelineJobs')]).toEqual([1, 1]);
    const later = Promise.all([reads.pipeline(1, 10, AT), reads.jobs(1, 10, AT)]);
    gitlab.release();
    await later;
    expect([gitlab.callCount('getPipeline'), gitlab.callCount('listPipelineJobs')]).toEqual([2, 2]);
  });

  it('forgets a failed read, so the next reader asks GitLab again', async () => {
    const { gitlab, reads } = setUp();
    gitlab.failWith = new AppError('upstream_unavailable', 'GitLab is down');
    const failed = reads.pipeline(1, 10, AT);
    gitlab.release();
    await expect(failed).rejects.toMatchObject({ code: 'upstream_unavailable' });
    gitlab.failWith = null;
    const next = reads.pipeline(1, 10, AT);
    gitlab.release();
    expect((await next).id).toBe(10);
    expect(gitlab.callCount('getPipeline')).toBe(2);
  });

  it('keeps a request going while anyone still waits for it, and cancels it when nobody does', async () => {
    const { gitlab, reads } = setUp();
    const mine = new AbortController();
    const stays = reads.jobs(1, 10, AT); // no signal: waits whatever happens
    const leaves = reads.jobs(1, 10, AT, mine.signal);
    mine.abort(new Error('stopped'));
    await expect(leaves).rejects.toThrow('stopped');
    expect(gitlab.signals[0]!.aborted).toBe(false);
    gitlab.release();
    expect(await stays).toHaveLength(2);

    const first = new AbortController();
    const second = new AbortController();
    const a = reads.pipeline(1, 10, AT, first.signal);
    const b = reads.pipeline(1, 10, AT, second.signal);
    first.abort(new Error('first gone'));
    expect(gitlab.signals[1]!.aborted).toBe(false);
    second.abort(new Error('second gone'));
    await expect(a).rejects.toThrow('first gone');
    await expect(b).rejects.toThrow('second gone');
    expect(gitlab.signals[1]!.aborted).toBe(true);
    // Cancelled reads are not kept: the next reader gets a fresh request.
    const c = reads.pipeline(1, 10, AT);
    gitlab.release();
    expect((await c).id).toBe(10);
    // Requests made: the shared jobs read, the cancelled pipeline read, the fresh one.
    expect(gitlab.signals).toHaveLength(3);
  });

  it('answers from details that came with a list, for finished pipelines only', async () => {
    const { gitlab, reads } = setUp();
    const detail = new FakeGitLab().addPipeline(1, 10, AT, 'failed');
    reads.remember(detail);
    expect(await reads.pipeline(1, 10, AT)).toBe(detail);
    reads.remember({ ...detail, status: 'running', updated_at: LATER });
    const running = reads.pipeline(1, 10, LATER);
    gitlab.release();
    await running;
    expect(gitlab.callCount('getPipeline')).toBe(1);
  });

  it('keeps at most its number of answers, dropping the least recently used', async () => {
    const gitlab = new FakeGitLab();
    for (const id of [10, 11, 12]) gitlab.addPipeline(1, id, AT, 'failed');
    const reads = new PipelineReads(gitlab, 2);
    await reads.pipeline(1, 10, AT);
    await reads.pipeline(1, 11, AT);
    await reads.pipeline(1, 10, AT); // used again: 11 is now the oldest
    await reads.pipeline(1, 12, AT);
    await reads.pipeline(1, 10, AT);
    expect(gitlab.callCount('getPipeline')).toBe(3);
    await reads.pipeline(1, 11, AT);
    expect(gitlab.callCount('getPipeline')).toBe(4);
  });

  it('reads a commit once per sha, keeping "GitLab has it no more" as null', async () => {
    // FakeGitLab has no commits: every lookup is GitLab's 404.
    const gitlab = new FakeGitLab();
    const reads = new PipelineReads(gitlab);
    const sha = 'a'.repeat(40);
    await expect(Promise.all([reads.commit(1, sha), reads.commit(1, sha)])).resolves.toEqual([
      null,
      null,
    ]);
    await expect(reads.commit(1, sha)).resolves.toBeNull();
    expect(gitlab.callCount('getCommit')).toBe(1);
    await reads.commit(1, 'b'.repeat(40));
    expect(gitlab.callCount('getCommit')).toBe(2);
  });
});
