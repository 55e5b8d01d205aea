import type Database from 'better-sqlite3';
import { statementCache } from '../platform/sqlite-store-file.ts';

/** What `cases` says of a run's test cases (see migration.ts). */
export type CasesState = 'none' | 'read' | 'expired';

/** One suite of one read, as stored. */
export interface TestRun {
  runId: number;
  pipelineId: number;
  projectId: number;
  suite: string;
  buildIds: number[];
  jobId: number | null;
  jobName: string;
  latest: boolean;
  total: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
  time: number;
  cases: CasesState;
  /** The pipeline's commit, ref, default-branch flag, creation time and link (joined). */
  sha: string;
  ref: string;
  defaultBranch: boolean;
  createdAt: number;
  pipelineWebUrl: string;
}

/** A stored test case of a run. */
export interface TestCaseRow {
  runId: number;
  classname: string;
  name: string;
  file: string | null;
  status: string;
  duration: number | null;
  stackTrace: string | null;
}

/** A run to store (its test cases beside it). */
export interface NewTestRun {
  suite: string;
  buildIds: number[];
  jobId: number | null;
  jobName: string;
  total: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
  time: number;
  suiteError: string | null;
  cases: CasesState;
  results: Omit<TestCaseRow, 'runId'>[];
}

interface RunRow {
  run_id: number;
  pipeline_id: number;
  project_id: number;
  suite: string;
  build_ids: string;
  job_id: number | null;
  job_name: string;
  latest: number;
  total: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
  time: number;
  cases: CasesState;
  sha: string;
  ref: string;
  default_branch: number;
  created_ms: number;
  web_url: string;
}

interface ResultRow {
  run_id: number;
  classname: string;
  name: string;
  file: string | null;
  status: string;
  duration: number | null;
  stack_trace: string | null;
}

/** The columns a read writes into `test_runs` (the joined pipeline columns are not stored there). */
type StoredRunRow = Pick<
  RunRow,
  | 'pipeline_id'
  | 'suite'
  | 'build_ids'
  | 'job_id'
  | 'job_name'
  | 'total'
  | 'success'
  | 'failed'
  | 'skipped'
  | 'error'
  | 'time'
  | 'cases'
> & { suite_error: string | null; read_ms: number };

function toRunRow(pipelineId: number, run: NewTestRun, readMs: number): StoredRunRow {
  return {
    pipeline_id: pipelineId,
    suite: run.suite,
    // Sorted: the same jobs are the same attempt whatever order GitLab lists them in.
    build_ids: JSON.stringify([...run.buildIds].sort((a, b) => a - b)),
    job_id: run.jobId,
    job_name: run.jobName,
    total: run.total,
    success: run.success,
    failed: run.failed,
    skipped: run.skipped,
    error: run.error,
    time: run.time,
    suite_error: run.suiteError,
    cases: run.cases,
    read_ms: readMs,
  };
}

function toResultRow(runId: number, r: Omit<TestCaseRow, 'runId'>): ResultRow {
  return {
    run_id: runId,
    classname: r.classname,
    name: r.name,
    file: r.file,
    status: r.status,
    duration: r.duration,
    stack_trace: r.stackTrace,
  };
}

const RUN_COLUMNS = `t.run_id, t.pipeline_id, p.project_id, t.suite, t.build_ids, t.job_id, t.job_name,
  t.latest, t.total, t.success, t.failed, t.skipped, t.error, t.time, t.cases, p.sha, p.ref,
  p.default_branch, p.created_ms, p.web_url`;

function fromRunRow(r: RunRow): TestRun {
  return {
    runId: r.run_id,
    pipelineId: r.pipeline_id,
    projectId: r.project_id,
    suite: r.suite,
    buildIds: JSON.parse(r.build_ids) as number[],
    jobId: r.job_id,
    jobName: r.job_name,
    latest: r.latest === 1,
    total: r.total,
    success: r.success,
    failed: r.failed,
    skipped: r.skipped,
    error: r.error,
    time: r.time,
    cases: r.cases,
    sha: r.sha,
    ref: r.ref,
    defaultBranch: r.default_branch === 1,
    createdAt: r.created_ms,
    pipelineWebUrl: r.web_url,
  };
}

function fromResultRow(r: ResultRow): TestCaseRow {
  return {
    runId: r.run_id,
    classname: r.classname,
    name: r.name,
    file: r.file,
    status: r.status,
    duration: r.duration,
    stackTrace: r.stack_trace,
  };
}

