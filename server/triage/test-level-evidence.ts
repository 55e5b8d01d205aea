// Test-level verdicts from the JUnit reports (issue 26): a failed job whose failed tests all fail on
// the default branch too, or all flaked, is judged by its tests; anything mixed or unknown leaves
// the job-level verdict standing. Only what the reports say: no test passing on the target branch
// is inferred from a test that merely has no failure there.
import type { FailedJobForTests, TestEvidence, TestLevelVerdict } from './test-evidence.ts';

/** A failed test of a job and its history, as the test reports tell it. */
export interface FailedTestRecord {
  classname: string;
  name: string;
  /** When it started failing on the default branch (ISO), while it still fails there. */
  knownFailingSince: string | null;
  /** Commits it failed and passed on recently. */
  flakes: number;
  /** Its reported runs over the retention. */
  runs: number;
}

/** What test-level evidence reads. */
export interface TestLevelEvidenceDeps {
  /** The job's failed and errored tests from its pipeline's report; empty when it has none. */
  failedTests(pipelineId: number, jobId: number): readonly FailedTestRecord[];
  /** The project's default branch, or undefined when unknown. */
  defaultBranch(projectId: number): string | undefined;
}

/** How many failed tests the evidence sentence names. */
const NAMED = 3;

const names = (tests: readonly FailedTestRecord[]) => {
  const shown = tests.slice(0, NAMED).map((t) => `\`${t.name}\``);
  const more = tests.length > NAMED ? ` and ${tests.length - NAMED} more` : '';
  return `${shown.join(', ')}${more}`;
};

/** Judges a failed job by its failed tests when they all point the same way. */
export function testLevelEvidence(deps: TestLevelEvidenceDeps): TestEvidence {
  return {
    verdictFor(job: FailedJobForTests): Promise<TestLevelVerdict | null> {
      const tests = deps.failedTests(job.pipelineId, job.jobId);
      if (tests.length === 0) return Promise.resolve(null);
      const onDefault = deps.defaultBranch(job.projectId) === job.targetBranch;
      if (onDefault && tests.every((t) => t.knownFailingSince !== null)) {
        const since = tests.map((t) => t.knownFailingSince!).sort()[0]!;
        return Promise.resolve({
          verdict: 'broken-on-default',
          evidence: {
            text: `${names(tests)} ${tests.length === 1 ? 'fails' : 'fail'} on \`${job.targetBranch}\` too, since ${since}: not this change's doing`,
            since: null,
            last_passed: null,
            flakes: null,
          },
        });
      }
      if (tests.every((t) => t.flakes > 0 && t.knownFailingSince === null)) {
        const flakes = tests.reduce((n, t) => n + t.flakes, 0);
        const runs = tests.reduce((n, t) => n + t.runs, 0);
        const rate = runs > 0 ? Math.round((flakes / runs) * 1000) / 10 : 0;
        return Promise.resolve({
          verdict: 'flaky',
          evidence: {
            text: `${names(tests)} failed and passed on one commit ${flakes} time${flakes === 1 ? '' : 's'} in ${runs} run${runs === 1 ? '' : 's'}: a flaky test, not this change`,
            since: null,
            last_passed: null,
            flakes: { flakes, runs, flake_rate: rate },
          },
        });
      }
      return Promise.resolve(null);
    },
  };
}
