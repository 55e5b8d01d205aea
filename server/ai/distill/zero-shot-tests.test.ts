import { describe, expect, it } from 'vitest';
import { classifyLine, type LineKind } from './line-rules.ts';
import { diagnoseLines } from '../testing/documented-lines.ts';

/**
 * One test runner's failure wording, as its documentation or the source that prints it shows it
 * (`from`), and lines of the same runner that must not be read as a failing test: a passing run's
 * summary, a passing test, an echoed command.
 */
interface RunnerFamily {
  family: string;
  from: string;
  failing: { line: string; kind: LineKind }[];
  notFailing: string[];
}

const FAMILIES: RunnerFamily[] = [
  {
    family: 'PHPUnit summary',
    from: 'https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php',
    failing: [
      { line: 'FAILURES!', kind: 'error' },
      { line: 'ERRORS!', kind: 'error' },
      { line: 'Tests: 4, Assertions: 4, Failures: 1.', kind: 'error' },
      { line: 'Tests: 14, Assertions: 45, Errors: 1, Failures: 4.', kind: 'error' },
    ],
    notFailing: [
      'OK (12 tests, 30 assertions)',
      'OK, but some tests were skipped!',
      'Tests: 12, Assertions: 30, Skipped: 1.',
    ],
  },
  {
    family: 'dotnet test / VSTest and Microsoft.Testing.Platform summaries',
    // The `{0} - Failed: {1}, Passed: {2}, Skipped: {3}, Total: {4}, Duration: {5}` resource of
    // vstest.console (https://github.com/microsoft/vstest/blob/main/src/vstest.console/Resources/Resources.resx).
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-test',
    failing: [
      {
        line: 'Failed!  - Failed:     2, Passed:    13, Skipped:     0, Total:    15, Duration: 40 ms - Markdig.Tests.dll (net9.0)',
        kind: 'error',
      },
      { line: 'Test Run Failed.', kind: 'error' },
      { line: 'Test run summary: Failed!', kind: 'error' },
    ],
    notFailing: [
      'Passed!  - Failed:     0, Passed:    13, Skipped:     0, Total:    13, Duration: 40 ms - Markdig.Tests.dll (net9.0)',
      'Test Run Successful.',
    ],
  },
  {
    family: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    failing: [
      {
        line: '1/2 Test #1: ring_wraps .......................***Failed    0.01 sec',
        kind: 'error',
      },
      {
        line: '3/9 Test #3: test3 ............................Subprocess aborted***Exception:   0.21 sec',
        kind: 'error',
      },
      { line: '\t  1 - ring_wraps (Failed)', kind: 'error' },
      { line: '\t 30 - t_byte_stream_many_writes (Timeout)', kind: 'error' },
      { line: '\t 60 - OpticksOpTest.OpIndexerTest (OTHER_FAULT)', kind: 'error' },
      { line: '50% tests passed, 1 tests failed out of 2', kind: 'error' },
      { line: 'The following tests FAILED:', kind: 'summary-header' },
    ],
    notFailing: [
      '100% tests passed, 0 tests failed out of 11',
      '2/2 Test #2: parse_error ......................   Passed    0.00 sec',
      '      Start  1: ring_wraps',
    ],
  },
  {
    family: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines)',
    from: 'https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift',
    failing: [
      {
        line: '/home/runner/work/calc/calc/Tests/CalcTests/CalcTests.swift:7: error: CalcTests.testAdd : XCTAssertEqual failed: ("3") is not equal to ("4") - ',
        kind: 'error',
      },
      {
        line: '/Users/runner/work/App/AppTests/AppTests.swift:12: error: -[AppTests.AppTests testLogin] : XCTAssertTrue failed',
        kind: 'error',
      },
      { line: "Test Case '-[AppTests.AppTests testLogin]' failed (0.003 seconds).", kind: 'error' },
      { line: "Test Suite 'All tests' failed at 2024-05-01 10:00:00.123", kind: 'error' },
      {
        line: '\t Executed 3 tests, with 1 failure (0 unexpected) in 0.003 (0.004) seconds',
        kind: 'error',
      },
    ],
    notFailing: [
      "Test Case '-[AppTests.AppTests testLogin]' passed (0.003 seconds).",
      "Test Suite 'All tests' passed at 2024-05-01 10:00:00.123",
      '\t Executed 3 tests, with 0 failures (0 unexpected) in 0.003 (0.004) seconds',
    ],
  },
  {
    family: 'swift-testing',
    // The event strings of swift-testing's console output (Event.HumanReadableOutputRecorder).
    from: 'https://github.com/swiftlang/swift-testing/blob/main/Sources/Testing/Events/Recorder/Event.HumanReadableOutputRecorder.swift',
    failing: [
      {
        line: '✘ Test four() recorded an issue at AlphaTests.swift:9:5: Expectation failed: 1 == 2',
        kind: 'error',
      },
      { line: '✘ Test run with 9 tests failed after 1.0 seconds with 1 issue.', kind: 'error' },
    ],
    notFailing: [
      '✔ Test one() passed after 0.001 seconds.',
      '✔ Test run with 9 tests passed after 0.004 seconds.',
    ],
  },
  {
    family: 'Playwright list and line reporters',
    // NEGATIVE_STATUS_MARK '✘' in packages/playwright/src/reporters/list.ts.
    from: 'https://playwright.dev/docs/test-reporters',
    failing: [
      { line: '  ✘  1 [chromium] › tests/example.spec.ts:3:5 › has title (5.1s)', kind: 'error' },
      {
        line: '  1) [chromium] › tests/example.spec.ts:3:5 › has title ──────────────────────────',
        kind: 'error',
      },
      { line: '  1 failed', kind: 'error' },
    ],
    notFailing: [
      '  ✓  2 [chromium] › tests/example.spec.ts:8:5 › get started link (1.2s)',
      '  2 passed (3.4s)',
    ],
  },
  {
    family: 'Jest, Playwright and XCTest assertion messages',
    from: 'https://jestjs.io/docs/expect',
    failing: [
      { line: '    expect(received).toBe(expected) // Object.is equality', kind: 'error' },
      { line: '    expect(jest.fn()).toHaveBeenCalledWith(...expected)', kind: 'error' },
      // https://playwright.dev/docs/test-assertions: a web-first assertion that timed out is the
      // test's verdict, not a script's own timeout.
      {
        line: '    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)',
        kind: 'error',
      },
      { line: '    Error: expect(locator).toBeVisible() failed', kind: 'error' },
      // XCTest's message as xcbeautify prints it, without the `file: error:` prefix.
      { line: '    ✖ testAdd, XCTAssertEqual failed: ("3") is not equal to ("4")', kind: 'error' },
    ],
    notFailing: ['      5 |   expect(sum(1, 2)).toBe(3);', '+ npx jest --ci'],
  },
  {
    family: 'Vitest default reporter',
    from: 'https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts',
    failing: [
      { line: ' ❯ src/cart.test.ts (3 tests | 1 failed) 12ms', kind: 'error' },
      { line: ' ❯ src/cart.test.ts (5 tests | 2 failed | 1 skipped) 12ms', kind: 'error' },
      { line: ' FAIL  src/cart.test.ts > cart > computes the total', kind: 'error' },
      { line: ' Test Files  1 failed | 1 passed (2)', kind: 'error' },
    ],
    notFailing: [
      ' ✓ src/cart.test.ts (3 tests) 5ms',
      ' ✓ src/cart.test.ts (4 tests | 1 skipped) 5ms',
      '      Tests  3 passed (3)',
    ],
  },
  {
    family: 'NUnit console summary',
    from: 'https://docs.nunit.org/articles/nunit/running-tests/Console-Runner.html',
    failing: [
      {
        line: '  Test Count: 10, Passed: 2, Failed: 4, Warnings: 1, Inconclusive: 1, Skipped: 2',
        kind: 'error',
      },
      { line: '    Failed Tests - Failures: 1, Errors: 1, Invalid: 2', kind: 'error' },
    ],
    notFailing: [
      '  Test Count: 12, Passed: 12, Failed: 0, Warnings: 0, Inconclusive: 0, Skipped: 0',
      '    Failed Tests - Failures: 0, Errors: 0, Invalid: 0',
    ],
  },
  {
    family: 'Karma',
    from: 'https://github.com/karma-runner/karma/blob/master/lib/reporters/base.js',
    failing: [
      {
        line: 'Chrome Headless 120.0.6099.109 (Linux x86_64) CartComponent should compute the total FAILED',
        kind: 'error',
      },
      {
        line: 'Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 12 of 12 (1 FAILED) (0.21 secs / 0.18 secs)',
        kind: 'error',
      },
      { line: 'TOTAL: 1 FAILED, 11 SUCCESS', kind: 'error' },
    ],
    notFailing: [
      'Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 12 of 12 SUCCESS (0.21 secs / 0.18 secs)',
      'TOTAL: 12 SUCCESS',
    ],
  },
  {
    family: 'Python unittest',
    from: 'https://github.com/python/cpython/blob/main/Lib/unittest/runner.py',
    failing: [
      { line: 'ERROR: test_parse (test_config.ConfigTest.test_parse)', kind: 'error' },
      { line: 'ERROR: test_parse (test_config.ConfigTest)', kind: 'error' },
      { line: 'FAIL: test_render (test_config.ConfigTest.test_render) (case=2)', kind: 'error' },
      { line: 'FAILED (failures=1, errors=2)', kind: 'error' },
    ],
    notFailing: [
      'Ran 12 tests in 0.512s',
      'OK (skipped=2)',
      '+ python -m unittest discover -s tests -v',
      // pip's resolver, not a test: it keeps its own category.
      'ERROR: Could not find a version that satisfies the requirement foo (from versions: none)',
    ],
  },
  {
    family: 'GoogleTest',
    from: 'https://google.github.io/googletest/primer.html',
    failing: [
      { line: '[  FAILED  ] RingTest.Wraps (0 ms)', kind: 'error' },
      { line: '[  FAILED  ] 1 test, listed below:', kind: 'error' },
      { line: '/home/u/netcalc/test/ring_test.cpp:14: Failure', kind: 'error' },
    ],
    notFailing: ['[  PASSED  ] 3 tests.', '[       OK ] RingTest.Wraps (0 ms)'],
  },
  {
    family: 'hspec',
    from: 'https://github.com/hspec/hspec/blob/main/hspec-core/src/Test/Hspec/Core/Formatters/V2.hs',
    failing: [
      { line: '1 example, 1 failure', kind: 'error' },
      { line: '    reverses a list FAILED [1]', kind: 'error' },
    ],
    notFailing: ['12 examples, 0 failures', '12 examples, 0 failures, 2 pending'],
  },
  {
    family: 'Jasmine',
    from: 'https://github.com/jasmine/jasmine-npm/blob/main/lib/reporters/console_reporter.js',
    failing: [{ line: '3 specs, 1 failure', kind: 'error' }],
    notFailing: ['3 specs, 0 failures', 'Ran 3 of 5 specs'],
  },
  {
    family: 'RSpec heading above the rerun lines',
    from: 'https://rspec.info/features/3-12/rspec-core/command-line/',
    failing: [{ line: 'Failed examples:', kind: 'summary-header' }],
    notFailing: [
      '12 examples, 0 failures',
      'Finished in 0.1 seconds (files took 0.2 seconds to load)',
    ],
  },
  {
    family: 'ScalaTest and sbt',
    from: 'https://www.scalatest.org/user_guide/using_scalatest_with_sbt',
    failing: [
      { line: '[info] - should equal 2 *** FAILED *** (52 milliseconds)', kind: 'error' },
      { line: '[info] *** 9 TESTS FAILED ***', kind: 'error' },
      { line: '[error] Failed tests:', kind: 'summary-header' },
      { line: '[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful', kind: 'error' },
    ],
    notFailing: [
      '[info] Tests: succeeded 3, failed 0, canceled 0, ignored 0, pending 0',
      '[info] All tests passed.',
    ],
  },
  {
    family: 'Dart test (expanded reporter)',
    from: 'https://github.com/dart-lang/test/blob/master/pkgs/test_core/lib/src/runner/reporter/expanded.dart',
    failing: [
      { line: '00:01 +0 -1: test/slug_test.dart: accents [E]', kind: 'error' },
      { line: '00:02 +3 -1: Some tests failed.', kind: 'error' },
    ],
    // A file that failed to load is followed by the compiler's error, which names the cause.
    notFailing: ['00:02 +4: All tests passed!', '00:00 +0 -1: loading test/slug_test.dart [E]'],
  },
  {
    family: 'Deno test',
    from: 'https://github.com/denoland/deno/blob/main/tests/testdata/test/fail.out',
    failing: [
      { line: 'test 0 ... FAILED (2ms)', kind: 'error' },
      { line: 'error: Test failed', kind: 'error' },
    ],
    notFailing: ['test 8 ... ok (2ms)', 'ok | 10 passed | 0 failed (12ms)'],
  },
  {
    family: 'Boost.Test',
    from: 'https://www.boost.org/doc/libs/release/libs/test/doc/html/boost_test/testing_tools.html',
    failing: [
      { line: 'test1.cpp(8): error: in "test_case1": check a == b has failed', kind: 'error' },
      { line: '*** 1 failure is detected in the test module "simple test1"', kind: 'error' },
    ],
    notFailing: ['*** No errors detected'],
  },
  {
    family: 'Catch2',
    from: 'https://github.com/catchorg/Catch2/blob/devel/docs/tutorial.md',
    failing: [
      { line: '/home/u/src/test_factorial.cpp:12: FAILED:', kind: 'error' },
      { line: 'test cases: 2 | 1 passed | 1 failed', kind: 'error' },
    ],
    notFailing: ['All tests passed (3 assertions in 1 test case)'],
  },
  {
    family: 'Julia Test',
    from: 'https://docs.julialang.org/en/v1/stdlib/Test/',
    failing: [{ line: 'Test Failed at /home/u/Pkg/test/runtests.jl:12', kind: 'error' }],
    notFailing: ['Test Summary: | Pass  Total  Time', 'Test Passed'],
  },
  {
    family: 'testthat',
    from: 'https://testthat.r-lib.org/reference/test_dir.html',
    failing: [
      { line: "── Failure ('test-parse.R:12:3'): parses dates ──────────────────", kind: 'error' },
      { line: '[ FAIL 1 | WARN 0 | SKIP 0 | PASS 12 ]', kind: 'error' },
    ],
    notFailing: ['[ FAIL 0 | WARN 1 | SKIP 0 | PASS 12 ]'],
  },
];

