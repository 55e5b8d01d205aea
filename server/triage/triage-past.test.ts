import { describe, expect, it } from 'vitest';
import { computeGroupHealth } from '../group-health/group-health.ts';
import { HistoryStore } from '../history/history-store.ts';
import { mergeRequestIid } from '../history/model.ts';
import { PipelineHistory } from '../history/pipeline-history.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { silentLogger } from '../platform/logger.ts';
import { FixIndex } from './past-fixes.ts';
import { judgeFailure, TargetBranchIndex } from './verdict.ts';

const DAY_MIN = 24 * 60;
const ok = (name: string) => ({ name, status: 'success' });
const ko = (name: string) => ({ name, status: 'failed' });

/**
 * Everything triage needs lies before an 8-day hot horizon: `build` broke on main 20 days ago and
 * was fixed a day later; `test` broke main 15 days ago (nothing ran on main since); the open merge
 * request !7's last pipeline is 12 days old and fails both.
 */
function history() {
  const h = new HistoryBuilder().project(1, 'api');
  const ids = {
    firstBuild: h.pipeline({
      projectId: 1,
      status: 'failed',
      minutesAgo: 20 * DAY_MIN,
      sha: 'a1',
      jobs: [ko('build'), ok('test')],
    }),
    fix: h.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo: 19 * DAY_MIN,
      sha: 'b1',
      commitTitle: 'pin node to 20.11',
      jobs: [ok('build'), ok('test')],
    }),
    broken: h.pipeline({
      projectId: 1,
      status: 'failed',
      minutesAgo: 15 * DAY_MIN,
      sha: 'c1',
      jobs: [ok('build'), ko('test')],
    }),
    mr: h.pipeline({
      projectId: 1,
      status: 'failed',
      minutesAgo: 12 * DAY_MIN,
      sha: 'd1',
      ref: 'refs/merge-requests/7/head',
      jobs: [ko('build'), ko('test')],
    }),
    recent: h.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo: 60,
      ref: 'feature/x',
      jobs: [ok('build'), ok('test')],
    }),
  };
  const built = h.build();
  const store = HistoryStore.open(':memory:', silentLogger);
  const history = PipelineHistory.open(store, FIXTURE_NOW, FIXTURE_NOW - 7 * DAY_MIN * 60_000, {
    hotStart: (now) => now - 8 * DAY_MIN * 60_000,
  });
  history.setProjects(built.projects);
  history.save(built.pipelines, built.jobs);
  history.flush();
  return { ids, built, store };
}

describe('triage past the hot horizon', () => {
  it('finds the merge request’s old pipeline, the old fix and the old breakage of main', async () => {
    const { ids, built, store } = history();
    // Reopened: memory holds 8 days, the rest is on disk.
    const history2 = PipelineHistory.open(store, FIXTURE_NOW, FIXTURE_NOW - 7 * DAY_MIN * 60_000, {
      hotStart: (now) => now - 8 * DAY_MIN * 60_000,
      // Memory's runs cover the duration series: the health views read no job series walk.
      runsKept: 1,
    });
    await history2.loadAll();
    expect(history2.snapshot().pipelines.some((p) => p.pipelineId === ids.mr)).toBe(false);

    const withPast = history2.withPast([1]);
    expect(withPast.pipelines.map((p) => p.pipelineId)).toEqual([
      ids.firstBuild,
      ids.fix,
      ids.broken,
      ids.mr,
      ids.recent,
    ]);
    const mrPipeline = withPast.pipelines.findLast((p) => mergeRequestIid(p.ref) === 7)!;
    expect(mrPipeline.pipelineId).toBe(ids.mr);
    expect(withPast.jobs.get(ids.mr)!.map((j) => [j.name, j.status])).toEqual([
      ['build', 'failed'],
      ['test', 'failed'],
    ]);

    const flakes = computeGroupHealth({
      snapshot: built,
      now: FIXTURE_NOW,
      windowMs: 7 * DAY_MIN * 60_000,
      since: '7d',
      mergeRequests: () => undefined,
    }).flakes;
    const judged = judgeFailure(
      { projectId: 1, jobName: 'test', sha: 'd1', targetBranch: 'main' },
      new TargetBranchIndex(withPast),
      flakes,
      FIXTURE_NOW,
    );
    expect(judged.verdict).toBe('broken-on-default');
    expect(judged.evidence.since?.pipeline_id).toBe(ids.broken);

    const buildJob = (pipelineId: number) =>
      built.jobs.get(pipelineId)!.find((j) => j.name === 'build')!;
    const signed = (pipelineId: number) => ({
      jobId: buildJob(pipelineId).jobId,
      projectId: 1,
      pipelineId,
      jobName: 'build',
      signature: 'tsc:TS2322',
      sampleLine: 'error TS2322',
      category: 'compile',
      failedAt: FIXTURE_NOW,
    });
    const fixesIn = (snapshot: typeof withPast) =>
      new FixIndex(
        snapshot,
        [signed(ids.firstBuild), signed(ids.mr)],
        () => undefined,
        () => 'https://gitlab.example/acme/api',
      ).fixesFor({ projectId: 1, pipelineId: ids.mr, signature: 'tsc:TS2322' });
    expect(
      fixesIn(withPast).map((f) => [f.pipeline_id, f.commit_title, f.failed_pipeline_id]),
    ).toEqual([[ids.fix, 'pin node to 20.11', ids.firstBuild]]);
    // Memory and the health views' cold context alone miss the first failure, so the fix.
    expect(fixesIn(history2.snapshot())).toEqual([]);
    store.close();
  });
});
