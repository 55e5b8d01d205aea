import { describe, expect, it } from 'vitest';
import { classifyLine } from '../classify-line.ts';
import { distillLog } from '../../log-distiller.ts';
import { diagnoseLines, expectDiagnosis } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type Lookalike, type RuleCase } from '../rule-tester.ts';
import { testRunnersFamily } from './test-runners.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: "gotestsum's summary with failures",
    from: 'https://github.com/gotestyourself/gotestsum/blob/main/testjson/summary.go',
    line: 'DONE 147 tests, 127 skipped, 13 failures in 549.009s',
    rule: 'test-runners/gotestsum-or-pester',
    category: 'test_failure',
    lookalike: 'DONE 147 tests, 127 skipped in 549.009s',
  },
  {
    what: "Pester's failed test",
    from: 'https://pester.dev/docs/usage/output',
    line: '[-] Remove-BOM file discovery.normalizes top-level symlink aliases 85ms (83ms|1ms)',
    rule: 'test-runners/surefire-pester-tap',
    categoryRule: 'test-runners/gotestsum-or-pester',
    category: 'test_failure',
    // A script's own `[-]` marker, without Pester's timings.
    lookalike: '[-] Port 5985 closed on 10.0.0.4',
  },
  {
    what: "Pester's counts",
    from: 'https://pester.dev/docs/usage/output',
    line: 'Tests Passed: 10, Failed: 17, Skipped: 0, Inconclusive: 0, NotRun: 0',
    rule: 'test-runners/gotestsum-or-pester',
    category: 'test_failure',
    lookalike: 'Tests Passed: 27, Failed: 0, Skipped: 0, Inconclusive: 0, NotRun: 0',
  },
  {
    what: "Flutter's exception in a test",
    from: 'https://github.com/flutter/flutter/blob/master/packages/flutter/lib/src/foundation/assertions.dart',
    line: 'The following assertion was thrown running a test:',
    rule: 'test-runners/flutter-exception',
    category: 'test_failure',
    lookalike: 'The following packages were upgraded:',
  },
  {
    what: "pytest's summary of a test that raised",
    from: 'https://docs.pytest.org/en/stable/how-to/output.html#producing-a-detailed-summary-report',
    line: "FAILED tests/test_agents.py::TestGraph::test_consensus - AttributeError: type object 'Perspective' has no attribute 'SONNET'",
    rule: 'test-runners/pytest-short-summary',
    category: 'test_failure',
    lookalike: 'PASSED tests/test_agents.py::TestGraph::test_consensus',
  },
  {
    what: "Gradle's What went wrong: failing tests",
    from: 'https://docs.gradle.org/current/userguide/java_testing.html',
    line: '> There were failing tests. See the report at: file:///home/runner/work/app/build/reports/tests/test/index.html',
    rule: 'test-runners/test-task-failed',
    category: 'test_failure',
  },
  {
    what: "Maven Surefire's goal failure: failing tests",
    from: 'https://maven.apache.org/surefire/maven-surefire-plugin/examples/skipping-tests.html',
    line: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project app: There are test failures.',
    rule: 'test-runners/test-task-failed',
    category: 'test_failure',
  },
  {
    what: "a test plugin's verdict (sbt TextTest, gulp-mocha, jmeter-maven)",
    from: 'https://github.com/sindresorhus/gulp-mocha/blob/main/index.js',
    line: 'java.lang.RuntimeException: There were test failures',
    rule: 'test-runners/test-task-failed',
    category: 'test_failure',
  },
  {
    what: 'PHPUnit summary',
    from: 'https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php',
    line: 'FAILURES!',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'PHPUnit summary',
    from: 'https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php',
    line: 'ERRORS!',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'PHPUnit summary',
    from: 'https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php',
    line: 'Tests: 4, Assertions: 4, Failures: 1.',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'PHPUnit summary',
    from: 'https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php',
    line: 'Tests: 14, Assertions: 45, Errors: 1, Failures: 4.',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'dotnet test / VSTest and Microsoft.Testing.Platform summaries',
    // The `{0} - Failed: {1}, Passed: {2}, Skipped: {3}, Total: {4}, Duration: {5}` resource of
    // vstest.console (https://github.com/microsoft/vstest/blob/main/src/vstest.console/Resources/Resources.resx).
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-test',
    line: 'Failed!  - Failed:     2, Passed:    13, Skipped:     0, Total:    15, Duration: 40 ms - Markdig.Tests.dll (net9.0)',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'dotnet test / VSTest and Microsoft.Testing.Platform summaries',
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-test',
    line: 'Test Run Failed.',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'dotnet test / VSTest and Microsoft.Testing.Platform summaries',
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-test',
    line: 'Test run summary: Failed!',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: '1/2 Test #1: ring_wraps .......................***Failed    0.01 sec',
    rule: 'test-runners/ctest-verdict',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: '3/9 Test #3: test3 ............................Subprocess aborted***Exception:   0.21 sec',
    rule: 'test-runners/ctest-verdict',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: '\t  1 - ring_wraps (Failed)',
    rule: 'test-runners/ctest-verdict',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: '\t 30 - t_byte_stream_many_writes (Timeout)',
    rule: 'test-runners/ctest-verdict',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: '\t 60 - OpticksOpTest.OpIndexerTest (OTHER_FAULT)',
    rule: 'test-runners/ctest-verdict',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: '50% tests passed, 1 tests failed out of 2',
    rule: 'test-runners/failed-count',
    category: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading',
    from: 'https://cmake.org/cmake/help/latest/manual/ctest.1.html',
    line: 'The following tests FAILED:',
    rule: 'test-runners/failed-tests-heading',
    category: 'test_failure',
    kind: 'summary-header',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines)',
    from: 'https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift',
    line: '/home/runner/work/calc/calc/Tests/CalcTests/CalcTests.swift:7: error: CalcTests.testAdd : XCTAssertEqual failed: ("3") is not equal to ("4") - ',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines)',
    from: 'https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift',
    line: '/Users/runner/work/App/AppTests/AppTests.swift:12: error: -[AppTests.AppTests testLogin] : XCTAssertTrue failed',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines)',
    from: 'https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift',
    line: "Test Case '-[AppTests.AppTests testLogin]' failed (0.003 seconds).",
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines)',
    from: 'https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift',
    line: "Test Suite 'All tests' failed at 2024-05-01 10:00:00.123",
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines)',
    from: 'https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift',
    line: '\t Executed 3 tests, with 1 failure (0 unexpected) in 0.003 (0.004) seconds',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'swift-testing',
    // The event strings of swift-testing's console output (Event.HumanReadableOutputRecorder).
    from: 'https://github.com/swiftlang/swift-testing/blob/main/Sources/Testing/Events/Recorder/Event.HumanReadableOutputRecorder.swift',
    line: '✘ Test four() recorded an issue at AlphaTests.swift:9:5: Expectation failed: 1 == 2',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'swift-testing',
    from: 'https://github.com/swiftlang/swift-testing/blob/main/Sources/Testing/Events/Recorder/Event.HumanReadableOutputRecorder.swift',
    line: '✘ Test run with 9 tests failed after 1.0 seconds with 1 issue.',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Playwright list and line reporters',
    // NEGATIVE_STATUS_MARK '✘' in packages/playwright/src/reporters/list.ts.
    from: 'https://playwright.dev/docs/test-reporters',
    line: '  ✘  1 [chromium] › tests/example.spec.ts:3:5 › has title (5.1s)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Playwright list and line reporters',
    from: 'https://playwright.dev/docs/test-reporters',
    line: '  1) [chromium] › tests/example.spec.ts:3:5 › has title ──────────────────────────',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Playwright list and line reporters',
    from: 'https://playwright.dev/docs/test-reporters',
    line: '  1 failed',
    rule: 'test-runners/failed-count',
    category: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages',
    // https://playwright.dev/docs/test-assertions: a web-first assertion that timed out is the
    // test's verdict, not a script's own timeout.
    // XCTest's message as xcbeautify prints it, without the `file: error:` prefix.
    from: 'https://jestjs.io/docs/expect',
    line: '    expect(received).toBe(expected) // Object.is equality',
    rule: 'test-runners/expect-assertion',
    category: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages',
    from: 'https://jestjs.io/docs/expect',
    line: '    expect(jest.fn()).toHaveBeenCalledWith(...expected)',
    rule: 'test-runners/expect-assertion',
    category: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages',
    from: 'https://jestjs.io/docs/expect',
    line: '    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)',
    rule: 'test-runners/expect-assertion',
    category: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages',
    from: 'https://jestjs.io/docs/expect',
    line: '    Error: expect(locator).toBeVisible() failed',
    rule: 'test-runners/expect-assertion',
    category: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages',
    from: 'https://jestjs.io/docs/expect',
    line: '    ✖ testAdd, XCTAssertEqual failed: ("3") is not equal to ("4")',
    rule: 'test-runners/expect-assertion',
    category: 'test_failure',
  },
  {
    what: 'Vitest default reporter',
    from: 'https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts',
    line: ' ❯ src/cart.test.ts (3 tests | 1 failed) 12ms',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Vitest default reporter',
    from: 'https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts',
    line: ' ❯ src/cart.test.ts (5 tests | 2 failed | 1 skipped) 12ms',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Vitest default reporter',
    from: 'https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts',
    line: ' FAIL  src/cart.test.ts > cart > computes the total',
    rule: 'test-runners/failure-or-assertion',
    category: 'test_failure',
  },
  {
    what: 'Vitest default reporter',
    from: 'https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts',
    line: ' Test Files  1 failed | 1 passed (2)',
    rule: 'test-runners/failed-count',
    category: 'test_failure',
  },
  {
    what: 'NUnit console summary',
    from: 'https://docs.nunit.org/articles/nunit/running-tests/Console-Runner.html',
    line: '  Test Count: 10, Passed: 2, Failed: 4, Warnings: 1, Inconclusive: 1, Skipped: 2',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'NUnit console summary',
    from: 'https://docs.nunit.org/articles/nunit/running-tests/Console-Runner.html',
    line: '    Failed Tests - Failures: 1, Errors: 1, Invalid: 2',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Karma',
    from: 'https://github.com/karma-runner/karma/blob/master/lib/reporters/base.js',
    line: 'Chrome Headless 120.0.6099.109 (Linux x86_64) CartComponent should compute the total FAILED',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Karma',
    from: 'https://github.com/karma-runner/karma/blob/master/lib/reporters/base.js',
    line: 'Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 12 of 12 (1 FAILED) (0.21 secs / 0.18 secs)',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Karma',
    from: 'https://github.com/karma-runner/karma/blob/master/lib/reporters/base.js',
    line: 'TOTAL: 1 FAILED, 11 SUCCESS',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Python unittest',
    // pip's resolver, not a test: it keeps its own category.
    from: 'https://github.com/python/cpython/blob/main/Lib/unittest/runner.py',
    line: 'ERROR: test_parse (test_config.ConfigTest.test_parse)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Python unittest',
    from: 'https://github.com/python/cpython/blob/main/Lib/unittest/runner.py',
    line: 'ERROR: test_parse (test_config.ConfigTest)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Python unittest',
    from: 'https://github.com/python/cpython/blob/main/Lib/unittest/runner.py',
    line: 'FAIL: test_render (test_config.ConfigTest.test_render) (case=2)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Python unittest',
    from: 'https://github.com/python/cpython/blob/main/Lib/unittest/runner.py',
    line: 'FAILED (failures=1, errors=2)',
    rule: 'test-runners/failure-or-assertion',
    category: 'test_failure',
  },
  {
    what: 'GoogleTest',
    from: 'https://google.github.io/googletest/primer.html',
    line: '[  FAILED  ] RingTest.Wraps (0 ms)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'GoogleTest',
    from: 'https://google.github.io/googletest/primer.html',
    line: '[  FAILED  ] 1 test, listed below:',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'GoogleTest',
    from: 'https://google.github.io/googletest/primer.html',
    line: '/home/u/netcalc/test/ring_test.cpp:14: Failure',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'hspec',
    from: 'https://github.com/hspec/hspec/blob/main/hspec-core/src/Test/Hspec/Core/Formatters/V2.hs',
    line: '1 example, 1 failure',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'hspec',
    from: 'https://github.com/hspec/hspec/blob/main/hspec-core/src/Test/Hspec/Core/Formatters/V2.hs',
    line: '    reverses a list FAILED [1]',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Jasmine',
    from: 'https://github.com/jasmine/jasmine-npm/blob/main/lib/reporters/console_reporter.js',
    line: '3 specs, 1 failure',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'RSpec heading above the rerun lines',
    from: 'https://rspec.info/features/3-12/rspec-core/command-line/',
    line: 'Failed examples:',
    rule: 'test-runners/failed-tests-heading',
    category: 'test_failure',
    kind: 'summary-header',
  },
  {
    what: 'ScalaTest and sbt',
    from: 'https://www.scalatest.org/user_guide/using_scalatest_with_sbt',
    line: '[info] - should equal 2 *** FAILED *** (52 milliseconds)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'ScalaTest and sbt',
    from: 'https://www.scalatest.org/user_guide/using_scalatest_with_sbt',
    line: '[info] *** 9 TESTS FAILED ***',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'ScalaTest and sbt',
    from: 'https://www.scalatest.org/user_guide/using_scalatest_with_sbt',
    line: '[error] Failed tests:',
    rule: 'test-runners/failed-tests-heading',
    category: 'test_failure',
    kind: 'summary-header',
  },
  {
    what: 'ScalaTest and sbt',
    from: 'https://www.scalatest.org/user_guide/using_scalatest_with_sbt',
    line: '[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Dart test (expanded reporter)',
    // A file that failed to load is followed by the compiler's error, which names the cause.
    from: 'https://github.com/dart-lang/test/blob/master/pkgs/test_core/lib/src/runner/reporter/expanded.dart',
    line: '00:01 +0 -1: test/slug_test.dart: accents [E]',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Dart test (expanded reporter)',
    from: 'https://github.com/dart-lang/test/blob/master/pkgs/test_core/lib/src/runner/reporter/expanded.dart',
    line: '00:02 +3 -1: Some tests failed.',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Deno test',
    from: 'https://github.com/denoland/deno/blob/main/tests/testdata/test/fail.out',
    line: 'test 0 ... FAILED (2ms)',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Deno test',
    from: 'https://github.com/denoland/deno/blob/main/tests/testdata/test/fail.out',
    line: 'error: Test failed',
    rule: 'script/generic-error',
    categoryRule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Boost.Test',
    from: 'https://www.boost.org/doc/libs/release/libs/test/doc/html/boost_test/testing_tools.html',
    line: 'test1.cpp(8): error: in "test_case1": check a == b has failed',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Boost.Test',
    from: 'https://www.boost.org/doc/libs/release/libs/test/doc/html/boost_test/testing_tools.html',
    line: '*** 1 failure is detected in the test module "simple test1"',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Catch2',
    from: 'https://github.com/catchorg/Catch2/blob/devel/docs/tutorial.md',
    line: '/home/u/src/test_factorial.cpp:12: FAILED:',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'Catch2',
    from: 'https://github.com/catchorg/Catch2/blob/devel/docs/tutorial.md',
    line: 'test cases: 2 | 1 passed | 1 failed',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: 'Julia Test',
    from: 'https://docs.julialang.org/en/v1/stdlib/Test/',
    line: 'Test Failed at /home/u/Pkg/test/runtests.jl:12',
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'testthat',
    from: 'https://testthat.r-lib.org/reference/test_dir.html',
    line: "── Failure ('test-parse.R:12:3'): parses dates ──────────────────",
    rule: 'test-runners/runner-verdict',
    category: 'test_failure',
  },
  {
    what: 'testthat',
    from: 'https://testthat.r-lib.org/reference/test_dir.html',
    line: '[ FAIL 1 | WARN 0 | SKIP 0 | PASS 12 ]',
    rule: 'test-runners/failure-count',
    category: 'test_failure',
  },
  {
    what: "Maven Surefire's failure summary heading (its category is the generic `[ERROR]` line's: the generic rule comes first)",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/commonslang_2089/fail.log',
    line: '[ERROR] Failures: ',
    rule: 'test-runners/surefire-summary',
    categoryRule: 'script/generic-error',
    category: 'script_error',
    kind: 'summary-header',
  },
  {
    what: "pytest's header over one failing test's report",
    from: 'https://github.com/okken/pytest-check/pull/150',
    line: '_________________________________ test_message _________________________________',
    rule: 'test-runners/summary-header',
    kind: 'summary-header',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: "an sbt test plugin's verdict under GoCD's timestamps (TextTest characterisation tests)",
    from: 'https://github.com/magnus-lycka/gocddash/blob/c1004135dc66b0d8394d6025750b94e12650ab36/test/test_characterize_console_parser.py',
    line: '08:27:48.492 java.lang.RuntimeException: There were test failures',
    rule: 'test-runners/test-task-failed',
    category: 'test_failure',
  },
  {
    what: "Rust libtest's failing-test list",
    from: 'https://github.com/ThanhNguyxn/vietflux-ime/blob/2a2bc30be5bab9b6f88315a3a615f06cc40e1ace/ci_failure.log',
    line: '📊 Coverage\tRun coverage\t2025-12-21T13:06:32.8391523Z test chars::tests::test_with_tone ... FAILED',
    rule: 'test-runners/failed-test-list',
    category: 'test_failure',
  },
  {
    what: 'a Rust panic with the thread id and the message on the next line (Rust 1.8x+)',
    from: 'https://github.com/ThanhNguyxn/vietflux-ime/blob/2a2bc30be5bab9b6f88315a3a615f06cc40e1ace/ci_failure.log',
    line: "📊 Coverage\tRun coverage\t2025-12-21T13:06:32.8574658Z thread 'chars::tests::test_with_tone' (6182) panicked at src/chars.rs:217:9:",
    rule: 'test-runners/failure-or-assertion',
    category: 'test_failure',
  },
  {
    what: 'AddressSanitizer summary behind Taskcluster and mozharness prefixes',
    from: 'https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/asan_too_large.log.gz',
    line: '[task 2025-02-13T22:10:09.075Z] 22:10:09     INFO - PID 16211 | SUMMARY: AddressSanitizer: heap-use-after-free /builds/worker/workspace/obj-build/dist/include/nsISupportsImpl.h:388:19 in operator++',
    rule: 'test-runners/harness-or-sanitizer',
    category: 'test_failure',
  },
  {
    what: 'Mozilla TEST-UNEXPECTED-FAIL',
    from: 'https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/reftest-fail.log.gz',
    line: '[task 2025-02-13T21:27:46.822Z] 21:27:46     INFO - REFTEST TEST-UNEXPECTED-FAIL | layout/reftests/bugs/1804872-2.html == layout/reftests/bugs/1804872-2-ref.html | image comparison, max difference: 255, number of differing pixels: 22456',
    rule: 'test-runners/harness-or-sanitizer',
    category: 'test_failure',
  },
  {
    what: 'Gradle `Class > test() FAILED` behind a GitHub Actions timestamp',
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/cidiff_57/fail.log',
    line: '2022-05-30T09:11:02.8576680Z ConsoleClientTest > testClassicParsing() FAILED',
    rule: 'test-runners/failed-test-line',
    category: 'test_failure',
  },
  {
    what: "'gh run view --log' job and step columns",
    from: 'https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/cidiff_11/fail.log',
    line: 'build-test-deploy\tbuild cidiff\t2021-12-01T13:01:04.3807878Z LogDifferTest > testGithubParsing() FAILED',
    rule: 'test-runners/failed-test-line',
    category: 'test_failure',
  },
  {
    what: 'TAP/prove: a test script that failed',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C/git%40git/failed/565956904.log',
    line: '[12:45:05] t9502-gitweb-standalone-parse-output.sh ............ Dubious, test returned 1 (wstat 256, 0x100)',
    rule: 'test-runners/failed-test-line',
    category: 'test_failure',
  },
  {
    what: 'PHPUnit numbered failure',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/PHP/bcit-ci%40CodeIgniter/failed/507107253.log',
    line: '1) Form_validation_test::test_rule_valid_date',
    rule: 'test-runners/failed-test-line',
    category: 'test_failure',
  },
  {
    what: 'minitest failing test',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Ruby/rails%40rails/failed/517085282.log',
    line: 'DescendantsTrackerWithAutoloadingTest#test_descendants_with_garbage_collected_classes [/home/travis/build/rails/rails/activesupport/test/descendants_tracker_test_cases.rb:36]:',
    rule: 'test-runners/minitest-test-name',
    category: 'test_failure',
  },
  {
    what: 'CTest summary',
    from: 'https://github.com/openSUSE/logdetective-obs/blob/9eb4d5b7a0029f09f53624626582fda906ac5b12/logs/openSUSE%3AFactory/oqs-provider_standard_x86_64.log',
    line: '[   10s] 0% tests passed, 6 tests failed out of 6',
    rule: 'test-runners/failed-count',
    category: 'test_failure',
  },
  {
    what: 'RSpec failure',
    from: 'https://rspec.info/features/3-13/rspec-core/command-line/only-failures/',
    line: '     Failure/Error: expect(user).to be_valid',
    rule: 'test-runners/rspec-dotnet-bazel',
    category: 'test_failure',
  },
  {
    what: "RSpec's eq matcher: the actual value under `expected:`",
    from: 'https://github.com/rspec/rspec-expectations/blob/main/lib/rspec/matchers/built_in/eq.rb',
    line: '            got: 19',
    rule: 'test-runners/failure-or-assertion',
    category: 'test_failure',
  },
  {
    what: 'dotnet test failed test',
    from: 'https://learn.microsoft.com/dotnet/core/tools/dotnet-test',
    line: '  Failed Contoso.Tests.CartTests.AddsItem [12 ms]',
    rule: 'test-runners/rspec-dotnet-bazel',
    category: 'test_failure',
  },
  {
    what: 'Bazel test summary',
    from: 'https://bazel.build/reference/test-encyclopedia',
    line: '//src/cart:cart_test                                                     FAILED in 3.2s',
    rule: 'test-runners/rspec-dotnet-bazel',
    category: 'test_failure',
  },
  {
    what: 'Maven surefire `<<< FAILURE!` verdict',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/github-cacher/tests/data/integration-test/orig-logs/8267344544.log',
    line: '2022-09-09T09:38:33.9588168Z [ERROR] Tests run: 7, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.215 s <<< FAILURE! - in com.alibaba.ttl3.kotlin.TtlExtensionsTests',
    rule: 'test-runners/surefire-pester-tap',
    category: 'test_failure',
  },
  {
    what: "Pester's failed test `[-]`",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/PowerShell/pester%40Pester/failed/555401304.log',
    line: '\u001b[39;49m\u001b[31m\u001b[39;49m\u001b[31m[-] - Running without any params runs all files from the local folder -> Expected and actual values differ!',
    rule: 'test-runners/surefire-pester-tap',
    category: 'test_failure',
  },
  {
    what: 'a test that crashed Python (pytest)',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2512083654-orig.log',
    line: '2022-06-16T23:47:04.9311419Z spyder/app/tests/test_mainwindow.py::test_varexp_rename Fatal Python error: Segmentation fault',
    rule: 'test-runners/test-crashed',
    category: 'test_failure',
  },
  {
    what: "Ant's junit verdict",
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/ant/2420748513-orig.log',
    line: '2022-06-01T10:03:40.6806451Z /home/runner/work/CACAO2022/CACAO2022/build.xml:86: Test abstraction.FiliereParDefaultTest failed',
    rule: 'test-runners/test-crashed',
    category: 'test_failure',
  },
  {
    what: "a test runner's result table (`| ✖ Failed |`)",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%2B%2B/bitcoin%40bitcoin/failed/567204447.log',
    line: '\u001b[0m\u001b[0;31mfeature_segwit.py                      | ✖ Failed  | 12 s',
    rule: 'test-runners/test-crashed',
    category: 'test_failure',
  },
  {
    what: "mocha's own test timeout",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/CoffeeScript/Atom%40atom/failed/544909524.log',
    line: '     Error: timeout of 10000ms exceeded. Ensure the done() callback is being called in this test.',
    rule: 'test-runners/test-timeout',
    category: 'test_failure',
  },
];