describe('zero-shot line rules: test runners', () => {
  for (const f of FAMILIES) {
    it(`${f.family}: the documented failure lines are test failures`, () => {
      for (const { line, kind } of f.failing) {
        expect({ line, ...classifyLine(line) }).toMatchObject({
          line,
          category: 'test_failure',
          kind,
        });
      }
    });
    it(`${f.family}: a passing run's lines do not vote for a test failure`, () => {
      for (const line of f.notFailing) {
        expect({ line, category: classifyLine(line).category }).not.toEqual({
          line,
          category: 'test_failure',
        });
      }
    });
  }

  it('summaries of runs where nothing failed take no category at all', () => {
    for (const line of [
      'Ran 12 tests in 0.512s',
      'Tests run: 12, Failures: 0, Errors: 0, Skipped: 0',
      'Failed!  - Failed:     0, Passed:    13, Skipped:     0, Total:    13, Duration: 40 ms',
      '\t Executed 3 tests, with 0 failures (0 unexpected) in 0.003 (0.004) seconds',
      '100% tests passed, 0 tests failed out of 11',
      'Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 12 of 12 SUCCESS (0.2 secs / 0.1 secs)',
      // A bare heading: RSpec, hspec and Jasmine print it over failures, other tools over anything.
      'Failures:',
    ]) {
      expect({ line, category: classifyLine(line).category }).toEqual({
        line,
        category: undefined,
      });
    }
  });

  it('a Swift compiler error is still a compile error, not an XCTest failure', () => {
    expect(
      classifyLine("/src/App/Cart.swift:12:5: error: cannot find 'total' in scope").category,
    ).toBe('compile_error');
  });
});

