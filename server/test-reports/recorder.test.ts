// The test-report queue on disk next to a history that writes its pipelines behind (in batches):
// a queued read's row references its pipeline's row, so it is written once the pipeline is.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GraphQLRefusal,
  type BulkTestSummary,
  type GraphQLPipelines,
} from '../gitlab/graphql-pipelines.ts';
import { refusalOfErrors } from '../gitlab/graphql-refusal.ts';
import type { GitLabJob, GitLabTestReportSummary } from '../gitlab/wire.ts';
import { HistoryStore } from '../history/history-store.ts';
import { PipelineHistory } from '../history/pipeline-history.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { TestReportRecorder, type TestReportRecorderDeps } from './recorder.ts';
import { TestReportStore } from './store.ts';

let dir: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'test-report-recorder-'));
  store = HistoryStore.open(path.join(dir, 'history.db'), silentLogger);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A job list naming a JUnit artifact (doc/api/jobs.md `artifacts`). */
function junitJobs(pipelineId: number): GitLabJob[] {
  return [
    {
      id: 1,
      name: 'test',
      stage: 'test',
      status: 'success',
      ref: 'main',
      tag: false,
      allow_failure: false,
      created_at: new Date(FIXTURE_NOW).toISOString(),
      started_at: null,
      finished_at: null,
      duration: null,
      queued_duration: null,
      web_url: '',
      user: null,
      commit: null,
      pipeline: { id: pipelineId, project_id: 1, ref: 'main', sha: 'x', status: 'success' },
      artifacts: [{ file_type: 'junit' }],
    },
  ];
}

function open() {
  const b = new HistoryBuilder().project(1, 'api');
  const first = b.pipeline({ projectId: 1, status: 'success', minutesAgo: 30 });
  const second = b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 20 });
  const snapshot = b.build();
  const history = PipelineHistory.open(store, FIXTURE_NOW, 0);
  history.setProjects(snapshot.projects);
  const reports = new TestReportStore(store.database());
  // No report methods: a read ends at once and leaves its row queued, as a hung read would.
  const recorder = new TestReportRecorder({
    gitlab: {},
    store: reports,
    pipeline: (id) => history.pipeline(id),
    flush: () => history.flush(),
    clock: new ManualClock(FIXTURE_NOW),
    logger: silentLogger,
  });
  const record = (id: number) => snapshot.pipelines.find((p) => p.pipelineId === id)!;
  return { history, reports, recorder, record, first, second };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TestReportRecorder queue on disk', () => {
  it('queues a pipeline the history has not written yet, without failing', async () => {
    const { history, reports, recorder, record, first, second } = open();
    // Saved, not flushed: the pipelines rows are not on disk when the jobs are stored.
    history.save([record(first), record(second)]);
    expect(() => recorder.jobsStored(record(first), junitJobs(first))).not.toThrow();
    expect(() => recorder.jobsStored(record(second), junitJobs(second))).not.toThrow();
    await nextTurn();
    await recorder.idle();
    expect(reports.queued().map((q) => q.pipelineId)).toEqual([second, first]);
    recorder.stop();
  });

  it('writes what it queued when it stops, and skips a pipeline deleted meanwhile', () => {
    const { history, reports, recorder, record, first, second } = open();
    history.save([record(first), record(second)]);
    recorder.jobsStored(record(first), junitJobs(first));
    recorder.jobsStored(record(second), junitJobs(second));
    history.delete([second]);
    recorder.stop();
    expect(reports.queued().map((q) => q.pipelineId)).toEqual([first]);
    // Stopped: nothing more is queued (the store may be closing).
    recorder.jobsStored(record(second), junitJobs(second));
    expect(reports.queued().map((q) => q.pipelineId)).toEqual([first]);
  });
});

/** A summary of one passing suite run by job 1 (doc/api/pipelines.md, test_report_summary). */
function passingSummary(): GitLabTestReportSummary {
  const counts = { count: 3, success: 3, failed: 0, skipped: 0, error: 0 };
  return {
    total: { time: 1.5, ...counts, suite_error: null },
    test_suites: [
      {
        name: 'unit',
        total_time: 1.5,
        total_count: 3,
        success_count: 3,
        failed_count: 0,
        skipped_count: 0,
        error_count: 0,
        build_ids: [1],
        suite_error: null,
      },
    ],
  };
}

