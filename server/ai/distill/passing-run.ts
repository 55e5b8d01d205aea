/**
 * A test run's verdict that every test passed, in the runners' documented words: VSTest's `Test
 * Run Successful.` and `Passed!  - Failed: 0, …`
 * (https://learn.microsoft.com/dotnet/core/tools/dotnet-test), pytest's `=== 12 passed in 0.5s ===`,
 * Jest's `Tests: 12 passed, 12 total`, PHPUnit's `OK (12 tests, 30 assertions)`, libtest's `test
 * result: ok.`, RSpec's, Minitest's and ExUnit's counts with 0 failures. The assertion-like lines a
 * run printed before such a verdict came from tests that passed (or from logging), not a failure.
 */
export const PASSING_RUN =
  /^\s*Test Run Successful\.\s*$|^\s*Passed!\s+- Failed:\s+0,|^=+ (?:\d+ (?:passed|skipped|deselected|xfailed|xpassed|warnings?)(?:, )?)+ in [\d.]+m?s(?: \([\d:]+\))? =+$|^Tests:\s+(?:\d+ (?:skipped|todo), )*\d+ passed, \d+ total|^OK \(\d+ tests?, \d+ assertions?\)|^test result: ok\. \d+ passed; 0 failed|^\d+ examples?, 0 failures\b|^\d+ runs, \d+ assertions, 0 failures, 0 errors\b|^\d+ (?:tests?|doctests?|properties)(?:, \d+ (?:doctests?|properties))*, 0 failures\b/;