describe('zero-shot line rules: test runners, whole logs', () => {
  it('a failing XCTest assertion in `swift test` is a test failure, not a compile error', () => {
    // Output shape: swift-corelibs-xctest PrintObserver.swift (linked above).
    const d = diagnoseLines([
      '$ swift test',
      'Building for debugging...',
      'Build complete! (3.21s)',
      "Test Suite 'All tests' started at 2024-05-01 10:00:00.000",
      "Test Suite 'CalcTests' started at 2024-05-01 10:00:00.001",
      "Test Case 'CalcTests.testAdd' started at 2024-05-01 10:00:00.001",
      '/builds/calc/Tests/CalcTests/CalcTests.swift:7: error: CalcTests.testAdd : XCTAssertEqual failed: ("3") is not equal to ("4") - ',
      "Test Case 'CalcTests.testAdd' failed (0.001 seconds)",
      "Test Suite 'CalcTests' failed at 2024-05-01 10:00:00.002",
      '\t Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds',
      "Test Suite 'All tests' failed at 2024-05-01 10:00:00.002",
      '\t Executed 1 test, with 1 failure (0 unexpected) in 0.001 (0.001) seconds',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(d.category).toBe('test_failure');
    expect(d.evidence[0]!.text).toContain('XCTAssertEqual failed');
  });

  it('a Playwright assertion that timed out is a test failure, quoted first', () => {
    // Output shape: https://playwright.dev/docs/test-reporters (list reporter).
    const d = diagnoseLines([
      '$ npx playwright test',
      '',
      'Running 2 tests using 1 worker',
      '',
      '  ✓  1 [chromium] › tests/example.spec.ts:8:5 › get started link (1.2s)',
      '  ✘  2 [chromium] › tests/example.spec.ts:3:5 › has title (5.1s)',
      '',
      '',
      '  1) [chromium] › tests/example.spec.ts:3:5 › has title ──────────────────────────────',
      '',
      '    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)',
      '',
      "    Locator: locator('h1')",
      '    Expected string: "Playwright"',
      '    Received string: "Welcome"',
      '',
      '  1 failed',
      '    [chromium] › tests/example.spec.ts:3:5 › has title ───────────────────────────────',
      '  1 passed (6.8s)',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(d.category).toBe('test_failure');
    expect(d.evidence.slice(0, 3).map((e) => e.text)).toEqual(
      expect.arrayContaining([expect.stringContaining('has title')]),
    );
  });

  it('a PHPUnit run that ended in FAILURES! is a test failure, even when the test hit a PHP error', () => {
    // Output shape: PHPUnit's SummaryPrinter.php (linked above); `There was 1 error:` lists it.
    const d = diagnoseLines([
      'Run vendor/bin/phpunit',
      'PHPUnit 10.5.9 by Sebastian Bergmann and contributors.',
      '',
      'Runtime:       PHP 8.3.2',
      '',
      '..E.                                                                4 / 4 (100%)',
      '',
      'Time: 00:00.012, Memory: 8.00 MB',
      '',
      'There was 1 error:',
      '',
      '1) Tests\\CartTest::testTotal',
      'Error: Call to undefined method App\\Cart::sum()',
      '',
      '/home/runner/work/shop/shop/tests/CartTest.php:18',
      '',
      'ERRORS!',
      'Tests: 4, Assertions: 3, Errors: 1.',
      'Error: Process completed with exit code 2.',
    ]);
    expect(d.category).toBe('test_failure');
  });

  it("a CTest run's summary is quoted before its per-test verdicts, and the run is a test failure", () => {
    // Output shape: https://cmake.org/cmake/help/latest/manual/ctest.1.html.
    const d = diagnoseLines([
      '$ ctest --test-dir build',
      'Test project /builds/netcalc/build',
      '    Start 1: ring_wraps',
      '1/2 Test #1: ring_wraps .......................***Failed    0.01 sec',
      '    Start 2: parse_error',
      '2/2 Test #2: parse_error ......................   Passed    0.00 sec',
      '',
      '50% tests passed, 1 tests failed out of 2',
      '',
      'Total Test time (real) =   0.02 sec',
      '',
      'The following tests FAILED:',
      '\t  1 - ring_wraps (Failed)',
      'Errors while running CTest',
      'ERROR: Job failed: exit code 8',
    ]);
    expect(d.category).toBe('test_failure');
    expect(d.evidence[0]!.text).toBe('50% tests passed, 1 tests failed out of 2');
  });

  it("a passing runner's summary does not outvote the real failure after it", () => {
    // Tests passed (`Ran 2 tests … OK`, `Passed!  - Failed: 0`), then the packaging step had no
    // credentials: the job failed on permission, not on tests.
    const d = diagnoseLines([
      '$ python -m unittest discover -s tests',
      '..',
      '----------------------------------------------------------------------',
      'Ran 2 tests in 0.004s',
      '',
      'OK',
      '$ dotnet test',
      'Passed!  - Failed:     0, Passed:    13, Skipped:     0, Total:    13, Duration: 40 ms - App.Tests.dll (net8.0)',
      '$ twine upload dist/*',
      'Uploading distributions to https://upload.pypi.org/legacy/',
      'ERROR    HTTPError: 403 Forbidden from https://upload.pypi.org/legacy/',
      '         Invalid or non-existent authentication information.',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(d.category).toBe('permission_auth');
  });
});
