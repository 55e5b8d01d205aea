import { describe, expect, it } from 'vitest';
import { computeGroupHealth } from '../group-health/group-health.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { judgeFailure, TargetBranchIndex } from './verdict.ts';

const ok = (name: string) => ({ name, status: 'success' });
const ko = (name: string) => ({ name, status: 'failed' });

/** main: lint broke two pipelines ago; test flaked on a branch; build passes; deploy never runs. */
function group() {
  const h = new HistoryBuilder().project(1, 'api');
  const m1 = h.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 600,
    sha: 'm1',
    commitTitle: 'Bump deps',
    commitAuthor: 'Lin',
    jobs: [ok('lint'), ok('test'), ok('build')],
  });
  const m2 = h.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 500,
    sha: 'm2',
    commitTitle: 'Enable the new lint rule',
    commitAuthor: 'Sam',
    jobs: [ko('lint'), ok('test'), ok('build')],
  });
  const m3 = h.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 400,
    sha: 'm3',
    commitTitle: 'Docs',
    commitAuthor: 'Lin',
    jobs: [ko('lint'), ok('test'), ok('build')],
  });
  // `test` failed and passed on retry on another branch: a flake.
  h.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 300,
    sha: 'z1',
    ref: 'feature/z',
    jobs: [ko('test'), ok('test')],
  });
  const mr = h.pipeline({
    projectId: 1,
    status: 'failed',
    minutesAgo: 100,
    sha: 'y1',
    ref: 'refs/merge-requests/5/head',
    jobs: [ko('lint'), ko('test'), ko('build'), ko('deploy')],
  });
  const snapshot = h.build();
  const health = computeGroupHealth({
    snapshot,
    now: FIXTURE_NOW,
    windowMs: 7 * 86_400_000,
    since: '7d',
    mergeRequests: () => undefined,
  });
  return { ids: { m1, m2, m3, mr }, snapshot, flakes: health.flakes };
}

describe('judgeFailure', () => {
  it('tells a failure red on the target branch, a flaky job, a new failure and an unknown one apart', () => {
    const { ids, snapshot, flakes } = group();
    const targets = new TargetBranchIndex(snapshot);
    const judge = (jobName: string) =>
      judgeFailure(
        { projectId: 1, jobName, sha: 'y1', targetBranch: 'main' },
        targets,
        flakes,
        FIXTURE_NOW,
      );
    const at = (minutesAgo: number) => new Date(FIXTURE_NOW - minutesAgo * 60_000).toISOString();

    expect(judge('lint')).toEqual({
      verdict: 'broken-on-default',
      evidence: {
        text: `\`lint\` fails on \`main\` too, since #${ids.m2} (m2 'Enable the new lint rule' by Sam, 8 hours ago): not this change's doing`,
        since: {
          pipeline_id: ids.m2,
          sha: 'm2',
          short_sha: 'm2',
          commit_title: 'Enable the new lint rule',
          commit_author: 'Sam',
          web_url: `https://gitlab.example/acme/api/-/pipelines/${ids.m2}`,
          at: at(500),
        },
        last_passed: null,
        flakes: null,
      },
    });
    // `test` runs: m1, m2, m3, the retried branch pipeline and the MR: 5 runs, one flake.
    expect(judge('test')).toEqual({
      verdict: 'flaky',
      evidence: {
        text: '`test` failed and passed on retry once this week (5 runs)',
        since: null,
        last_passed: null,
        flakes: { flakes: 1, runs: 5, flake_rate: 20 },
      },
    });
    expect(judge('build')).toMatchObject({
      verdict: 'new',
      evidence: {
        text: `\`build\` passed on \`main\` in #${ids.m3} (m3 'Docs' by Lin, 7 hours ago) and fails here`,
        last_passed: { pipeline_id: ids.m3, sha: 'm3' },
      },
    });
    expect(judge('deploy')).toEqual({
      verdict: 'unknown',
      evidence: {
        text: '`deploy` did not run in the 3 finished pipelines of `main` in the history',
        since: null,
        last_passed: null,
        flakes: null,
      },
    });
    expect(
      judgeFailure(
        { projectId: 1, jobName: 'build', sha: 'y1', targetBranch: 'release' },
        targets,
        flakes,
        FIXTURE_NOW,
      ),
    ).toMatchObject({
      verdict: 'unknown',
      evidence: { text: 'no finished pipeline of `release` is in the history to compare with' },
    });
  });

  it('calls a job that failed and passed on this very commit flaky before anything else', () => {
    const h = new HistoryBuilder().project(1, 'api');
    h.pipeline({ projectId: 1, status: 'failed', minutesAgo: 300, sha: 'm1', jobs: [ko('test')] });
    h.pipeline({
      projectId: 1,
      status: 'failed',
      minutesAgo: 200,
      sha: 'y1',
      ref: 'feature/y',
      jobs: [ko('test')],
    });
    h.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo: 100,
      sha: 'y1',
      ref: 'refs/merge-requests/9/head',
      jobs: [ok('test')],
    });
    const snapshot = h.build();
    const { flakes } = computeGroupHealth({
      snapshot,
      now: FIXTURE_NOW,
      windowMs: 7 * 86_400_000,
      since: '7d',
      mergeRequests: () => undefined,
    });
    const judged = judgeFailure(
      { projectId: 1, jobName: 'test', sha: 'y1', targetBranch: 'main' },
      new TargetBranchIndex(snapshot),
      flakes,
      FIXTURE_NOW,
    );
    expect(judged.verdict).toBe('flaky');
    expect(judged.evidence.text).toBe(
      '`test` failed and passed on this very commit; it failed and passed on the same commit once this week (3 runs)',
    );
  });
});