/** Lines like these failures that are not one: warnings, echoed commands, passing runs. */
const LOOKALIKES: Lookalike[] = [
  // Surefire's and TextTest's summaries of a passing run.
  {
    what: 'passing test summary',
    line: '[INFO] Tests run: 35, Failures: 0, Errors: 0, Skipped: 1',
    not: 'test_failure',
  },
  {
    what: 'passing TextTest summary',
    line: 'Tests Run: 13, Failures: 0',
    not: 'test_failure',
  },
  // A coverage report task failing is not a failing test.
  {
    what: 'coverage report task',
    line: "Execution failed for task ':app:jacocoTestReport'.",
    not: 'test_failure',
  },
  {
    what: 'PHPUnit summary: a passing run',
    line: 'OK (12 tests, 30 assertions)',
    not: 'test_failure',
  },
  {
    what: 'PHPUnit summary: a passing run',
    line: 'OK, but some tests were skipped!',
    not: 'test_failure',
  },
  {
    what: 'PHPUnit summary: a passing run',
    line: 'Tests: 12, Assertions: 30, Skipped: 1.',
    not: 'test_failure',
  },
  {
    what: 'dotnet test / VSTest and Microsoft.Testing.Platform summaries: a passing run',
    line: 'Passed!  - Failed:     0, Passed:    13, Skipped:     0, Total:    13, Duration: 40 ms - Markdig.Tests.dll (net9.0)',
    not: 'test_failure',
  },
  {
    what: 'dotnet test / VSTest and Microsoft.Testing.Platform summaries: a passing run',
    line: 'Test Run Successful.',
    not: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading: a passing run',
    line: '100% tests passed, 0 tests failed out of 11',
    not: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading: a passing run',
    line: '2/2 Test #2: parse_error ......................   Passed    0.00 sec',
    not: 'test_failure',
  },
  {
    what: 'CTest verdicts, failed-test list and its heading: a passing run',
    line: '      Start  1: ring_wraps',
    not: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines): a passing run',
    line: "Test Case '-[AppTests.AppTests testLogin]' passed (0.003 seconds).",
    not: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines): a passing run',
    line: "Test Suite 'All tests' passed at 2024-05-01 10:00:00.123",
    not: 'test_failure',
  },
  {
    what: 'XCTest (xcodebuild and swift-corelibs-xctest print the same lines): a passing run',
    line: '\t Executed 3 tests, with 0 failures (0 unexpected) in 0.003 (0.004) seconds',
    not: 'test_failure',
  },
  {
    what: 'swift-testing: a passing run',
    line: '✔ Test one() passed after 0.001 seconds.',
    not: 'test_failure',
  },
  {
    what: 'swift-testing: a passing run',
    line: '✔ Test run with 9 tests passed after 0.004 seconds.',
    not: 'test_failure',
  },
  {
    what: 'Playwright list and line reporters: a passing run',
    line: '  ✓  2 [chromium] › tests/example.spec.ts:8:5 › get started link (1.2s)',
    not: 'test_failure',
  },
  {
    what: 'Playwright list and line reporters: a passing run',
    line: '  2 passed (3.4s)',
    not: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages: a passing run',
    line: '      5 |   expect(sum(1, 2)).toBe(3);',
    not: 'test_failure',
  },
  {
    what: 'Jest, Playwright and XCTest assertion messages: a passing run',
    line: '+ npx jest --ci',
    not: 'test_failure',
  },
  {
    what: 'Vitest default reporter: a passing run',
    line: ' ✓ src/cart.test.ts (3 tests) 5ms',
    not: 'test_failure',
  },
  {
    what: 'Vitest default reporter: a passing run',
    line: ' ✓ src/cart.test.ts (4 tests | 1 skipped) 5ms',
    not: 'test_failure',
  },
  {
    what: 'Vitest default reporter: a passing run',
    line: '      Tests  3 passed (3)',
    not: 'test_failure',
  },
  {
    what: 'NUnit console summary: a passing run',
    line: '  Test Count: 12, Passed: 12, Failed: 0, Warnings: 0, Inconclusive: 0, Skipped: 0',
    not: 'test_failure',
  },
  {
    what: 'NUnit console summary: a passing run',
    line: '    Failed Tests - Failures: 0, Errors: 0, Invalid: 0',
    not: 'test_failure',
  },
  {
    what: 'Karma: a passing run',
    line: 'Chrome Headless 120.0.6099.109 (Linux x86_64): Executed 12 of 12 SUCCESS (0.21 secs / 0.18 secs)',
    not: 'test_failure',
  },
  { what: 'Karma: a passing run', line: 'TOTAL: 12 SUCCESS', not: 'test_failure' },
  { what: 'Python unittest: a passing run', line: 'Ran 12 tests in 0.512s', not: 'test_failure' },
  { what: 'Python unittest: a passing run', line: 'OK (skipped=2)', not: 'test_failure' },
  {
    what: 'Python unittest: a passing run',
    line: '+ python -m unittest discover -s tests -v',
    not: 'test_failure',
  },
  {
    what: 'Python unittest: a passing run',
    line: 'ERROR: Could not find a version that satisfies the requirement foo (from versions: none)',
    not: 'test_failure',
  },
  { what: 'GoogleTest: a passing run', line: '[  PASSED  ] 3 tests.', not: 'test_failure' },
  {
    what: 'GoogleTest: a passing run',
    line: '[       OK ] RingTest.Wraps (0 ms)',
    not: 'test_failure',
  },
  { what: 'hspec: a passing run', line: '12 examples, 0 failures', not: 'test_failure' },
  { what: 'hspec: a passing run', line: '12 examples, 0 failures, 2 pending', not: 'test_failure' },
  { what: 'Jasmine: a passing run', line: '3 specs, 0 failures', not: 'test_failure' },
  { what: 'Jasmine: a passing run', line: 'Ran 3 of 5 specs', not: 'test_failure' },
  {
    what: 'RSpec heading above the rerun lines: a passing run',
    line: '12 examples, 0 failures',
    not: 'test_failure',
  },
  {
    what: 'RSpec heading above the rerun lines: a passing run',
    line: 'Finished in 0.1 seconds (files took 0.2 seconds to load)',
    not: 'test_failure',
  },
  {
    what: 'ScalaTest and sbt: a passing run',
    line: '[info] Tests: succeeded 3, failed 0, canceled 0, ignored 0, pending 0',
    not: 'test_failure',
  },
  {
    what: 'ScalaTest and sbt: a passing run',
    line: '[info] All tests passed.',
    not: 'test_failure',
  },
  {
    what: 'Dart test (expanded reporter): a passing run',
    line: '00:02 +4: All tests passed!',
    not: 'test_failure',
  },
  {
    what: 'Dart test (expanded reporter): a passing run',
    line: '00:00 +0 -1: loading test/slug_test.dart [E]',
    not: 'test_failure',
  },
  { what: 'Deno test: a passing run', line: 'test 8 ... ok (2ms)', not: 'test_failure' },
  {
    what: 'Deno test: a passing run',
    line: 'ok | 10 passed | 0 failed (12ms)',
    not: 'test_failure',
  },
  { what: 'Boost.Test: a passing run', line: '*** No errors detected', not: 'test_failure' },
  {
    what: 'Catch2: a passing run',
    line: 'All tests passed (3 assertions in 1 test case)',
    not: 'test_failure',
  },
  {
    what: 'Julia Test: a passing run',
    line: 'Test Summary: | Pass  Total  Time',
    not: 'test_failure',
  },
  { what: 'Julia Test: a passing run', line: 'Test Passed', not: 'test_failure' },
  {
    what: 'testthat: a passing run',
    line: '[ FAIL 0 | WARN 1 | SKIP 0 | PASS 12 ]',
    not: 'test_failure',
  },
];

