import { describe, expect, it } from 'vitest';
import { testLevelEvidence, type FailedTestRecord } from './test-level-evidence.ts';

const job = {
  projectId: 7,
  pipelineId: 70,
  jobId: 700,
  jobName: 'unit-tests',
  sha: 'a'.repeat(40),
  targetBranch: 'main',
};
const test = (over: Partial<FailedTestRecord>): FailedTestRecord => ({
  classname: 'AuthTest',
  name: 'rejects expired tokens',
  knownFailingSince: null,
  flakes: 0,
  runs: 10,
  ...over,
});
const evidence = (tests: FailedTestRecord[], defaultBranch = 'main') =>
  testLevelEvidence({ failedTests: () => tests, defaultBranch: () => defaultBranch }).verdictFor(
    job,
  );

describe('test-level verdicts', () => {
  it('is broken-on-default when every failed test already fails on the default branch', async () => {
    const v = await evidence([
      test({ knownFailingSince: '2026-11-20T10:00:00.000Z' }),
      test({ name: 'refreshes', knownFailingSince: '2026-11-19T08:00:00.000Z' }),
    ]);
    expect(v?.verdict).toBe('broken-on-default');
    expect(v?.evidence.text).toBe(
      "`rejects expired tokens`, `refreshes` fail on `main` too, since 2026-11-19T08:00:00.000Z: not this change's doing",
    );
  });

  it('does not call a test broken on a target branch that is not the default branch', async () => {
    expect(
      await evidence([test({ knownFailingSince: '2026-11-20T10:00:00.000Z' })], 'develop'),
    ).toBeNull();
  });

  it('is flaky when every failed test flaked, with the summed rate', async () => {
    const v = await evidence([
      test({ flakes: 2, runs: 30 }),
      test({ name: 'b', flakes: 1, runs: 10 }),
    ]);
    expect(v?.verdict).toBe('flaky');
    expect(v?.evidence.flakes).toEqual({ flakes: 3, runs: 40, flake_rate: 7.5 });
  });

  it('leaves the job-level verdict when the tests disagree or there is no report', async () => {
    expect(await evidence([test({ flakes: 2 }), test({ name: 'new one' })])).toBeNull();
    expect(await evidence([])).toBeNull();
  });
});
