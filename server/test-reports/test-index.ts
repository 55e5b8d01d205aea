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
  /** Runs whose outcome for it is known. */
  runs: number;
  /** Runs that failed or errored, oldest first. */
  failures: TestRunOutcome[];
  /** Commits on which it both failed and passed, with the newest failing run on each. */
  flakes: { sha: string; failed: TestRunOutcome }[];
}

const isFailure = (status: string) => status === 'failed' || status === 'error';
/** The stored cases of a key `failingTests` handed out, so answers about it skip the lookup. */
const ROWS = Symbol('rows');
type IndexedKey = TestKey & { [ROWS]?: TestRow[] };
const suiteKey = (projectId: number, suite: string) => `${projectId}\n${suite}`;
const caseKey = (classname: string, name: string) => `${classname}\n${name}`;
/** Whether a run tells a test's outcome without its case: read in full, or no failure at all. */
const isKnown = (run: TestRun) => run.cases === 'read' || run.failed + run.error === 0;

/** One suite's runs, oldest first, with what every answer needs precomputed. */
interface SuiteRuns {
  runs: TestRun[];
  /** knownBefore[i]: known runs among runs[0, i). */
  knownBefore: number[];
  /** Known runs per commit (indexes into runs). */
  knownBySha: Map<string, number[]>;
  /** Indexes of known default-branch runs, newest first. */
  defaultNewestFirst: number[];
  index: Map<number, number>;
}

/** A stored case of a test and where its run sits in the suite. */
interface TestRow {
  row: TestCaseRow;
  at: number;
}

/**
 * Test-level facts over stored reports, built once per snapshot. A run's outcome for a test is
 * its stored case when there is one; a run whose cases were read, or whose suite had no failure,
 * did not fail the test (`not_failed`: only failures and the passes that decide something are
 * stored); a run with failures whose report had expired says nothing (`unknown`). Answers cost one
 * pass over the test's own stored cases plus binary searches over its suite's runs.
 */
export class TestIndex {
  private readonly suites = new Map<string, SuiteRuns>();
  private readonly runById = new Map<number, TestRun>();
  /** Stored cases per test (suite key, then case key), oldest run first. */
  private readonly rowsByTest = new Map<string, Map<string, TestRow[]>>();

  constructor(snapshot: TestRunsSnapshot) {
    const grouped = new Map<string, TestRun[]>();
    for (const run of snapshot.runs) {
      this.runById.set(run.runId, run);
      const key = suiteKey(run.projectId, run.suite);
      let list = grouped.get(key);
      if (!list) grouped.set(key, (list = []));
      list.push(run);
    }
    for (const [key, runs] of grouped) {
      runs.sort((a, b) => a.createdAt - b.createdAt || a.runId - b.runId);
      const knownBefore = [0];
      const knownBySha = new Map<string, number[]>();
      const defaultNewestFirst: number[] = [];
      const index = new Map<number, number>();
      runs.forEach((run, i) => {
        index.set(run.runId, i);
        const known = isKnown(run);
        knownBefore.push(knownBefore[i]! + (known ? 1 : 0));
        if (!known) return;
        let list = knownBySha.get(run.sha);
        if (!list) knownBySha.set(run.sha, (list = []));
        list.push(i);
        if (run.defaultBranch) defaultNewestFirst.push(i);
      });
      defaultNewestFirst.reverse();
      this.suites.set(key, { runs, knownBefore, knownBySha, defaultNewestFirst, index });
    }
    for (const row of snapshot.results) {
      const run = this.runById.get(row.runId);
      if (!run) continue;
      const sk = suiteKey(run.projectId, run.suite);
      let tests = this.rowsByTest.get(sk);
      if (!tests) this.rowsByTest.set(sk, (tests = new Map()));
      const ck = caseKey(row.classname, row.name);
      let rows = tests.get(ck);
      if (!rows) tests.set(ck, (rows = []));
      rows.push({ row, at: this.suites.get(sk)!.index.get(run.runId)! });
    }
    for (const tests of this.rowsByTest.values())
      for (const rows of tests.values()) rows.sort((a, b) => a.at - b.at);
  }

  /** Every test that failed or errored at least once, with the project and suite it belongs to. */
  *failingTests(): Generator<TestKey & { file: string | null }> {
    for (const tests of this.rowsByTest.values()) {
      const first = tests.values().next().value?.[0];
      if (!first) continue;
      const run = this.runById.get(first.row.runId)!;
      for (const rows of tests.values()) {
        const failed = rows.find((r) => isFailure(r.row.status));
        if (!failed) continue;
        const key: IndexedKey & { file: string | null } = {
          projectId: run.projectId,
          suite: run.suite,
          classname: failed.row.classname,
          name: failed.row.name,
          file: failed.row.file,
        };
        key[ROWS] = rows;
        yield key;
      }
    }
  }

