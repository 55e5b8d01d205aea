// The seam for test-level verdicts: the JUnit test reports (issue 26) know which tests failed in a
// job and whether each failed on the target branch or flaked; triage asks through this port and
// falls back to job-level evidence when it answers nothing. This file imports no application code.
import type { TriageEvidence, TriageVerdict } from './contract.ts';

/** A failed job triage wants test-level evidence for. */
export interface FailedJobForTests {
  projectId: number;
  pipelineId: number;
  jobId: number;
  jobName: string;
  sha: string;
  /** The branch the failure is judged against (the MR's target, else the default branch). */
  targetBranch: string;
}

/** A verdict the failed tests support, with evidence in the same shape as the job-level one. */
export interface TestLevelVerdict {
  verdict: TriageVerdict;
  evidence: TriageEvidence;
}

/**
 * Test-level flake and broken evidence for a failed job: `broken-on-default` when its failing tests
 * fail on the target branch too, `flaky` when they failed and passed on one commit, `new` when they
 * pass there; null when the job has no test report (then the job-level verdict stands).
 */
export interface TestEvidence {
  verdictFor(job: FailedJobForTests): Promise<TestLevelVerdict | null>;
}