describe('test-runners rules', () => {
  itClassifiesFamilyLines(testRunnersFamily, {
    documented: DOCUMENTED,
    quoted: QUOTED,
    lookalikes: LOOKALIKES,
  });
});

describe('test-runners: lines', () => {
  it('reads a pytest failure header and a Maven failure summary as the start of a failing block', () => {
    // pytest: https://github.com/okken/pytest-check/pull/150 (its example output)
    expect(
      classifyLine(
        '_________________________________ test_message _________________________________',
      ),
    ).toMatchObject({ kind: 'summary-header' });
    // Maven surefire: https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/commonslang_2089/fail.log
    const maven = distillLog(
      [
        '[INFO] ',
        '[ERROR] Failures: ',
        '[ERROR]   DurationUtilsTest.testOfConsumer:84->lambda$testOfConsumer$1:84 expected: <true> but was: <false>',
        '[INFO] ',
      ].join('\n'),
    );
    expect(classifyLine('[ERROR] Failures: ')).toMatchObject({ kind: 'summary-header' });
    expect(maven.text).toContain('DurationUtilsTest.testOfConsumer:84');
  });

  it("reads Vite's '✗ Build failed in 41.70s' as the build's verdict, not a failing test", () => {
    // https://vite.dev/guide/build: Vite's summary of a failed `vite build`.
    expect(classifyLine('✗ Build failed in 41.70s').category).not.toBe('test_failure');
    expect(classifyLine('  ✗ applies the discount').category).toBe('test_failure');
  });

  it("does not read Go's short assignment to `expected` as a test's expected value", () => {
    expect(classifyLine('\texpected := fmt.Sprintf("%d", n)').category).not.toBe('test_failure');
  });

  it('does not read the last of a few retries (`5/5 failed`) as a count of failed tests', () => {
    expect(classifyLine('Retry attempt 3/3 failed, giving up').category).not.toBe('test_failure');
    expect(classifyLine('Tests:       2 failed, 85 passed, 87 total').category).toBe(
      'test_failure',
    );
  });

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

describe('test-runners: whole logs through the analyser', () => {
  it("calls gotestsum's failures a test failure", () => {
    // Azure Pipelines log of AgentBaker's end-to-end tests, https://github.com/aadhar-agarwal/AgentBaker/blob/bffe636f817094b20d671f85943b37be3aa971d3/failed.log (MIT).
    const log = [
      '2026-04-09T04:27:36.8170886Z     validators.go:860: [489.721s] 🔴 FAIL: the following systemd units have unexpectedly entered a failed state: [kms.service mig-partition.service]',
      '2026-04-09T04:27:36.8171434Z     panic.go:636: [489.721s] ✗ validating VM failed (29.6s)',
      '2026-04-09T04:27:36.8172687Z     vmss.go:814: [491.795s] vmss "kl0b-2026-04-09-acl" deleted successfully',
      '2026-04-09T04:27:36.8172900Z',
      '2026-04-09T04:27:36.8173413Z DONE 147 tests, 127 skipped, 13 failures in 549.009s',
      '2026-04-09T04:27:37.9425006Z',
      '2026-04-09T04:27:37.9426725Z ##[error]Script failed with exit code: 1',
    ];
    expectDiagnosis(log, 'test_failure');
  });

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
