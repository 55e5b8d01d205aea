import { describe, TestRunner } from 'vitest';
import { REAL_LOGS_MISSING, realLogsPresent } from './index.ts';

// Printed once per test file that imports this, so a run without the corpus says why tests skipped.
if (!realLogsPresent) console.warn(REAL_LOGS_MISSING);

/** `describe`, skipped as a whole when the real-log corpus is absent. */
export const describeWithRealLogs = describe.skipIf(!realLogsPresent);

/**
 * Skips the running test when the real-log corpus is absent. Called where a test reads a real log,
 * so the tests of the same file that need no corpus still run.
 */
export function skipWithoutRealLogs(): void {
  if (!realLogsPresent) TestRunner.getCurrentTest()?.context.skip(REAL_LOGS_MISSING);
}
