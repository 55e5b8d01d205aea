import type { GitLabJob } from '../gitlab/wire.ts';
import type { HealthWindow } from '../group-health/contract.ts';
import type { PipelineHistoryRecord, ProjectHistoryRecord } from '../history/model.ts';
import type { Clock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { latestAttempts } from '../summary/from-gitlab.ts';
import { parseSince } from '../summary/since.ts';
import type {
  FailedTest,
  FailingTest,
  FailingTestsResponse,
  FlakyTest,
  FlakyTestsResponse,
  PipelineTestCounts,
  TestHistoryResponse,
} from './contract.ts';
import type { TestReportRecorder } from './recorder.ts';
import type { TestCaseRow, TestReportStore, TestRun } from './store.ts';
import { TestIndex, type TestKey, type TestRunOutcome } from './test-index.ts';

/** "Flaky" in a pipeline's failed tests means: flaked this recently. */
const FLAKY_LOOKBACK_MS = 14 * 86_400_000;
/** A computed index is reused this long while nothing new was stored. */
const INDEX_TTL_MS = 30_000;
const DAY_MS = 86_400_000;

/** What the test-report answers are computed from. */
export interface TestReportServiceDeps {
  store: TestReportStore;
  recorder: TestReportRecorder;
  clock: Clock;
  /** The watched projects (names, default branches, links). */
  projects: () => ProjectHistoryRecord[];
  /** A stored pipeline. */
  pipeline: (pipelineId: number) => PipelineHistoryRecord | undefined;
  /** The summary's window (`7d`), the default of every window. */
  since: () => string;
  /** Days of history kept. */
  retentionDays: number;
}

/**
 * A failed or errored case of a job's report with its test's history (the analysis and triage
 * ports each take what they need of it; the composition root maps).
 */
export interface FailedCaseHistory {
  run: TestRun;
  result: TestCaseRow;
  /** When it started failing on the default branch (ms), while it still fails there. */
  knownFailingSinceMs: number | null;
  /** Commits it failed and passed on in the last 14 days. */
  recentFlakes: number;
  /** Its runs and failures over the retention. */
  runs: number;
  failures: number;
}

/** What pipeline details add from the report. */
export interface PipelineTests {
  tests: PipelineTestCounts | null;
  failed_tests: FailedTest[];
}

const iso = (ms: number) => new Date(ms).toISOString();
const percent = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;

/** The job's log in GitLab when one job ran the suite, else the pipeline's Tests tab. */
function linkOf(run: TestRun): string {
  if (run.jobId === null) return `${run.pipelineWebUrl}/test_report`;
  return run.pipelineWebUrl.replace(/\/-\/pipelines\/\d+$/, `/-/jobs/${run.jobId}`);
}

/**
 * Failing tests, flaky tests and a test's history across the group, and a pipeline's failed tests,
 * from the stored reports. The index over the retention is rebuilt when a read was stored (at most
 * every 30 s otherwise), so every answer is one pass over memory.
 */
export class TestReportService {
  private cached: { at: number; version: string; index: TestIndex } | null = null;

  constructor(private readonly deps: TestReportServiceDeps) {}

  /** GET /api/tests/failing: tests that failed in the window, most failures first. */
  failing(since?: string, projectId?: number): FailingTestsResponse {
    const { window, fromMs, toMs } = this.windowOf(since);
    const index = this.index();
    const names = this.projectNames();
    if (projectId !== undefined && !names.has(projectId))
      throw new AppError('not_found', `Project ${projectId} is not watched`);
    const found: { test: FailingTest; lastAt: number }[] = [];
    for (const key of index.failingTests()) {
      if (!names.has(key.projectId) || (projectId !== undefined && key.projectId !== projectId))
        continue;
      const stats = index.stats(key, fromMs, toMs);
      const first = stats.failures[0];
      const last = stats.failures.at(-1);
      if (!first || !last) continue;
      const test: FailingTest = {
        project_id: key.projectId,
        project_name: names.get(key.projectId)!,
        suite: key.suite,
        classname: key.classname,
        name: key.name,
        file: stats.file ?? key.file,
        failures: stats.failures.length,
        runs: stats.runs,
        failing_on_default_branch: index.knownFailingSince(key) !== null,
        first_failure: failureAt(first),
        last_failure: { ...failureAt(last), job_id: last.run.jobId, web_url: linkOf(last.run) },
        flaky: stats.flakes.length > 0,
      };
      found.push({ test, lastAt: last.run.createdAt });
    }
    found.sort(
      (a, b) =>
        b.test.failures - a.test.failures ||
        b.lastAt - a.lastAt ||
        (a.test.name < b.test.name ? -1 : a.test.name > b.test.name ? 1 : 0),
    );
    return { window, tests: found.map((f) => f.test) };
  }

  /** GET /api/health/flaky-tests: tests that failed and passed on the same commit in the window. */
  flaky(since?: string): FlakyTestsResponse {
    const { window, fromMs, toMs } = this.windowOf(since);
    const index = this.index();
    const names = this.projectNames();
    const tests: FlakyTest[] = [];
    for (const key of index.failingTests()) {
      if (!names.has(key.projectId) || !index.mayHaveFlaked(key)) continue;
      const stats = index.stats(key, fromMs, toMs);
      if (stats.flakes.length === 0) continue;
      const newest = stats.flakes
        .map((f) => f.failed)
        .reduce((a, b) => (b.run.createdAt > a.run.createdAt ? b : a));
      tests.push({
        project_id: key.projectId,
        project_name: names.get(key.projectId)!,
        suite: key.suite,
        classname: key.classname,
        name: key.name,
        flakes: stats.flakes.length,
        runs: stats.runs,
        flake_rate: percent(stats.flakes.length, stats.runs),
        last_flake: {
          pipeline_id: newest.run.pipelineId,
          sha: newest.run.sha,
          at: iso(newest.run.createdAt),
          web_url: linkOf(newest.run),
        },
      });
    }
    tests.sort(
      (a, b) =>
        b.flakes - a.flakes ||
        b.flake_rate - a.flake_rate ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    return { window, tests };
  }

  /** GET /api/tests/history: a test's results over the retention, newest first, and its rates. */
  history(projectId: number, classname: string, name: string): TestHistoryResponse {
    const names = this.projectNames();
    const projectName = names.get(projectId);
    if (projectName === undefined)
      throw new AppError('not_found', `Project ${projectId} is not watched`);
    const index = this.index();
    const keys = [...index.failingTests()].filter(
      (k) => k.projectId === projectId && k.classname === classname && k.name === name,
    );
    if (keys.length === 0)
      throw new AppError(
        'not_found',
        `No failure of test '${classname}' '${name}' is stored for project ${projectId}: test history is kept for tests that failed`,
      );
    const outcomes: TestRunOutcome[] = [];
    let failures = 0;
    let flakes = 0;
    for (const key of keys) {
      const stats = index.stats(key);
      outcomes.push(...index.outcomes(key));
      failures += stats.failures.length;
      flakes += stats.flakes.length;
    }
    outcomes.sort((a, b) => b.run.createdAt - a.run.createdAt || b.run.runId - a.run.runId);
    return {
      project_id: projectId,
      project_name: projectName,
      classname,
      name,
      results: outcomes.map((o) => ({
        pipeline_id: o.run.pipelineId,
        job_id: o.run.jobId,
        sha: o.run.sha,
        ref: o.run.ref,
        status: o.outcome,
        duration: o.result?.duration ?? null,
        at: iso(o.run.createdAt),
      })),
      runs: outcomes.length,
      failures,
      flakes,
      failure_rate: percent(failures, outcomes.length),
      flake_rate: percent(flakes, outcomes.length),
    };
  }

  /**
   * A pipeline's test counts and failed tests, reading its report first when it has one not read
   * at this state. Null counts: no report (or a pipeline the history does not hold yet).
   */
  async pipelineTests(pipelineId: number, jobs: readonly GitLabJob[]): Promise<PipelineTests> {
    const pipeline = this.deps.pipeline(pipelineId);
    if (!pipeline) return { tests: null, failed_tests: [] };
    await this.deps.recorder.ensureRead(pipeline, jobs);
    const stored = this.deps.store.latestOf(pipelineId);
    // A suite whose job was retried since the read is not the pipeline's result any more: GitLab's
    // report holds the latest builds only (`latest_test_report_builds`), so the suite is gone from
    // it until the new attempt uploads its own; its failures stay in the test's history.
    const latest = new Set(latestAttempts(jobs).map((j) => j.id));
    const current = (r: TestRun) => jobs.length === 0 || r.buildIds.every((id) => latest.has(id));
    const runs = stored.runs.filter(current);
    const kept = new Set(runs.map((r) => r.runId));
    const results = stored.results.filter((r) => kept.has(r.runId));
    if (runs.length === 0) return { tests: null, failed_tests: [] };
    const tests: PipelineTestCounts = { total: 0, success: 0, failed: 0, skipped: 0, error: 0 };
    for (const r of runs) {
      tests.total += r.total;
      tests.success += r.success;
      tests.failed += r.failed;
      tests.skipped += r.skipped;
      tests.error += r.error;
    }
    const index = this.index();
    const now = this.deps.clock.now();
    const runById = new Map(runs.map((r) => [r.runId, r]));
    const failed_tests = results
      .filter((r) => r.status === 'failed' || r.status === 'error')
      .map((r): FailedTest => {
        const run = runById.get(r.runId)!;
        const key: TestKey = {
          projectId: run.projectId,
          suite: run.suite,
          classname: r.classname,
          name: r.name,
        };
        const since = index.knownFailingSince(key);
        return {
          suite: run.suite,
          classname: r.classname,
          name: r.name,
          file: r.file,
          job_id: run.jobId,
          job_name: run.jobName,
          status: r.status,
          stack_trace: r.stackTrace,
          known_failing_since: since === null ? null : iso(since),
          flaky: index.stats(key, now - FLAKY_LOOKBACK_MS).flakes.length > 0,
        };
      });
    return { tests, failed_tests };
  }

  /**
   * The failed tests one job (any attempt) ran in a pipeline, each with its history: what an
   * analysis of that job is told. Empty when its report named none or was not read.
   */
  jobTestFailures(pipelineId: number, jobId: number): FailedCaseHistory[] {
    const { runs, results } = this.deps.store.latestOf(pipelineId, true);
    const mine = new Map(runs.filter((r) => r.buildIds.includes(jobId)).map((r) => [r.runId, r]));
    if (mine.size === 0) return [];
    const index = this.index();
    const now = this.deps.clock.now();
    return results
      .filter((r) => mine.has(r.runId) && (r.status === 'failed' || r.status === 'error'))
      .map((result) => {
        const run = mine.get(result.runId)!;
        const key: TestKey = {
          projectId: run.projectId,
          suite: run.suite,
          classname: result.classname,
          name: result.name,
        };
        const all = index.stats(key);
        return {
          run,
          result,
          knownFailingSinceMs: index.knownFailingSince(key),
          recentFlakes: index.stats(key, now - FLAKY_LOOKBACK_MS).flakes.length,
          runs: all.runs,
          failures: all.failures.length,
        };
      });
  }

  /** Tests of `jobName`'s suite that flaked in the window: what explains a flaky job. */
  flakyTestsOf(projectId: number, jobName: string, fromMs: number): string[] {
    const index = this.index();
    const names: string[] = [];
    for (const key of index.failingTests())
      if (key.projectId === projectId && key.suite === jobName)
        if (index.stats(key, fromMs).flakes.length > 0) names.push(`${key.classname} ${key.name}`);
    return names.sort();
  }

  private index(): TestIndex {
    const now = this.deps.clock.now();
    const version = this.deps.store.version();
    if (this.cached && this.cached.version === version && now - this.cached.at < INDEX_TTL_MS)
      return this.cached.index;
    const index = new TestIndex(this.deps.store.load(now - this.deps.retentionDays * DAY_MS));
    this.cached = { at: now, version, index };
    return index;
  }

  private projectNames(): Map<number, string> {
    return new Map(this.deps.projects().map((p) => [p.id, p.name]));
  }

  private windowOf(since?: string): { window: HealthWindow; fromMs: number; toMs: number } {
    const text = since ?? this.deps.since();
    const toMs = this.deps.clock.now();
    const fromMs = toMs - parseSince(text);
    return { window: { since: text, from: iso(fromMs), to: iso(toMs) }, fromMs, toMs };
  }
}

function failureAt(o: TestRunOutcome) {
  return {
    pipeline_id: o.run.pipelineId,
    sha: o.run.sha,
    ref: o.run.ref,
    at: iso(o.run.createdAt),
  };
}
