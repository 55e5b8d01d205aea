import type {
  DefaultBranchesResponse,
  FlakyJobsResponse,
  RegressionsResponse,
} from './contract.ts';
import { defaultBranchHealth } from './default-branch.ts';
import { FlakeIndex, flakyJobs } from './flaky-jobs.ts';
import { HealthIndex, type HealthInput } from './health-index.ts';
import { durationRegressions } from './regressions.ts';

/** Everything group health knows about one snapshot of history, computed once per change. */
export interface GroupHealth {
  index: HealthIndex;
  flakes: FlakeIndex;
  defaultBranches: DefaultBranchesResponse;
  flakyJobs: FlakyJobsResponse;
  regressions: RegressionsResponse;
}

/**
 * Recomputes group health from history: default branches, flaky jobs and duration regressions.
 * Pure: the same input gives the same answer; failures and trends are read from the result per
 * request (they take filters).
 */
export function computeGroupHealth(input: HealthInput): GroupHealth {
  const index = new HealthIndex(input);
  const flakes = new FlakeIndex(index);
  return {
    index,
    flakes,
    defaultBranches: defaultBranchHealth(index),
    flakyJobs: flakyJobs(index, flakes),
    regressions: durationRegressions(index),
  };
}