/** A report still to read, as the queue keeps it across restarts. */
export interface QueuedRead {
  pipelineId: number;
  projectId: number;
  updatedAt: string;
  createdAt: number;
  /** The pipeline's job names by job id. */
  jobNames: ReadonlyMap<number, string>;
}

interface QueueRow {
  pipeline_id: number;
  project_id: number;
  updated_at: string;
  created_ms: number;
  job_names: string;
}

function toQueueRow(q: QueuedRead): QueueRow {
  return {
    pipeline_id: q.pipelineId,
    project_id: q.projectId,
    updated_at: q.updatedAt,
    created_ms: q.createdAt,
    job_names: JSON.stringify([...q.jobNames]),
  };
}

function fromQueueRow(r: QueueRow): QueuedRead {
  const names = JSON.parse(r.job_names) as [number, string][];
  return {
    pipelineId: r.pipeline_id,
    projectId: r.project_id,
    updatedAt: r.updated_at,
    createdAt: r.created_ms,
    jobNames: new Map(names),
  };
}

/** Runs and the test cases stored for them. */
export interface TestRunsSnapshot {
  runs: TestRun[];
  results: TestCaseRow[];
}

/**
 * The test-report tables of the history database (migration.ts): written one pipeline read per
 * transaction, read by window for the analyses. Rows go with their pipeline (prune, deletion).
 */
export class TestReportStore {
  private readonly stmt: (sql: string) => Database.Statement;
  private writes = 0;

  constructor(private readonly db: Database.Database) {
    this.stmt = statementCache(db);
  }

  /** The `updated_at` the pipeline's report was last read at, if it was. */
  readAt(pipelineId: number): string | undefined {
    return this.stmt('SELECT updated_at FROM test_report_reads WHERE pipeline_id = ?')
      .pluck()
      .get(pipelineId) as string | undefined;
  }

  /**
   * Remembers reports to read (replacing an older state's), until `saveRead` or `unqueue`, in one
   * transaction; a pipeline the history no longer stores (deleted or pruned meanwhile) is skipped.
   */
  enqueue(reads: readonly QueuedRead[]): void {
    const insert = this.stmt(
      `INSERT INTO test_report_queue (pipeline_id, project_id, updated_at, created_ms, job_names)
       SELECT @pipeline_id, @project_id, @updated_at, @created_ms, @job_names
       WHERE EXISTS (SELECT 1 FROM pipelines WHERE pipeline_id = @pipeline_id)
       ON CONFLICT (pipeline_id) DO UPDATE SET updated_at = excluded.updated_at,
         job_names = excluded.job_names`,
    );
    this.db.transaction(() => {
      for (const read of reads) insert.run(toQueueRow(read));
    })();
  }

  /** Forgets a queued read that cannot be done (GitLab no longer has the pipeline, or denies it). */
  unqueue(pipelineId: number): void {
    this.stmt('DELETE FROM test_report_queue WHERE pipeline_id = ?').run(pipelineId);
  }

  /** The reports queued and not read yet, newest pipeline first. */
  queued(): QueuedRead[] {
    return (
      this.stmt('SELECT * FROM test_report_queue ORDER BY created_ms DESC').all() as QueueRow[]
    ).map(fromQueueRow);
  }

  /**
   * Stores one read of a pipeline's report in one transaction: its runs become the pipeline's
   * latest, earlier attempts' runs (other jobs) stay. A suite read again with the same jobs keeps
   * its stored cases unless this read has cases for it.
   */
  saveRead(
    pipelineId: number,
    updatedAt: string,
    readMs: number,
    runs: readonly NewTestRun[],
  ): void {
    const unmark = this.stmt('UPDATE test_runs SET latest = 0 WHERE pipeline_id = ?');
    const upsert = this.stmt(
      `INSERT INTO test_runs (pipeline_id, suite, build_ids, job_id, job_name, latest, total,
         success, failed, skipped, error, time, suite_error, cases, read_ms)
       VALUES (@pipeline_id, @suite, @build_ids, @job_id, @job_name, 1, @total, @success, @failed,
         @skipped, @error, @time, @suite_error, @cases, @read_ms)
       ON CONFLICT (pipeline_id, suite, build_ids) DO UPDATE SET latest = 1, total = excluded.total,
         success = excluded.success, failed = excluded.failed, skipped = excluded.skipped,
         error = excluded.error, time = excluded.time, suite_error = excluded.suite_error,
         cases = CASE WHEN excluded.cases = 'read' THEN 'read' ELSE test_runs.cases END,
         read_ms = excluded.read_ms
       RETURNING run_id`,
    );
    const dropResults = this.stmt('DELETE FROM test_results WHERE run_id = ?');
    const insertResult = this.stmt(
      `INSERT OR IGNORE INTO test_results (run_id, classname, name, file, status, duration, stack_trace)
       VALUES (@run_id, @classname, @name, @file, @status, @duration, @stack_trace)`,
    );
    const read = this.stmt(
      `INSERT INTO test_report_reads (pipeline_id, updated_at, read_ms) VALUES (?, ?, ?)
       ON CONFLICT (pipeline_id) DO UPDATE SET updated_at = excluded.updated_at, read_ms = excluded.read_ms`,
    );
    const dequeue = this.stmt(
      'DELETE FROM test_report_queue WHERE pipeline_id = ? AND updated_at = ?',
    );
    this.db.transaction(() => {
      unmark.run(pipelineId);
      for (const run of runs) {
        const runId = upsert.pluck().get(toRunRow(pipelineId, run, readMs)) as number;
        if (run.cases !== 'read') continue;
        dropResults.run(runId);
        for (const r of run.results) insertResult.run(toResultRow(runId, r));
      }
      read.run(pipelineId, updatedAt, readMs);
      dequeue.run(pipelineId, updatedAt);
    })();
    this.writes++;
  }

