import { describe, expect, it } from 'vitest';
import { minimalContext } from './job-context.ts';
import { analysisMessage } from './prompt.ts';
import type { DistilledLog } from './distill/log-distiller.ts';

describe('the analysis prompt of a job whose tests failed', () => {
  it('includes the failed tests, their trimmed traces and history before the log', () => {
    const context = minimalContext({ projectId: 1, pipelineId: 2, jobId: 3, jobName: 'pytest' });
    context.failedTests = [
      {
        suite: 'pytest',
        classname: 'tests.test_ingest.TestIngest',
        name: 'test_drops_duplicate_events',
        file: 'tests/test_ingest.py',
        status: 'failed',
        trace: `E       AssertionError: assert 4 == 3\n${'x'.repeat(2_000)}`,
        knownFailingSince: '2026-11-26T16:40:12.000Z',
        flakes: 3,
        runs: 40,
        failures: 6,
      },
    ];
    const distilled = { text: 'FAILED tests/test_ingest.py', totalLines: 1 } as DistilledLog;
    const message = analysisMessage(context, distilled);
    const tests = message.indexOf('## Failed tests (JUnit report)');
    expect(tests).toBeGreaterThan(0);
    expect(tests).toBeLessThan(message.indexOf('## Log excerpt'));
    expect(message).toContain(
      '- `test_drops_duplicate_events` (tests.test_ingest.TestIngest, tests/test_ingest.py) — failed; failing on the default branch since 2026-11-26 16:40 UTC; flaky: failed and passed on the same commit 3 times in 40 runs; failed 6 of 40 runs',
    );
    expect(message).toContain('AssertionError: assert 4 == 3');
    // The trace is trimmed to its head.
    expect(message).not.toContain('x'.repeat(1_300));
    context.failedTests = undefined;
    expect(analysisMessage(context, distilled)).not.toContain('## Failed tests');
  });
});
