/**
 * Test runners' verdicts on failing tests, their assertions, counts and failure summaries.
 */
import { defineFamily } from '../rule.ts';

/** Test runners' verdicts on failing tests. */
export const testRunnersFamily = defineFamily({
  name: 'test-runners',
  // prettier-ignore
  hints: [
    'err', 'fail', 'fatal', 'panic', 'exception', 'memory', 'timeout', 'undefined', 'expected',
    'received', 'assert', 'warn', 'what went wrong', 'summary', 'test run', 'tests run',
    'test result', 'failures', 'abort', 'segmentation', 'core dumped', 'unexpected', 'exceeded',
    'crash', '#test_', 'resolv', 'dubious', 'not ok', 'timed out', 'aborted', 'expect(', 'segfault',
    'other_fault', ' [e]', '✕', '✗', '×', '●', /^\s*[eE] {2,}/, /^\s*\d+\) /, /^_{3,} /,
    /^rspec \.\//, /^\s*✘ /, /^\s*\[-\] \S.* \d+(?:\.\d+)?m?s \(\d/, /^DONE \d+ tests?, /,
    /^The following .+ was thrown /,
    // The actual value under an `expected:` line (RSpec's `got:`): no other hint is in it.
    /^\s*(?:actual|got|want)\s*:/,
  ],
  rules: {
    // Mozilla's harness verdicts and sanitizer reports: a test (or the code under it) failed, or
    // hung until the harness killed it (`TEST-UNEXPECTED-TIMEOUT | … | application timed out after
    // 370 seconds with no output`: the harness's limit, not the task's).
    'harness-or-sanitizer': {
      re: /\bTEST-UNEXPECTED-(?:FAIL|PASS|ERROR|CRASH|NOTRUN|TIMEOUT)\b|\bPROCESS-CRASH \||==\d+==ERROR: (?:Address|Leak|Memory|Thread)Sanitizer|\bERROR: (?:Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer\b|^SUMMARY: (?:Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer:|\bruntime error: .*(?:overflow|misaligned|null pointer|out of bounds)/,
      score: 91,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (tests): test runners' own verdicts on a failing test, written from each runner's
    // documented output or the source that prints it, so that logs of runners our corpus lacks are
    // called test failures rather than script errors (or nothing). Python unittest's `ERROR: test_x
    // (pkg.Case.test_x)` (https://github.com/python/cpython/blob/main/Lib/unittest/runner.py),
    // GoogleTest's `[  FAILED  ] Suite.Test` and `file:12: Failure`
    // (https://google.github.io/googletest/primer.html), XCTest's `file:12: error: -[Case testX] :
    // XCTAssertEqual failed` and `Test Case '…' failed (`
    // (https://github.com/swiftlang/swift-corelibs-xctest/blob/main/Sources/XCTest/Private/PrintObserver.swift),
    // swift-testing's `✘ Test x() recorded an issue at`
    // (https://github.com/swiftlang/swift-testing/blob/main/Sources/Testing/Events/Recorder/Event.HumanReadableOutputRecorder.swift),
    // Playwright's list and line reporters `✘  1 [chromium] › a.spec.ts:3:5 › title`, `1)
    // [chromium] › a.spec.ts:3:5 › title ──` (https://playwright.dev/docs/test-reporters), Karma's
    // `<browser> <spec> FAILED`
    // (https://github.com/karma-runner/karma/blob/master/lib/reporters/base.js), Julia's `Test
    // Failed at file.jl:12` (https://docs.julialang.org/en/v1/stdlib/Test/), Catch2's `file.cpp:12:
    // FAILED:` (https://github.com/catchorg/Catch2/blob/devel/docs/tutorial.md), Boost.Test's
    // `file.cpp(8): error: in "case": check … has failed`
    // (https://www.boost.org/doc/libs/release/libs/test/doc/html/boost_test/testing_tools.html) and
    // testthat's `── Failure (test-a.R:12:3): title ──` (https://testthat.r-lib.org/), ScalaTest's
    // `- name *** FAILED ***` (https://www.scalatest.org/user_guide/using_scalatest_with_sbt),
    // Deno's `name ... FAILED (2ms)`
    // (https://github.com/denoland/deno/blob/main/tests/testdata/test/fail.out), Dart's `00:01 +0
    // -1: name [E]` (load failures excepted: a compile error follows them,
    // https://github.com/dart-lang/test/blob/master/pkgs/test_core/lib/src/runner/reporter/expanded.dart)
    // and hspec's `name FAILED [1]`
    // (https://github.com/hspec/hspec/blob/main/hspec-core/src/Test/Hspec/Core/Formatters/V2.hs).
    'runner-verdict': {
      re: /^(?:ERROR|FAIL): \w+ \([\w.]+\)|^\[ {2}FAILED {2}\] |^\S+(?::\d+|\(\d+\)): Failure\s*$|^Test Case '[^']+' failed \(|: error: (?:-\[[\w.]+ test\w*\]|[\w.]+\.test\w*) : |^\s*✘ +(?:\d+ (?:\[[^\]]*\] › )?\S+:\d+:\d+ › |(?:Test|Suite) .* (?:recorded an issue at|failed after) )|^\s*\d+\) (?:\[[^\]]*\] › )?\S+:\d+:\d+ › |^Test Failed at \S+:\d+|^\S+(?::\d+|\(\d+\)): FAILED:\s*$|\(\d+\): (?:fatal )?error: in "[^"]*": |^── (?:Failure|Error) \(|^(?:\[info\] )?- .+ \*\*\* FAILED \*\*\*| \.\.\. FAILED \([\d.]+m?s\)\s*$|^\d\d:\d\d \+\d+(?: ~\d+)?(?: -\d+)?: (?!loading ).* \[E\]\s*$|\S FAILED \[\d+\]\s*$|^\s*(?:Chrome|Chromium|HeadlessChrome|Firefox|Safari|Edge|Electron|Opera|PhantomJS|IE)\b[\w ]* \d+(?:\.\d+)* \([^)]*\) .* FAILED\s*$/,
      score: 89,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (tests): the assertion Jest and Playwright print under a failing test
    // (`expect(received).toBe(expected) // Object.is equality`, https://jestjs.io/docs/expect;
    // `Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)`,
    // https://playwright.dev/docs/test-assertions): a test's own assertion, not a script's timeout.
    // And XCTest's assertion message where a formatter (xcpretty, xcbeautify) dropped the `file:
    // error:` prefix.
    'expect-assertion': {
      re: /\bexpect\((?:received|locator|page|value|jest\.fn\(\)|spy|string)\)\.(?:not\.|resolves\.|rejects\.)*to[A-Z]\w*\(|\bXCT(?:Assert\w*|Unwrap) failed: /,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (tests): CTest's per-test verdict (`1/2 Test #1: name ....***Failed  0.01 sec`,
    // `Subprocess aborted***Exception:`, `***Timeout`) and its list after `The following tests
    // FAILED:` (`\t  1 - name (Failed)`), https://cmake.org/cmake/help/latest/manual/ctest.1.html
    // and https://github.com/Kitware/CMake/blob/master/Source/CTest/cmCTestRunTest.cxx. They only
    // say that a test failed (its output is elsewhere), so they score below the run's `N% tests
    // passed, N tests failed out of M`, which is what a reader quotes; they still vote for a test
    // failure.
    'ctest-verdict': {
      re: /^\s*\d+\/\d+ Test +#\d+: .*\*\*\*(?:Failed|Exception|Timeout)\b|^\s*\d+ - \S+ \((?:Failed|Timeout|SEGFAULT|OTHER_FAULT|BUS_ERROR|Subprocess aborted|Child aborted|Exception)\)\s*$/,
      score: 83,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (tests): run summaries that count failures; each needs a non-zero count, so the
    // same summary of a passing run (`Passed!  - Failed: 0`, `with 0 failures`, `Ran 12 tests`)
    // does not vote. PHPUnit's `FAILURES!` / `ERRORS!` and `Tests: 3, Assertions: 5, Failures: 1.`
    // (https://github.com/sebastianbergmann/phpunit/blob/main/src/TextUI/Output/SummaryPrinter.php),
    // dotnet test / VSTest's `Failed!  - Failed: 1, Passed: …` and `Test Run Failed.`, the testing
    // platform's `Test run summary: Failed!`
    // (https://learn.microsoft.com/dotnet/core/tools/dotnet-test), Karma's `Executed 3 of 3 (1
    // FAILED)` and `TOTAL: 1 FAILED, 2 SUCCESS`, XCTest's `Test Suite 'All tests' failed at` and
    // `Executed 3 tests, with 1 failure (0 unexpected)`, hspec's and Jasmine's `1 example, 1
    // failure` / `3 specs, 1 failure` (hspec's V2.hs above,
    // https://github.com/jasmine/jasmine-npm/blob/main/lib/reporters/console_reporter.js),
    // ScalaTest's `*** 1 TEST FAILED ***` and sbt's `TestsFailedException`
    // (https://www.scalatest.org/user_guide/using_scalatest_with_sbt), Dart's `Some tests failed.`
    // (expanded.dart above), Deno's `error: Test failed` (fail.out above), Boost.Test's `*** 1
    // failure is detected in the test module`, Catch2's `test cases: 2 | 1 passed | 1 failed`,
    // testthat's `[ FAIL 1 | WARN 0 | SKIP 0 | PASS 12 ]`, Vitest's per-file line `❯ src/a.test.ts
    // (3 tests | 1 failed)`
    // (https://github.com/vitest-dev/vitest/blob/main/packages/vitest/src/node/reporters/base.ts)
    // and the NUnit console's `Test Count: 10, Passed: 2, Failed: 4` / `Failed Tests - Failures: 1,
    // Errors: 1` (https://docs.nunit.org/articles/nunit/running-tests/Console-Runner.html).
    'failure-count': {
      re: /^(?:FAILURES|ERRORS)!\s*$|^Tests: \d+, Assertions: \d+, .*\b(?:Errors|Failures): [1-9]|^\s*Failed!\s+- Failed:\s+[1-9]|^Test Run Failed\.\s*$|\bTest run summary: Failed!|\bExecuted \d+ of \d+ \([1-9]\d* FAILED\)|^TOTAL: [1-9]\d* FAILED, \d+ SUCCESS|^Test Suite '[^']+' failed at |\bExecuted \d+ tests?, with [1-9]\d* failures? \(|\b\d+ (?:examples?|specs?), [1-9]\d* failures?\b|\*\*\* [1-9]\d* TESTS? FAILED \*\*\*|\bsbt\.TestsFailedException\b|: Some tests failed\.\s*$|^error: Test failed\s*$|\*\*\* [1-9]\d* failures? (?:is|are) detected in the test module\b|^(?:test cases|assertions):\s+\d+ \|.*\| [1-9]\d* failed\b|\[ FAIL [1-9]\d* \| WARN \d+|\(\d+ tests? \| [1-9]\d* failed(?: \| \d+ skipped)?\)|^\s*Test Count: \d+, Passed: \d+, Failed: [1-9]|\bFailed Tests - Failures: (?:[1-9]|\d+, Errors: [1-9])/,
      score: 84,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (tests): headings runners print only when tests failed, above the list of them:
    // CTest's `The following tests FAILED:`, RSpec's `Failed examples:`
    // (https://rspec.info/features/3-12/rspec-core/command-line/), Maven Surefire 2's and sbt's
    // `Failed tests:` and `Tests in error:`
    // (https://maven.apache.org/surefire/maven-surefire-plugin/). A bare `Failures:` heading stays
    // without a category: many tools print it for other things.
    'failed-tests-heading': {
      re: /^The following tests FAILED:\s*$|^Failed examples:\s*$|^(?:\[error\] )?Failed tests:|^Tests in error:/,
      score: 82,
      kind: 'summary-header',
      category: 'test_failure',
    },
    // A test's own timeout is a test failure, not a job timeout.
    'test-timeout': {
      re: /Timed out retrying|Exceeded timeout of \d+ ?(?:ms|s|seconds?)\b|Timeout of \d+\s?ms exceeded|Timeout \d+\s?ms exceeded|Test timed out|test timed out after/i,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Test runners' verdicts in their own words: gotestsum's summary (`DONE 147 tests, 127 skipped,
    // 13 failures in 549.009s`,
    // https://github.com/gotestyourself/gotestsum/blob/main/testjson/summary.go) and Pester's
    // failed tests and counts (`[-] Remove-BOM finds files 300ms (299ms|1ms)`, `Tests Passed: 10,
    // Failed: 17, Skipped: 0, NotRun: 0`, https://pester.dev/docs/usage/output); Pester 5's
    // failed-test line ends with its timings, which other `[-]` lines (scripts' own markers) lack.
    'gotestsum-or-pester': {
      re: /^DONE \d+ tests?(?:, \d+ skipped)?(?:, [1-9]\d* failures?|, \d+ failures?, [1-9]\d* errors?|, [1-9]\d* errors?) in [\d.]+s$|^\s*\[-\] \S.* \d+(?:\.\d+)?m?s \(\d+(?:\.\d+)?m?s\|\d+(?:\.\d+)?m?s\)$|^Tests Passed: \d+, Failed: [1-9]\d*/,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Flutter's report of an exception in a test (`══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK
    // ╞═══`, then `The following assertion was thrown running a test:` and the message on the next
    // line,
    // https://github.com/flutter/flutter/blob/master/packages/flutter/lib/src/foundation/assertions.dart):
    // the lead-in keeps the message, which has no error word of its own.
    'flutter-exception': {
      re: /\bEXCEPTION CAUGHT BY [A-Z][A-Z ]+[A-Z]\b|^The following .{1,160} was thrown (?:running a test|while [^:]{1,80}|during [^:]{1,80}):$/,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (build): Gradle's test task failing (`> There were failing tests. See the report
    // at:`, https://docs.gradle.org/current/userguide/java_testing.html), in its `What went wrong`
    // block; Maven Surefire's goal failure (`Failed to execute goal
    // …maven-surefire-plugin:3.2.5:test (default-test) on project x: There are test failures.`,
    // https://maven.apache.org/surefire/maven-surefire-plugin/examples/skipping-tests.html) and the
    // `There were test failures` other runners' build plugins throw (sbt's, gulp-mocha's,
    // jmeter-maven's).
    'test-task-failed': {
      re: /\bThere (?:are|were) test failures\b|^\s*(?:> )?There were failing tests\. See the report at\b|Execution failed for task '[^']*:(?!\w*(?:Report|Coverage))(?:test|\w*Test)\w*'/,
      score: 86,
      kind: 'error',
      category: 'test_failure',
    },
    // pytest's short test summary names a test that failed, whatever exception it failed with
    // (`FAILED tests/test_a.py::TestX::test_y - AttributeError: type object 'E' has no attribute
    // 'X'`,
    // https://docs.pytest.org/en/stable/how-to/output.html#producing-a-detailed-summary-report): a
    // test failure, before the compile rules read the exception's words.
    'pytest-short-summary': {
      re: /^FAILED \S+\.py::\S+(?: - |$)/,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Maven surefire's per-class and per-test verdict (`Tests run: 7, Failures: 1, … <<< FAILURE! -
    // in x.FooTest`, `testBar(x.FooTest)  Time elapsed: 0.01 s  <<< ERROR!`), Pester's failed `[-]`
    // and Perl Test::More's diagnostics (`#   Failed test 'x'`, `#          got: 'foo'`).
    'surefire-pester-tap': {
      re: /<<< (?:FAILURE|ERROR)!|^\s*\[-\] \S|^#\s+Failed test\b|^#\s+(?:got|expected): /,
      score: 89,
      kind: 'error',
      category: 'test_failure',
    },
    // A test that crashed the process (pytest's `path::test_x Fatal Python error: Segmentation
    // fault`), Ant's junit task verdict (`build.xml:86: Test x.FooTest failed`) and a test runner's
    // result table (`feature_segwit.py   | ✖ Failed  | 12 s`, bitcoin's functional tests).
    'test-crashed': {
      re: /::test\w* .*(?:Fatal Python error|Segmentation fault|core dumped)|^\S+\.xml:\d+: Test \S+ failed\b|^\S+\s+\|\s*✖ Failed\b/,
      score: 89,
      kind: 'error',
      category: 'test_failure',
    },
    // More test verdicts: RSpec's `Failure/Error:` and `rspec ./spec/x_spec.rb:12 # …` rerun lines,
    // `dotnet test`'s `Failed Name [12 ms]`, xcodebuild's `** TEST FAILED **`, ExUnit's
    // `12 tests, 1 failure`, Bazel's `//pkg:test   FAILED in 3.2s` (or TIMEOUT).
    'rspec-dotnet-bazel': {
      re: /^\s*Failure\/Error: |^rspec \.\/\S+:\d+ # |^\s*Failed [\w.+`<>,-]+(?:\(.*\))? \[[\d.]+ ?m?s\]|\*\* TEST FAILED \*\*|^Testing failed:|\b\d+ (?:tests|examples), [1-9]\d* failures?\b|^\/\/\S+\s+(?:FAILED|TIMEOUT) in \d/,
      score: 89,
      kind: 'error',
      category: 'test_failure',
    },
    // Test verdict lines: Gradle `Class > test() FAILED`, `name FAILED`, xUnit `[FAIL]`, PHPUnit
    // and mocha numbered failures, TAP/prove (`not ok`, `Dubious`), Python logging `(ERROR):`.
    'failed-test-line': {
      re: /^\s*(?!BUILD\b)[\w./:[\]-]+(?: > [^>]+)* FAILED\s*$|\s\[FAIL\]\s*$|^\s*\d+\) [\w\\]+::\w+|^\s*\d+\) \S.*:$|^\s*not ok \d+\b|\bDubious, test returned [1-9]|\bFailed \d+\/\d+ (?:subtests|test programs)|^Result: FAIL\s*$/,
      score: 89,
      kind: 'error',
      category: 'test_failure',
    },
    // Minitest: `Class#test_name [file.rb:36]:` after a `Failure:` or `Error:` header.
    'minitest-test-name': {
      re: /^[\w:]+#test_\S+(?: \[\S+:\d+\])?:?$/,
      score: 89,
      kind: 'error',
      category: 'test_failure',
    },
    // Test counts: decisive, but the verdict lines above them name the failing test.
    'failed-count': {
      re: /\bTests? (?:Suites: )?.*\b\d+ failed\b|\bTests [Rr]un:.*(?:Failures: [1-9]|Errors: [1-9])|\btest result: FAILED|\b\d+ (?:runs|tests), \d+ assertions, (?:[1-9]\d* failures|\d+ failures, [1-9]\d* errors)|(?<!\bline |\bcode |\bstatus |\/)\b[1-9]\d* (?:failed|failing)\b|There (?:was|were) \d+ failures?|\b\d+% tests passed, [1-9]\d* tests? failed out of \d+/,
      score: 84,
      kind: 'error',
      category: 'test_failure',
    },
    // Rust libtest's `test a::b ... FAILED` and Python unittest's `test_x (pkg.Case) ... FAIL` list
    // the failing tests before their details (a panic, a traceback), which say more: scored below
    // them.
    'failed-test-list': {
      re: /^test \S+(?: - should panic)? \.\.\. FAILED$|^\w+ \([\w.]+\) \.\.\. (?:FAIL|ERROR)$/,
      score: 86,
      kind: 'error',
      category: 'test_failure',
    },
    // Tests.
    'failure-or-assertion': {
      re: /^\s*(?:--- FAIL:|FAIL\b|FAILED\b|(?:✕|✗|×)(?!\s*Build failed\b)|●\s)|^(?:FAILED|ERROR) \S+::|\berror: test failed|\bAssertionError\b|\bassert(?:ion)? (?:failed|error)|AssertionFailedError|ComparisonFailure|Expected:? .*(?:but (?:was|got)|received|to (?:equal|be|have))|^\s*(?:Expected|Received|expected|actual|got|want)\s*:(?!=)(?! from [\w.-]+ \()|thread '.*'(?: \(\d+\))? panicked at|^\s*E\s{2,}\S/,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Maven surefire's failure summary: the failing tests are listed below it.
    'surefire-summary': {
      re: /^\[ERROR\] (?:Failures|Errors): ?$|^\[ERROR\] Tests run:.*(?:Failures: [1-9]|Errors: [1-9])/,
      score: 86,
      kind: 'summary-header',
      category: 'test_failure',
    },
    // Test-runner and build-tool summaries: keep the block that follows.
    'summary-header': {
      re: /^\s*(?:\d+\) )?(?:Failure|Error):\s*$|^_* ?ERROR collecting \S+|^_{3,} (?:\w+\.)*[Tt]est\S* _{3,}$|short test summary info|Summary of all failing tests|^\s*\* What went wrong:|^failures:\s*$|^The following tests FAILED:|^Failed tests:|^Tests in error:|^Results\s*:|^=+ FAILURES =+|^=+ ERRORS =+|Failing tests:|^\s*\d+\) |Test Suites: .*failed/,
      score: 82,
      kind: 'summary-header',
    },
  },
});