  /** Changes when a read was stored or runs went (pruned or deleted with their pipeline). */
  version(): string {
    const runs = this.stmt('SELECT count(*) FROM test_runs').pluck().get() as number;
    return `${this.writes}:${runs}`;
  }

  /** The runs of the pipeline's newest read (every attempt's with `all`), with their stored cases. */
  latestOf(pipelineId: number, all = false): TestRunsSnapshot {
    const runs = (
      this.stmt(
        `SELECT ${RUN_COLUMNS} FROM test_runs t JOIN pipelines p ON p.pipeline_id = t.pipeline_id
         WHERE t.pipeline_id = ? AND (t.latest = 1 OR ?) ORDER BY t.suite, t.run_id`,
      ).all(pipelineId, all ? 1 : 0) as RunRow[]
    ).map(fromRunRow);
    const results = runs.flatMap((run) =>
      (
        this.stmt('SELECT * FROM test_results WHERE run_id = ? ORDER BY classname, name').all(
          run.runId,
        ) as ResultRow[]
      ).map(fromResultRow),
    );
    return { runs, results };
  }

  /**
   * Tests of a project's suite that failed or errored on the commit `sha` or the ref `ref` in
   * pipelines created since `sinceMs`: the ones whose passing results decide something (a flake,
   * "passed last time"), so a green report is read for them.
   */
  watchedTests(
    projectId: number,
    suite: string,
    sha: string,
    ref: string,
    sinceMs: number,
  ): { classname: string; name: string }[] {
    return this.stmt(
      `SELECT DISTINCT r.classname, r.name FROM test_results r
       JOIN test_runs t ON t.run_id = r.run_id JOIN pipelines p ON p.pipeline_id = t.pipeline_id
       WHERE p.project_id = ? AND t.suite = ? AND r.status IN ('failed', 'error')
         AND (p.sha = ? OR p.ref = ?) AND p.created_ms >= ?`,
    ).all(projectId, suite, sha, ref, sinceMs) as { classname: string; name: string }[];
  }

  /** Every run of pipelines created in [sinceMs, untilMs), and their stored cases. */
  load(sinceMs: number, untilMs = Number.MAX_SAFE_INTEGER, projectId?: number): TestRunsSnapshot {
    const project = projectId === undefined ? '' : 'AND p.project_id = @projectId';
    const params = { sinceMs, untilMs, projectId };
    const runs = (
      this.stmt(
        `SELECT ${RUN_COLUMNS} FROM test_runs t JOIN pipelines p ON p.pipeline_id = t.pipeline_id
         WHERE p.created_ms >= @sinceMs AND p.created_ms < @untilMs ${project}
         ORDER BY p.created_ms, t.run_id`,
      ).all(params) as RunRow[]
    ).map(fromRunRow);
    const results = (
      this.stmt(
        `SELECT r.* FROM test_results r JOIN test_runs t ON t.run_id = r.run_id
         JOIN pipelines p ON p.pipeline_id = t.pipeline_id
         WHERE p.created_ms >= @sinceMs AND p.created_ms < @untilMs ${project}`,
      ).all(params) as ResultRow[]
    ).map(fromResultRow);
    return { runs, results };
  }

  /** Counts of stored rows (diagnostics, tests). */
  counts(): { reads: number; runs: number; results: number } {
    const count = (table: string) =>
      this.stmt(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return {
      reads: count('test_report_reads'),
      runs: count('test_runs'),
      results: count('test_results'),
    };
  }
}
