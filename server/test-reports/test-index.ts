import type { TestCaseRow, TestRun, TestRunsSnapshot } from './store.ts';

/** A test's identity: project, suite, classname and name. */
export interface TestKey {
  projectId: number;
  suite: string;
  classname: string;
  name: string;
}

/** A test's outcome in one run: GitLab's status, `not_failed` (summary only), or unknown. */
export type RunOutcome = 'success' | 'failed' | 'error' | 'skipped' | 'not_failed' | 'unknown';

/** A run of a test with its outcome (and the stored case, when there is one). */
export interface TestRunOutcome {
  run: TestRun;
  outcome: RunOutcome;
  result: TestCaseRow | undefined;
}

/** What the index says of one test over a span. */
export interface TestStats {
  key: TestKey;
  file: string | null;
  /** Runs whose outcome is known, oldest first. */
  runs: TestRunOutcome[];
  failures: TestRunOutcome[];
  /** Commits on which it both failed and passed, with the newest failing run on each. */
  flakes: { sha: string; failed: TestRunOutcome }[];
}

const isFailure = (o: RunOutcome) => o === 'failed' || o === 'error';
const isPass = (o: RunOutcome) => o === 'success' || o === 'not_failed';
const suiteKey = (projectId: number, suite: string) => `${projectId}\n${suite}`;
const caseKey = (classname: string, name: string) => `${classname}\n${name}`;

/**
 * Test-level facts over stored reports, built once per snapshot. A run's outcome for a test is
 * its stored case when there is one; a run whose cases were read, or whose suite had no failure,
 * did not fail the test (`not_failed`: only failures and the passes that decide something are
 * stored); a run with failures whose report had expired says nothing (`unknown`).
 */
export class TestIndex {
  private readonly runsBySuite = new Map<string, TestRun[]>();
  private readonly casesByRun = new Map<number, Map<string, TestCaseRow>>();
  /** Tests with at least one failed or errored case, by suite. */
  private readonly failingBySuite = new Map<string, Map<string, TestCaseRow>>();

  constructor(snapshot: TestRunsSnapshot) {
    const runById = new Map<number, TestRun>();
    for (const run of snapshot.runs) {
      runById.set(run.runId, run);
      const key = suiteKey(run.projectId, run.suite);
      let list = this.runsBySuite.get(key);
      if (!list) this.runsBySuite.set(key, (list = []));
      list.push(run);
    }
    for (const list of this.runsBySuite.values())
      list.sort((a, b) => a.createdAt - b.createdAt || a.runId - b.runId);
    for (const row of snapshot.results) {
      const run = runById.get(row.runId);
      if (!run) continue;
      let cases = this.casesByRun.get(row.runId);
      if (!cases) this.casesByRun.set(row.runId, (cases = new Map()));
      cases.set(caseKey(row.classname, row.name), row);
      if (row.status !== 'failed' && row.status !== 'error') continue;
      const key = suiteKey(run.projectId, run.suite);
      let failing = this.failingBySuite.get(key);
      if (!failing) this.failingBySuite.set(key, (failing = new Map()));
      if (!failing.has(caseKey(row.classname, row.name)))
        failing.set(caseKey(row.classname, row.name), row);
    }
  }

  /** Every test that failed or errored at least once, with the project and suite it belongs to. */
  *failingTests(): Generator<TestKey & { file: string | null }> {
    for (const [suiteId, tests] of this.failingBySuite) {
      const [project, ...suite] = suiteId.split('\n');
      for (const row of tests.values())
        yield {
          projectId: Number(project),
          suite: suite.join('\n'),
          classname: row.classname,
          name: row.name,
          file: row.file,
        };
    }
  }

  /** The test's outcome in a run. */
  outcome(run: TestRun, classname: string, name: string): TestRunOutcome {
    const result = this.casesByRun.get(run.runId)?.get(caseKey(classname, name));
    if (result) return { run, outcome: result.status as RunOutcome, result };
    const known = run.cases === 'read' || run.failed + run.error === 0;
    return { run, outcome: known ? 'not_failed' : 'unknown', result: undefined };
  }

  /** The test's runs, failures and flakes among runs of pipelines created in [fromMs, toMs). */
  stats(key: TestKey, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): TestStats {
    const suiteRuns = this.runsBySuite.get(suiteKey(key.projectId, key.suite)) ?? [];
    const runs: TestRunOutcome[] = [];
    let file: string | null = null;
    for (const run of suiteRuns) {
      if (run.createdAt < fromMs || run.createdAt >= toMs) continue;
      const o = this.outcome(run, key.classname, key.name);
      if (o.outcome === 'unknown') continue;
      file ??= o.result?.file ?? null;
      runs.push(o);
    }
    const failures = runs.filter((o) => isFailure(o.outcome));
    const bySha = new Map<string, { failed?: TestRunOutcome; passed: boolean }>();
    for (const o of runs) {
      const entry = bySha.get(o.run.sha) ?? { passed: false };
      if (isFailure(o.outcome)) entry.failed = o;
      else if (isPass(o.outcome)) entry.passed = true;
      bySha.set(o.run.sha, entry);
    }
    const flakes = [...bySha]
      .filter(([, e]) => e.failed && e.passed)
      .map(([sha, e]) => ({ sha, failed: e.failed! }));
    return { key, file, runs, failures, flakes };
  }

  /**
   * When the test started failing on the project's default branch, while its newest known run
   * there still fails (ms), else null. Walks back through the default branch's runs of its suite.
   */
  knownFailingSince(key: TestKey): number | null {
    const suiteRuns = this.runsBySuite.get(suiteKey(key.projectId, key.suite)) ?? [];
    let since: number | null = null;
    for (let i = suiteRuns.length - 1; i >= 0; i--) {
      const run = suiteRuns[i]!;
      if (!run.defaultBranch) continue;
      const o = this.outcome(run, key.classname, key.name).outcome;
      if (o === 'unknown') continue;
      if (!isFailure(o)) break;
      since = run.createdAt;
    }
    return since;
  }
}