  /** The test's runs, failures and flakes among runs of pipelines created in [fromMs, toMs). */
  stats(key: TestKey, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): TestStats {
    const suite = this.suites.get(suiteKey(key.projectId, key.suite));
    const rows = this.rowsOf(key);
    if (!suite) return { key, file: null, runs: 0, failures: [], flakes: [] };
    const lo = lowerBound(suite.runs, fromMs);
    const hi = lowerBound(suite.runs, toMs);
    const inWindow = rows.filter((r) => r.at >= lo && r.at < hi);
    const failures: TestRunOutcome[] = [];
    const failedAt = new Set<number>();
    for (const r of inWindow)
      if (isFailure(r.row.status)) {
        failedAt.add(r.at);
        failures.push({
          run: suite.runs[r.at]!,
          outcome: r.row.status as RunOutcome,
          result: r.row,
        });
      }
    const passedAt = new Set(inWindow.filter((r) => r.row.status === 'success').map((r) => r.at));
    const newestFailureBySha = new Map<string, TestRunOutcome>();
    for (const f of failures) newestFailureBySha.set(f.run.sha, f);
    const flakes: TestStats['flakes'] = [];
    for (const [sha, failed] of newestFailureBySha) {
      // A pass on the commit: a stored success, or a known run where it did not fail.
      const passed = (suite.knownBySha.get(sha) ?? []).some(
        (i) => i >= lo && i < hi && !failedAt.has(i) && (passedAt.has(i) || !this.skipped(rows, i)),
      );
      if (passed) flakes.push({ sha, failed });
    }
    return {
      key,
      file: rows.find((r) => r.row.file !== null)?.row.file ?? null,
      runs: suite.knownBefore[hi]! - suite.knownBefore[lo]!,
      failures,
      flakes,
    };
  }

  /**
   * False when the test cannot have flaked: none of its failures shares its commit with another
   * known run of its suite. A cheap test before `stats`, which most failing tests do not need.
   */
  mayHaveFlaked(key: TestKey): boolean {
    const suite = this.suites.get(suiteKey(key.projectId, key.suite));
    if (!suite) return false;
    return this.rowsOf(key).some(
      (r) =>
        isFailure(r.row.status) && (suite.knownBySha.get(suite.runs[r.at]!.sha)?.length ?? 0) > 1,
    );
  }

  /** Every known outcome of the test over the snapshot, oldest first (its history). */
  outcomes(key: TestKey): TestRunOutcome[] {
    const suite = this.suites.get(suiteKey(key.projectId, key.suite));
    if (!suite) return [];
    const byRun = new Map(this.rowsOf(key).map((r) => [r.at, r.row]));
    const out: TestRunOutcome[] = [];
    suite.runs.forEach((run, i) => {
      const result = byRun.get(i);
      if (result) out.push({ run, outcome: result.status as RunOutcome, result });
      else if (isKnown(run)) out.push({ run, outcome: 'not_failed', result: undefined });
    });
    return out;
  }

  /**
   * When the test started failing on the project's default branch, while its newest known run
   * there still fails (ms), else null. Walks back through the default branch's runs of its suite.
   */
  knownFailingSince(key: TestKey): number | null {
    const suite = this.suites.get(suiteKey(key.projectId, key.suite));
    if (!suite) return null;
    const rows = this.rowsOf(key);
    let since: number | null = null;
    // A failing streak is short and a test's stored cases are few: no set of them is built.
    for (const i of suite.defaultNewestFirst) {
      if (!rows.some((r) => r.at === i && isFailure(r.row.status))) break;
      since = suite.runs[i]!.createdAt;
    }
    return since;
  }

  private rowsOf(key: IndexedKey): TestRow[] {
    return (
      key[ROWS] ??
      this.rowsByTest
        .get(suiteKey(key.projectId, key.suite))
        ?.get(caseKey(key.classname, key.name)) ??
      []
    );
  }

  /** Whether the run's stored case for the test is `skipped` (neither a pass nor a failure). */
  private skipped(rows: readonly TestRow[], at: number): boolean {
    return rows.some((r) => r.at === at && r.row.status === 'skipped');
  }
}

/** The first index whose run was created at or after `ms` (runs sorted by creation). */
function lowerBound(runs: readonly TestRun[], ms: number): number {
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid]!.createdAt < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
