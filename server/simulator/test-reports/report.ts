import type { SimJob, SimPipeline, SimProject } from '../model.ts';
import { rngFor } from '../random.ts';
import { JUNIT_FORMAT, stackTraceOf, suiteTests, TEST_FAILURE } from './catalog.ts';

const DAY_MS = 86_400_000;

/** Positions in every suite that only the scenarios fail, so their numbers are exact. */
export const SCENARIO_TEST_INDEXES = { failing: 3, flaky: 5 } as const;

/** `artifacts:expire_in` of test jobs unless a project says otherwise (days). */
export const DEFAULT_EXPIRE_DAYS = 30;

/** A test case as GitLab's JUnit parser keeps it (Gitlab::Ci::Reports::TestCase). */
export interface SimTestCase {
  status: 'success' | 'failed' | 'skipped' | 'error';
  name: string;
  classname: string;
  file: string | null;
  executionTime: number;
  systemOutput: string | null;
  stackTrace: string | null;
}

/** One suite of a pipeline's report: the latest attempts of the jobs of one group name. */
export interface SimTestSuite {
  name: string;
  jobs: SimJob[];
  cases: SimTestCase[];
}

/**
 * Whether a job uploaded a JUnit report: a test runner's job that finished its tests — passed, or
 * failed because tests failed (`artifacts:when: always`). A job killed, timed out or failing to
 * compile wrote no report.
 */
export function hasJUnitReport(project: SimProject, job: SimJob): boolean {
  const tool = job.template.tool;
  if (project.junit?.none) return false;
  if (!JUNIT_FORMAT[tool] || job.finishedAt === null) return false;
  return (
    job.status === 'success' || (job.status === 'failed' && job.failure === TEST_FAILURE[tool])
  );
}

/** When the job's report artifact expires (ms), or null when it has none. */
export function junitExpiresAt(project: SimProject, job: SimJob): number | null {
  if (!hasJUnitReport(project, job)) return null;
  return job.finishedAt! + (project.junit?.expireDays ?? DEFAULT_EXPIRE_DAYS) * DAY_MS;
}

/**
 * A job's group name, the name GitLab files its tests under (`collect_test_reports!` uses
 * `group_name`): a parallel job's "rspec 1/4" is suite "rspec".
 */
export function suiteNameOf(jobName: string): string {
  return jobName.replace(/\s+\d+\/\d+$/, '').replace(/:\s*\[.*\]$/, '');
}

/** How many tests a job's suite has (the same in every pipeline of the project). */
export function suiteSize(project: SimProject, jobName: string): number {
  return (
    project.junit?.testsPerReport ?? rngFor('junit-count', project.fullPath, jobName).int(24, 90)
  );
}

/** The test cases one job's report holds, or null when it uploaded none. */
export function jobTestCases(
  project: SimProject,
  pipeline: SimPipeline,
  job: SimJob,
): SimTestCase[] | null {
  if (!hasJUnitReport(project, job)) return null;
  return casesOf(project, pipeline, job, job.status === 'failed');
}

/**
 * The cases the job's report holds or will hold once its test failure ends it (the job's log is
 * written before it finishes and names the same failed tests), or null when its failure is not a
 * failed test or its project uploads no reports.
 */
export function testRunOf(
  project: SimProject,
  pipeline: SimPipeline,
  job: SimJob,
): SimTestCase[] | null {
  const tool = job.template.tool;
  if (project.junit?.none || !JUNIT_FORMAT[tool] || job.failure !== TEST_FAILURE[tool]) return null;
  return casesOf(project, pipeline, job, true);
}

function casesOf(
  project: SimProject,
  pipeline: SimPipeline,
  job: SimJob,
  failing: boolean,
): SimTestCase[] {
  const format = JUNIT_FORMAT[job.template.tool]!;
  const tests = suiteTests(format, project.path, job.name, suiteSize(project, job.name));
  const failed = new Set<number>();
  // A scenario's failure is an assertion (never pytest's `error`), so its numbers are exact.
  const forced = project.junit?.forced.get(pipeline.createdAt);
  const forcedHere = failing && forced?.jobName === job.name;
  if (failing) {
    if (forcedHere) failed.add(forced.testIndex);
    else {
      const rng = rngFor('junit-fail', pipeline.seed, job.name);
      const reserved = new Set<number>(Object.values(SCENARIO_TEST_INDEXES));
      const pool = tests.map((_, i) => i).filter((i) => !reserved.has(i));
      failed.add(rng.pick(pool));
      if (rng.chance(0.3)) failed.add(rng.pick(pool));
    }
  }
  const timing = rngFor('junit-time', pipeline.seed, job.id);
  return tests.map((test, i): SimTestCase => {
    const base = rngFor('junit-base', project.fullPath, job.name, i).float(0.004, 1.8);
    const executionTime = Math.round(base * timing.float(0.85, 1.15) * 1000) / 1000;
    if (failed.has(i)) {
      const rng = rngFor('junit-trace', pipeline.seed, job.name, i);
      // pytest reports a broken fixture as an error, not a failure (junitxml `<error>`).
      const error = format === 'pytest' && !forcedHere && rng.chance(0.25);
      return {
        status: error ? 'error' : 'failed',
        name: test.name,
        classname: test.classname,
        file: test.file,
        executionTime,
        systemOutput: null,
        stackTrace: error
          ? `tests/conftest.py:${test.line}: in warehouse\n    conn = psycopg.connect(DSN)\nE   psycopg.OperationalError: connection to server at "postgres" (172.17.0.3), port 5432 failed: Connection refused`
          : stackTraceOf(format, test, `/builds/${project.fullPath}`, rng),
      };
    }
    return {
      status: i % 29 === 11 ? 'skipped' : 'success',
      name: test.name,
      classname: test.classname,
      file: test.file,
      executionTime: i % 29 === 11 ? 0 : executionTime,
      systemOutput: null,
      stackTrace: null,
    };
  });
}

/**
 * A pipeline's suites as GitLab assembles them from its latest builds only
 * (`Ci::Pipeline#latest_test_report_builds` → `builds.latest`): a retried attempt is gone from the
 * report. With `now`, jobs whose report artifact expired by then are left out, as the full report
 * reads artifacts; the summary (`build_report_results`, kept with the job) passes no `now`.
 */
export function pipelineSuites(
  project: SimProject,
  pipeline: SimPipeline,
  latestJobs: readonly SimJob[],
  now?: number,
): SimTestSuite[] {
  const suites = new Map<string, SimTestSuite>();
  for (const job of latestJobs) {
    const expires = junitExpiresAt(project, job);
    if (expires === null || (now !== undefined && now >= expires)) continue;
    const cases = jobTestCases(project, pipeline, job)!;
    const name = suiteNameOf(job.name);
    let suite = suites.get(name);
    if (!suite) suites.set(name, (suite = { name, jobs: [], cases: [] }));
    suite.jobs.push(job);
    suite.cases.push(...cases);
  }
  return [...suites.values()];
}
