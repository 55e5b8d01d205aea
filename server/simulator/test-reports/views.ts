import type { SimJob, SimProject } from '../model.ts';
import { junitExpiresAt, type SimTestCase, type SimTestSuite } from './report.ts';

// Shapes: gitlabhq doc/api/pipelines.md ("Get a test report for a pipeline", "Get a test report
// summary for a pipeline") and the entities behind them (app/serializers/test_report_entity.rb,
// test_suite_entity.rb, test_case_entity.rb, test_report_summary_entity.rb,
// test_suite_summary_entity.rb).

const round = (n: number) => Math.round(n * 1000) / 1000;

interface Counts {
  time: number;
  count: number;
  success: number;
  failed: number;
  skipped: number;
  error: number;
}

function countsOf(cases: readonly SimTestCase[]): Counts {
  const c: Counts = { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0 };
  for (const t of cases) {
    c.time += t.executionTime;
    c.count++;
    c[t.status]++;
  }
  c.time = round(c.time);
  return c;
}

const STATUS_ORDER: Record<SimTestCase['status'], number> = {
  error: 0,
  failed: 1,
  success: 2,
  skipped: 3,
};

/** GET /projects/:id/pipelines/:pipeline_id/test_report (suites of unexpired reports). */
export function testReportView(suites: readonly SimTestSuite[]): Record<string, unknown> {
  const all = countsOf(suites.flatMap((s) => s.cases));
  return {
    total_time: all.time,
    total_count: all.count,
    success_count: all.success,
    failed_count: all.failed,
    skipped_count: all.skipped,
    error_count: all.error,
    test_suites: suites.map((suite) => {
      const c = countsOf(suite.cases);
      // TestSuiteEntity presents `test_suite.sorted`: failures first, then by time.
      const cases = [...suite.cases].sort(
        (a, b) =>
          STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.executionTime - a.executionTime,
      );
      return {
        name: suite.name,
        total_time: c.time,
        total_count: c.count,
        success_count: c.success,
        failed_count: c.failed,
        skipped_count: c.skipped,
        error_count: c.error,
        suite_error: null,
        test_cases: cases.map((t) => ({
          status: t.status,
          name: t.name,
          classname: t.classname,
          file: t.file,
          execution_time: t.executionTime,
          system_output: t.systemOutput,
          stack_trace: t.stackTrace,
          // Loaded only by the merge request and pipeline pages' failure history, not here.
          recent_failures: null,
        })),
      };
    }),
  };
}

/** GET /projects/:id/pipelines/:pipeline_id/test_report_summary (kept after artifacts expire). */
export function testReportSummaryView(suites: readonly SimTestSuite[]): Record<string, unknown> {
  const all = countsOf(suites.flatMap((s) => s.cases));
  return {
    total: { ...all, suite_error: null },
    test_suites: suites.map((suite) => {
      const c = countsOf(suite.cases);
      return {
        name: suite.name,
        total_time: c.time,
        total_count: c.count,
        success_count: c.success,
        failed_count: c.failed,
        skipped_count: c.skipped,
        error_count: c.error,
        build_ids: suite.jobs.map((j) => j.id),
        suite_error: null,
      };
    }),
  };
}

/**
 * A job's `artifacts` and `artifacts_expire_at` (doc/api/jobs.md): a test job lists its `junit`
 * report until it expires; GitLab then deletes the files, and the expiry date stays.
 */
export function jobArtifactsView(
  project: SimProject,
  job: SimJob,
  now: number,
  iso: (ms: number) => string,
): {
  artifacts: { file_type: string; size: number; filename: string; file_format: string }[];
  artifacts_expire_at: string | null;
} {
  const expires = junitExpiresAt(project, job);
  if (expires === null) return { artifacts: [], artifacts_expire_at: null };
  return {
    artifacts:
      now >= expires
        ? []
        : [
            {
              file_type: 'junit',
              size: 1_200 + (job.id % 9_000),
              filename: 'junit.xml.gz',
              file_format: 'gzip',
            },
          ],
    artifacts_expire_at: iso(expires),
  };
}
