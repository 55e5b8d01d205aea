import { describe, expect, it } from 'vitest';
import type { StoredJobSignature } from '../history/failure-signatures.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { agoInWords, FixIndex, fixInWords } from './past-fixes.ts';

const S = 'compile_error: src<p>(#): error TS#: Argument of type';
const T = 'dependency_network: npm error code ERESOLVE';

/** A project whose `build` failed with S on main and on an MR, each fixed by a known commit. */
function scenario() {
  const h = new HistoryBuilder().project(1, 'api').project(2, 'web');
  const failed = (minutesAgo: number, sha: string, ref?: string, projectId = 1) =>
    h.pipeline({
      projectId,
      status: 'failed',
      minutesAgo,
      sha,
      ref,
      jobs: [{ name: 'build', status: 'failed' }],
    });
  const green = (
    minutesAgo: number,
    sha: string,
    ref?: string,
    commitTitle?: string,
    projectId = 1,
  ) =>
    h.pipeline({
      projectId,
      status: 'success',
      minutesAgo,
      sha,
      ref,
      commitTitle,
      commitAuthor: 'Dana Reyes',
      jobs: [{ name: 'build', status: 'success' }],
    });
  const mr = 'refs/merge-requests/7/head';
  const ids = {
    p1: failed(600, 'a1'),
    p2: failed(540, 'a2'),
    p3: green(500, 'b1', undefined, 'pin node to 20.11'),
    p4: failed(400, 'c1', mr),
    // Failed again on the same commit, then a new commit made it green.
    p5: failed(390, 'c1', mr),
    p6: green(380, 'c2', mr, 'Narrow the option type'),
    p7: failed(300, 'd1'),
    p8: green(250, 'd2'),
    p9: failed(100, 'e1'),
    // The same error in another project, green again on the same commit: a flake, not a fix.
    q1: failed(450, 'x1', undefined, 2),
    q2: green(420, 'x1', undefined, 'retried', 2),
    q3: failed(50, 'x3', undefined, 2),
  };
  const snapshot = h.build();
  const rows: StoredJobSignature[] = [];
  for (const p of snapshot.pipelines) {
    const job = snapshot.jobs.get(p.pipelineId)!.find((j) => j.status === 'failed');
    if (!job) continue;
    rows.push({
      jobId: job.jobId,
      projectId: p.projectId,
      pipelineId: p.pipelineId,
      jobName: job.name,
      signature: p.pipelineId === ids.p7 ? T : S,
      sampleLine: 'line',
      category: 'compile_error',
      failedAt: job.finishedAt!,
    });
  }
  const index = new FixIndex(
    snapshot,
    rows,
    (projectId, iid) =>
      projectId === 1 && iid === 7
        ? {
            title: 'Narrow the option type',
            webUrl: 'https://gitlab.example/acme/api/-/merge_requests/7',
          }
        : undefined,
    (id) => `https://gitlab.example/acme/${id === 1 ? 'api' : 'web'}`,
  );
  return { ids, index, snapshot };
}

describe('FixIndex.fixesFor', () => {
  it('lists the first green pipeline after each earlier occurrence, newest first, with commit and MR', () => {
    const { ids, index, snapshot } = scenario();
    const at = (id: number) => {
      const p = snapshot.pipelines.find((x) => x.pipelineId === id)!;
      return new Date(p.finishedAt!).toISOString();
    };
    expect(index.fixesFor({ projectId: 1, pipelineId: ids.p9, signature: S })).toEqual([
      {
        pipeline_id: ids.p6,
        sha: 'c2',
        short_sha: 'c2',
        commit_title: 'Narrow the option type',
        commit_author: 'Dana Reyes',
        merge_request: {
          iid: 7,
          title: 'Narrow the option type',
          web_url: 'https://gitlab.example/acme/api/-/merge_requests/7',
        },
        fixed_at: at(ids.p6),
        failed_pipeline_id: ids.p5,
      },
      {
        pipeline_id: ids.p3,
        sha: 'b1',
        short_sha: 'b1',
        commit_title: 'pin node to 20.11',
        commit_author: 'Dana Reyes',
        merge_request: null,
        fixed_at: at(ids.p3),
        // Of the two failures P3 fixed, the nearer one is named.
        failed_pipeline_id: ids.p2,
      },
    ]);
  });

  it('knows no fix before the first one, for another signature, or in another project', () => {
    const { ids, index } = scenario();
    // P2's only earlier occurrence (P1) went green after P2 ran: not a fix P2 could have known.
    expect(index.fixesFor({ projectId: 1, pipelineId: ids.p2, signature: S })).toEqual([]);
    // Project 2's S went green on the same commit (a retry): no fix, and project 1's fixes are not its.
    expect(index.fixesFor({ projectId: 2, pipelineId: ids.q3, signature: S })).toEqual([]);
    expect(index.fixesFor({ projectId: 1, pipelineId: ids.p9, signature: T })).toHaveLength(1);
    expect(index.fixesFor({ projectId: 1, pipelineId: ids.p9, signature: 'unknown' })).toEqual([]);
  });

  it('names an MR whose pipeline built the fixing commit of a branch pipeline', () => {
    const h = new HistoryBuilder().project(1, 'api');
    const failed = h.pipeline({
      projectId: 1,
      status: 'failed',
      minutesAgo: 300,
      sha: 'f1',
      jobs: [{ name: 'lint', status: 'failed' }],
    });
    h.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo: 250,
      sha: 'g1',
      ref: 'refs/merge-requests/12/head',
    });
    const fix = h.pipeline({ projectId: 1, status: 'success', minutesAgo: 200, sha: 'g1' });
    const now = h.pipeline({ projectId: 1, status: 'failed', minutesAgo: 10, sha: 'h1' });
    const snapshot = h.build();
    const job = snapshot.jobs.get(failed)![0]!;
    const index = new FixIndex(
      snapshot,
      [
        {
          jobId: job.jobId,
          projectId: 1,
          pipelineId: failed,
          jobName: 'lint',
          signature: S,
          sampleLine: '',
          category: '',
          failedAt: job.finishedAt!,
        },
      ],
      () => undefined,
      () => 'https://gitlab.example/acme/api',
    );
    expect(index.fixesFor({ projectId: 1, pipelineId: now, signature: S })).toMatchObject([
      {
        pipeline_id: fix,
        merge_request: {
          iid: 12,
          title: null,
          web_url: 'https://gitlab.example/acme/api/-/merge_requests/12',
        },
      },
    ]);
  });
});

describe('fixInWords', () => {
  it('says who fixed it, how and when', () => {
    expect(
      fixInWords(
        {
          pipeline_id: 88,
          sha: 'a1b2c3d4e5',
          short_sha: 'a1b2c3d4',
          commit_title: 'pin node to 20.11',
          commit_author: 'Dana Reyes',
          merge_request: { iid: 7, title: 'Pin node', web_url: 'u' },
          fixed_at: new Date(FIXTURE_NOW - 14 * 86_400_000).toISOString(),
          failed_pipeline_id: 80,
        },
        FIXTURE_NOW,
      ),
    ).toBe(
      "fixed before by a1b2c3d4 'pin node to 20.11' by Dana Reyes (!7) 2 weeks ago (pipeline #88, after the same error in #80)",
    );
    expect(agoInWords(30 * 60_000)).toBe('less than an hour ago');
    expect(agoInWords(3_600_000)).toBe('1 hour ago');
    expect(agoInWords(5 * 86_400_000)).toBe('5 days ago');
  });
});