/** Fifteen finished pipelines with reports, and a recorder reading them through `gitlab`. */
function openMany(gitlab: TestReportRecorderDeps['gitlab']) {
  const b = new HistoryBuilder().project(1, 'api');
  const ids = Array.from({ length: 15 }, (_, i) =>
    b.pipeline({ projectId: 1, status: 'success', minutesAgo: 60 - i }),
  );
  const snapshot = b.build();
  const history = PipelineHistory.open(store, FIXTURE_NOW, 0);
  history.setProjects(snapshot.projects);
  history.save(snapshot.pipelines);
  history.flush();
  const reports = new TestReportStore(store.database());
  const recorder = new TestReportRecorder({
    gitlab,
    projectPath: (id) => (id === 1 ? 'acme/api' : undefined),
    store: reports,
    pipeline: (id) => history.pipeline(id),
    flush: () => history.flush(),
    clock: new ManualClock(FIXTURE_NOW),
    logger: silentLogger,
  });
  for (const p of snapshot.pipelines) recorder.jobsStored(p, junitJobs(p.pipelineId));
  return { ids, reports, recorder };
}

/**
 * GitLab whose REST summaries pass (each pipeline asked is noted in `rest`) and whose bulk read
 * is `bulk`; no full report is ever needed.
 */
function fakeGitLab(
  bulk: (
    requests: { fullPath: string; pipelineIds: readonly number[] }[],
  ) => Promise<Map<number, BulkTestSummary>>,
) {
  const rest: number[] = [];
  const gitlab: TestReportRecorderDeps['gitlab'] = {
    getTestReportSummary: (_project, pipelineId) => {
      rest.push(pipelineId);
      return Promise.resolve(passingSummary());
    },
    getTestReport: () => Promise.reject(new Error('a passing summary needs no report')),
    bulk: { testReportSummaries: bulk } as unknown as GraphQLPipelines,
  };
  return { gitlab, rest };
}

describe('TestReportRecorder reads summaries over GraphQL in batches', () => {
  it('asks for 30 pipelines a query and GitLab says the batch is too complex: it shrinks and reads them all', async () => {
    const batches: number[] = [];
    // GitLab before ProjectPipelineResolver's −10 counts 17 a pipeline (graphql-pipelines.ts).
    const { gitlab, rest } = fakeGitLab((requests) => {
      const ids = requests.flatMap((r) => r.pipelineIds);
      batches.push(ids.length);
      const actual = ids.length * 17 + requests.length;
      if (actual > 250)
        return Promise.reject(
          refusalOfErrors(`Query has complexity of ${actual}, which exceeds max complexity of 250`),
        );
      return Promise.resolve(new Map(ids.map((id) => [id, passingSummary()])));
    });
    const { ids, reports, recorder } = openMany(gitlab);
    await nextTurn();
    await recorder.idle();
    // 15 queued: refused at 15 (256 > 250); GitLab's numbers allow 14, then the last one.
    expect(batches).toEqual([15, 14, 1]);
    expect(rest).toEqual([]);
    expect(ids.every((id) => reports.readAt(id) !== undefined)).toBe(true);
    expect(recorder.requests).toMatchObject({ summaries: 0, summaryQueries: 3, summarised: 15 });
    expect(recorder.mode.note).toBeNull();
    expect(recorder.mode).toEqual({ api: 'graphql', note: null });
    recorder.stop();
  });

  it('GitLab refuses GraphQL (404): every summary is read over REST, once, and the note says why', async () => {
    let queries = 0;
    const { gitlab, rest } = fakeGitLab(() => {
      queries++;
      return Promise.reject(new GraphQLRefusal('absent', 'HTTP 404 Not found!'));
    });
    const { ids, reports, recorder } = openMany(gitlab);
    await nextTurn();
    await recorder.idle();
    expect(queries).toBe(1);
    expect([...rest].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.every((id) => reports.readAt(id) !== undefined)).toBe(true);
    expect(recorder.mode.note).toMatch(
      /refused the query: HTTP 404 Not found!; reading test report summaries over REST \(one request per pipeline\) until the service restarts/,
    );
    expect(recorder.mode).toEqual({ api: 'rest', note: recorder.mode.note });
    recorder.stop();
  });

  it('a pipeline GitLab no longer shows is dropped from the queue; one GraphQL cannot tell whole goes to REST', async () => {
    let first = 0;
    let second = 0;
    const { gitlab, rest } = fakeGitLab((requests) => {
      const ids = requests.flatMap((r) => r.pipelineIds);
      [first, second] = [ids[0]!, ids[1]!];
      const answers = new Map<number, BulkTestSummary>(ids.map((id) => [id, passingSummary()]));
      answers.set(first, null);
      answers.set(second, 'rest');
      return Promise.resolve(answers);
    });
    const { ids, reports, recorder } = openMany(gitlab);
    await nextTurn();
    await recorder.idle();
    expect(rest).toEqual([second]);
    expect(reports.readAt(first)).toBeUndefined();
    expect(reports.queued().map((q) => q.pipelineId)).not.toContain(first);
    expect(ids.filter((id) => reports.readAt(id) !== undefined)).toHaveLength(14);
    recorder.stop();
  });
});
