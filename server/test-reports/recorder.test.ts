// The test-report queue on disk next to a history that writes its pipelines behind (in batches):
// a queued read's row references its pipeline's row, so it is written once the pipeline is.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitLabJob } from '../gitlab/wire.ts';
import { HistoryStore } from '../history/history-store.ts';
import { PipelineHistory } from '../history/pipeline-history.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { TestReportRecorder } from './recorder.ts';
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
