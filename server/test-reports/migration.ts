/**
 * The history database's test-report tables (history-store.ts runs this as one of its migrations;
 * an import-free leaf so the store needs nothing else of this folder). Every row hangs off a
 * pipeline and goes with it: GitLab's deletion and the retention prune cascade here.
 *
 * - `test_report_reads`: which pipeline state (`updated_at`) was read, so a pipeline is read once
 *   per change (a Retry changes it).
 * - `test_runs`: one suite of one read — GitLab's counts and the jobs (`build_ids`) that ran it. A
 *   retried suite has new jobs, so the earlier attempt's run stays beside the new one; `latest`
 *   marks the runs of the pipeline's newest read. `cases` says what is known of its test cases:
 *   `none` (no failures, not read: none needed), `read` (failed and errored cases stored, and
 *   passing results of tests that failed on the same commit or ref), `expired` (it had failures
 *   but the report's artifacts were gone).
 * - `test_results`: those test cases, stack traces bounded.
 */
export const TEST_REPORT_MIGRATION = `
  CREATE TABLE test_report_reads (
    pipeline_id INTEGER PRIMARY KEY REFERENCES pipelines (pipeline_id) ON DELETE CASCADE,
    updated_at TEXT NOT NULL,
    read_ms INTEGER NOT NULL
  );
  CREATE TABLE test_runs (
    run_id INTEGER PRIMARY KEY,
    pipeline_id INTEGER NOT NULL REFERENCES pipelines (pipeline_id) ON DELETE CASCADE,
    suite TEXT NOT NULL,
    build_ids TEXT NOT NULL,
    job_id INTEGER,
    job_name TEXT NOT NULL,
    latest INTEGER NOT NULL DEFAULT 1 CHECK (latest IN (0, 1)),
    total INTEGER NOT NULL,
    success INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    error INTEGER NOT NULL,
    time REAL NOT NULL,
    suite_error TEXT,
    cases TEXT NOT NULL CHECK (cases IN ('none', 'read', 'expired')),
    read_ms INTEGER NOT NULL,
    UNIQUE (pipeline_id, suite, build_ids)
  );
  CREATE TABLE test_results (
    run_id INTEGER NOT NULL REFERENCES test_runs (run_id) ON DELETE CASCADE,
    classname TEXT NOT NULL,
    name TEXT NOT NULL,
    file TEXT,
    status TEXT NOT NULL,
    duration REAL,
    stack_trace TEXT,
    PRIMARY KEY (run_id, classname, name)
  ) WITHOUT ROWID;
  CREATE INDEX test_results_by_test ON test_results (classname, name);
`;

/**
 * The reports still to read, kept across restarts: a pipeline whose jobs the history stored with a
 * `junit` artifact is queued here and leaves with its read, so a report that was unread when the
 * service stopped is read after the restart (a pipeline's jobs are not read again once stored).
 * `job_names` maps the pipeline's job ids to names (JSON), all a read needs of the job list.
 */
export const TEST_REPORT_QUEUE_MIGRATION = `
  CREATE TABLE test_report_queue (
    pipeline_id INTEGER PRIMARY KEY REFERENCES pipelines (pipeline_id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    job_names TEXT NOT NULL
  );
`;
