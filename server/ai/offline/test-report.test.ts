import { describe, expect, it } from 'vitest';
import type { JobTestFailure } from '../job-context.ts';
import { assertionOf, failedTestLines, locationOf } from './test-report.ts';

// Traces in each runner's own format, as GitLab's report carries them in `stack_trace`
// (the simulator's server/simulator/test-reports/catalog.ts writes the same formats).
const TRACES = {
  pytest: [
    '    def test_drops_duplicate_events(self, events):',
    '        rows = run(events)',
    '>       assert len(rows) == 3',
    'E       AssertionError: assert 4 == 3',
    'E        +  where 4 = len([...])',
    '',
    'tests/test_ingest.py:42: AssertionError',
  ].join('\n'),
  jest: [
    'Error: expect(received).toBe(expected) // Object.is equality',
    '',
    'Expected: 16',
    'Received: 18',
    '    at Object.<anonymous> (/builds/acme/web/design-system/src/components/PriceTag.test.ts:31:42)',
    '    at Promise.then.completed (/builds/acme/web/design-system/node_modules/jest-circus/build/utils.js:298:28)',
  ].join('\n'),
  junit5: [
    'org.opentest4j.AssertionFailedError: expected: <120> but was: <118>',
    '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
    '\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1141)',
    '\tat com.acme.billing.invoice.InvoiceServiceTest.appliesProrationOnUpgrade(InvoiceServiceTest.java:87)',
  ].join('\n'),
  go: [
    '=== RUN   TestTokenRefreshRotatesKey',
    '    token_test.go:58: got 3, want 2',
    '--- FAIL: TestTokenRefreshRotatesKey (0.02s)',
  ].join('\n'),
  // rspec_junit_formatter's failure text: the exception's message, then the backtrace.
  rspec: [
    'expected: 90',
    '     got: 100',
    '',
    '(compared using ==)',
    '',
    "./spec/models/invoice_spec.rb:42:in `block (3 levels) in <top (required)>'",
  ].join('\n'),
  rust: [
    "thread 'tests::merges_segments' panicked at src/merge.rs:88:9:",
    'assertion `left == right` failed',
    '  left: 4',
    ' right: 3',
  ].join('\n'),
};

describe('failed tests in the offline answer', () => {
  it.each([
    [
      'pytest',
      TRACES.pytest,
      'tests/test_ingest.py',
      'AssertionError: assert 4 == 3',
      'tests/test_ingest.py:42',
    ],
    [
      'jest',
      TRACES.jest,
      'src/components/PriceTag.test.ts',
      'Error: expect(received).toBe(expected) — Expected: 16 — Received: 18',
      'src/components/PriceTag.test.ts:31:42',
    ],
    [
      'JUnit 5',
      TRACES.junit5,
      null,
      'org.opentest4j.AssertionFailedError: expected: <120> but was: <118>',
      'InvoiceServiceTest.java:87 (com.acme.billing.invoice.InvoiceServiceTest.appliesProrationOnUpgrade)',
    ],
    ['go', TRACES.go, null, 'got 3, want 2', 'token_test.go:58'],
    [
      'rspec',
      TRACES.rspec,
      './spec/models/invoice_spec.rb',
      'expected: 90 — got: 100',
      './spec/models/invoice_spec.rb:42',
    ],
    [
      'rust',
      TRACES.rust,
      null,
      'assertion `left == right` failed — left: 4 — right: 3',
      'src/merge.rs:88:9',
    ],
  ])('reads the assertion and its location from a %s trace', (_, trace, file, assertion, where) => {
    expect(assertionOf(trace)).toBe(assertion);
    expect(locationOf(trace, file)).toBe(where);
  });

  const test = (over: Partial<JobTestFailure>): JobTestFailure => ({
    suite: 'pytest',
    classname: 'tests.test_ingest.TestIngest',
    name: 'test_drops_duplicate_events',
    file: 'tests/test_ingest.py',
    status: 'failed',
    trace: TRACES.pytest,
    knownFailingSince: null,
    flakes: 0,
    runs: 40,
    failures: 1,
    ...over,
  });

  it('says whether each test is new, known broken on the default branch, or flaky', () => {
    expect(failedTestLines([test({})])).toEqual([
      "**Failed tests** (GitLab's JUnit report, 1):",
      '- `test_drops_duplicate_events` (tests.test_ingest.TestIngest) — AssertionError: assert 4 == 3 at `tests/test_ingest.py:42` — new: no earlier failure is stored; failed 1 of 40 runs.',
      '',
    ]);
    const known = failedTestLines([
      test({ knownFailingSince: '2026-11-26T16:40:12.000Z', failures: 5 }),
    ]);
    expect(known[1]).toContain(
      '— failing on the default branch since 2026-11-26 16:40 UTC; failed 5 of 40 runs.',
    );
    expect(known).toContain(
      'These tests already fail on the default branch: this change is unlikely to be the cause; fix or quarantine them there.',
    );
    const flaky = failedTestLines([test({ flakes: 3, failures: 3 })]);
    expect(flaky[1]).toContain(
      '— flaky: failed and passed on the same commit 3 times in 40 runs; failed 3 of 40 runs.',
    );
    expect(flaky).toContain(
      'Every failed test is known flaky: a retry is likely to pass, but the flakes deserve a fix.',
    );
    expect(failedTestLines(undefined)).toEqual([]);
  });
});
