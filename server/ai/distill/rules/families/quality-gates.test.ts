import { describe, expect, it } from 'vitest';
import {
  diagnoseLines,
  expectDiagnosis,
  itGivesFamilyAdvice,
} from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type Lookalike, type RuleCase } from '../rule-tester.ts';
import { qualityGatesFamily } from './quality-gates.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: "awesome_bot's verdict",
    from: 'https://github.com/dkhamsing/awesome_bot/blob/master/lib/awesome_bot/cli.rb',
    line: 'Issues :-(',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
    lookalike: 'No issues :-)',
  },
  {
    what: "linkinator's verdict",
    from: 'https://github.com/JustinBeckwith/linkinator',
    line: 'ERROR: Detected 3 broken links. Scanned 120 links in 4.2 seconds.',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
    lookalike: 'OK: Scanned 120 links in 4.2 seconds.',
  },
  {
    what: "HTML-Proofer's verdict",
    from: 'https://github.com/gjtorikian/html-proofer',
    line: 'HTML-Proofer found 2 failures!',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
    lookalike: 'HTML-Proofer finished successfully.',
  },
  // Coverage thresholds: the test run's own gate.
  {
    what: "Jest's coverageThreshold, global",
    from: 'https://github.com/jestjs/jest/blob/main/packages/jest-reporters/src/CoverageReporter.ts',
    line: 'Jest: "global" coverage threshold for lines (80%) not met: 72.5%',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "Jest's coverageThreshold for a path",
    from: 'https://jestjs.io/docs/configuration#coveragethreshold-object',
    line: 'Jest: "./src/api/" coverage threshold for branches (90%) not met: 61.11%',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "Jest's uncovered-count threshold",
    from: 'https://jestjs.io/docs/configuration#coveragethreshold-object',
    line: 'Jest: Uncovered count for lines (12) exceeds global threshold (10)',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "coverage.py's fail_under",
    from: 'https://coverage.readthedocs.io/en/latest/config.html#report-fail-under',
    line: 'Coverage failure: total of 72 is less than fail-under=80',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "pytest-cov's --cov-fail-under",
    from: 'https://pytest-cov.readthedocs.io/en/latest/config.html',
    line: 'FAIL Required test coverage of 80% not reached. Total coverage: 72.50%',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "nyc/c8/Vitest's check-coverage",
    from: 'https://github.com/istanbuljs/nyc#coverage-thresholds',
    line: 'ERROR: Coverage for lines (72.5%) does not meet global threshold (80%)',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "JaCoCo's check rule (Maven prints it as a warning)",
    from: 'https://www.jacoco.org/jacoco/trunk/doc/check-mojo.html',
    line: '[WARNING] Rule violated for bundle app: lines covered ratio is 0.72, but expected minimum is 0.80',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "JaCoCo's check rule in Gradle",
    from: 'https://docs.gradle.org/current/userguide/jacoco_plugin.html#sec:jacoco_report_violation_rules',
    line: '[ant:jacocoReport] Rule violated for bundle workshop: lines covered ratio is 0.6, but expected minimum is 0.8',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "JaCoCo's Maven verdict",
    from: 'https://www.jacoco.org/jacoco/trunk/doc/check-mojo.html',
    line: '[ERROR] Failed to execute goal org.jacoco:jacoco-maven-plugin:0.8.12:check (check) on project app: Coverage checks have not been met. See log for details.',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "Kover's verification rule",
    from: 'https://kotlin.github.io/kotlinx-kover/gradle-plugin/#verification',
    line: 'Rule violated: lines covered percentage is 50.000000, but expected minimum is 80',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "coverlet's MSBuild threshold",
    from: 'https://github.com/coverlet-coverage/coverlet/blob/master/Documentation/MSBuildIntegration.md',
    line: '/src/tests/App.Tests.csproj : error : The total line coverage is below the specified 80 [/src/tests/App.Tests.csproj]',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "SimpleCov's minimum coverage",
    from: 'https://github.com/simplecov-ruby/simplecov#minimum-coverage',
    line: 'Line coverage (79.30%) is below the expected minimum coverage (90.00%).',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "cargo-tarpaulin's --fail-under",
    from: 'https://github.com/xd009642/tarpaulin',
    line: 'Error: "Coverage is below the failure threshold 72.50% < 80.00%"',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  {
    what: "Infection's --min-msi",
    from: 'https://infection.github.io/guide/command-line-options.html#min-msi',
    line: '[ERROR] The minimum required MSI percentage should be 80%, but actual is 72%. Improve your tests!',
    rule: 'quality-gates/coverage-threshold',
    category: 'test_failure',
  },
  // Static analysis that rejected the code.
  {
    what: "SonarQube's quality gate with sonar.qualitygate.wait",
    from: 'https://docs.sonarsource.com/sonarqube-server/latest/analyzing-source-code/ci-integration/overview/',
    line: 'ERROR: QUALITY GATE STATUS: FAILED - View details on https://sonarcloud.io/dashboard?id=app',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "SonarSource's quality-gate action",
    from: 'https://github.com/SonarSource/sonarqube-quality-gate-action',
    line: '✖ Quality Gate has FAILED.',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Jenkins' waitForQualityGate",
    from: 'https://docs.sonarsource.com/sonarqube-server/latest/analyzing-source-code/ci-integration/jenkins-integration/',
    line: 'ERROR: Pipeline aborted due to quality gate failure: ERROR',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "detekt's build verdict",
    from: 'https://detekt.dev/docs/introduction/configurations/#build',
    line: 'Analysis failed with 3 weighted issues.',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "SpotBugs' Maven finding",
    from: 'https://github.com/spotbugs/spotbugs-maven-plugin',
    line: '[ERROR] Medium: Found reliance on default encoding in x.Y.main(String[]): new java.io.FileReader(String) [x.Y] At Y.java:[line 12] DM_DEFAULT_ENCODING',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "PMD's Maven check",
    from: 'https://maven.apache.org/plugins/maven-pmd-plugin/check-mojo.html',
    line: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-pmd-plugin:3.21.0:check (default) on project app: You have 3 PMD violations. For more details see: /src/target/pmd.xml -> [Help 1]',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Checkstyle's Maven check",
    from: 'https://maven.apache.org/plugins/maven-checkstyle-plugin/check-mojo.html',
    line: '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-checkstyle-plugin:3.3.1:check (validate) on project app: You have 1 Checkstyle violation. -> [Help 1]',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Gradle's Checkstyle task",
    from: 'https://docs.gradle.org/current/userguide/checkstyle_plugin.html',
    line: 'Checkstyle rule violations were found. See the report at: file:///src/build/reports/checkstyle/main.html',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "ktlint's finding",
    from: 'https://pinterest.github.io/ktlint/latest/install/cli/',
    line: 'src/main/kotlin/A.kt:12:5: Unexpected blank line(s) before "}" (standard:no-blank-line-before-rbrace)',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Bandit's finding",
    from: 'https://bandit.readthedocs.io/en/latest/start.html',
    line: '>> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True identified, security issue.',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Semgrep's summary",
    from: 'https://semgrep.dev/docs/cli-reference',
    line: 'Ran 120 rules on 40 files: 3 findings.',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "gitleaks' verdict",
    from: 'https://github.com/gitleaks/gitleaks#exit-codes',
    line: '12:00PM WRN leaks found: 1',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Checkov's summary",
    from: 'https://www.checkov.io/2.Basics/CLI%20Command%20Reference.html',
    line: 'Passed checks: 9, Failed checks: 7, Skipped checks: 0',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "Checkov's failed check (not a test's FAILED)",
    from: 'https://www.checkov.io/2.Basics/CLI%20Command%20Reference.html',
    line: '        FAILED for resource: aws_s3_bucket.example',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  {
    what: "tfsec's summary",
    from: 'https://aquasecurity.github.io/tfsec/latest/guides/usage/',
    line: '  5 passed, 9 potential problem(s) detected.',
    rule: 'quality-gates/static-analysis',
    category: 'compile_error',
  },
  // Dependency, security and licence audits.
  {
    what: "yarn 1's audit summary",
    from: 'https://classic.yarnpkg.com/lang/en/docs/cli/audit/',
    line: '3 vulnerabilities found - Packages audited: 100',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "npm audit's report heading",
    from: 'https://docs.npmjs.com/cli/v10/commands/npm-audit',
    line: '# npm audit report',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "pip-audit's summary",
    from: 'https://github.com/pypa/pip-audit',
    line: 'Found 2 known vulnerabilities in 1 package',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "bundler-audit's verdict",
    from: 'https://github.com/rubysec/bundler-audit',
    line: 'Vulnerabilities found!',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "cargo audit's verdict",
    from: 'https://docs.rs/crate/cargo-audit',
    line: 'error: 1 vulnerability found!',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "cargo deny's licence check",
    from: 'https://embarkstudios.github.io/cargo-deny/checks/licenses/diags.html',
    line: 'error[rejected]: failed to satisfy license requirements',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "Trivy's per-target total",
    from: 'https://trivy.dev/latest/docs/configuration/others/#exit-code',
    line: 'Total: 3 (UNKNOWN: 0, LOW: 0, MEDIUM: 0, HIGH: 2, CRITICAL: 1)',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "Grype's --fail-on verdict",
    from: 'https://github.com/anchore/grype#gating-on-severity-of-vulnerabilities',
    line: '    * discovered vulnerabilities at or above the severity threshold',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "Snyk's finding",
    from: 'https://docs.snyk.io/snyk-cli/commands/test',
    line: '✗ High severity vulnerability found in lodash',
    rule: 'test-runners/failure-or-assertion',
    categoryRule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "Snyk's summary",
    from: 'https://docs.snyk.io/snyk-cli/commands/test',
    line: 'Tested 45 dependencies for known issues, found 3 issues, 5 vulnerable paths.',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "OWASP dependency-check's failBuildOnCVSS",
    from: 'https://jeremylong.github.io/DependencyCheck/dependency-check-maven/configuration.html',
    line: "[ERROR] One or more dependencies were identified with vulnerabilities that have a CVSS score greater than or equal to '7.0':",
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "govulncheck's verdict",
    from: 'https://go.dev/doc/tutorial/govulncheck',
    line: 'Your code is affected by 2 vulnerabilities from 1 module.',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "license-checker's --failOn",
    from: 'https://github.com/davglass/license-checker#options',
    line: 'Found license defined by the --failOn flag: "GPL-3.0". Exiting.',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  {
    what: "LicenseFinder's action items",
    from: 'https://github.com/pivotal/LicenseFinder#usage',
    line: 'Dependencies that need approval:',
    rule: 'quality-gates/dependency-audit',
    category: 'compile_error',
  },
  // Size and performance budgets.
  {
    what: "webpack's performance hints as errors",
    from: 'https://webpack.js.org/configuration/performance/#performancehints',
    line: 'ERROR in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).',
    rule: 'quality-gates/bundle-budget',
    category: 'compile_error',
  },
  {
    what: "Angular's budgets",
    from: 'https://angular.dev/tools/cli/build#configuring-size-budgets',
    line: '✘ [ERROR] bundle initial exceeded maximum budget. Budget 500.00 kB was not met by 1.23 MB with a total of 1.73 MB.',
    rule: 'quality-gates/bundle-budget',
    category: 'compile_error',
  },
  {
    what: "size-limit's verdict (the project's check script, as the corpus files it)",
    from: 'https://github.com/ai/size-limit',
    line: 'Package size limit has exceeded by 2.1 kB',
    rule: 'quality-gates/size-limit',
    category: 'script_error',
  },
  {
    what: "bundlesize's verdict (not a test's FAIL)",
    from: 'https://github.com/siddharthkp/bundlesize',
    line: 'FAIL ./dist/app.js: 12KB > maxSize 10KB (gzip)',
    rule: 'quality-gates/size-limit',
    category: 'script_error',
  },
  {
    what: "Lighthouse CI's failed assertion",
    from: 'https://github.com/GoogleChrome/lighthouse-ci/blob/main/docs/configuration.md#assert',
    line: '  ✘  categories.performance failure for minScore assertion',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
  },
  {
    what: "Lighthouse CI's verdict",
    from: 'https://github.com/GoogleChrome/lighthouse-ci/blob/main/docs/configuration.md#assert',
    line: 'Assertion failed. Exiting with status code 1.',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
  },
  {
    what: "markdown-link-check's dead links (a link checker, as the corpus files one)",
    from: 'https://github.com/tcort/markdown-link-check',
    line: 'ERROR: 2 dead links found!',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
  },
  {
    what: "lychee's verdict",
    from: 'https://lychee.cli.rs/troubleshooting/',
    line: 'Issues found in 1 input. Find details below.',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
  },
  {
    what: "lychee's rejected link",
    from: 'https://lychee.cli.rs/troubleshooting/',
    line: '[404] https://opentelemetry.io/no-such-page/ (at 3:10) | Rejected status code: 404 Not Found',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
  },
  {
    what: "lychee's failed link (not a generic [ERROR])",
    from: 'https://lychee.cli.rs/troubleshooting/',
    line: '[ERROR] https://example.invalid/broken-link (at 3:6) | Not found',
    rule: 'quality-gates/site-and-link-checks',
    category: 'test_failure',
  },
  // Checks on the repository's text, and hooks.
  {
    what: "commitlint's verdict",
    from: 'https://commitlint.js.org/reference/cli.html',
    line: '✖   found 1 problems, 0 warnings',
    rule: 'quality-gates/text-checks',
    category: 'compile_error',
  },
  {
    what: "codespell's finding",
    from: 'https://github.com/codespell-project/codespell',
    line: './README.md:12: teh ==> the',
    rule: 'quality-gates/text-checks',
    category: 'compile_error',
  },
  {
    what: "cspell's finding",
    from: 'https://cspell.org/docs/command-line/',
    line: 'src/a.ts:12:5 - Unknown word (teh)',
    rule: 'quality-gates/text-checks',
    category: 'compile_error',
  },
  {
    what: "cspell's summary",
    from: 'https://cspell.org/docs/command-line/',
    line: 'CSpell: Files checked: 10, Issues found: 2 in 2 files.',
    rule: 'quality-gates/text-checks',
    category: 'compile_error',
  },
  {
    what: "pre-commit's failed hook",
    from: 'https://pre-commit.com/#usage',
    line: 'black....................................................................Failed',
    rule: 'quality-gates/text-checks',
    category: 'compile_error',
  },
];

/** Lines like these failures that are not one: warnings, echoed commands, passing runs. */
const LOOKALIKES: Lookalike[] = [
  // Passing verdicts of the same tools.
  { what: 'JaCoCo pass', line: '[INFO] All coverage checks have been met.', not: 'test_failure' },
  {
    what: 'clean yarn audit',
    line: '0 vulnerabilities found - Packages audited: 975',
    not: 'compile_error',
  },
  {
    what: 'clean Trivy total',
    line: 'Total: 0 (UNKNOWN: 0, LOW: 0, MEDIUM: 0, HIGH: 0, CRITICAL: 0)',
    not: 'script_error',
  },
  {
    what: 'clean govulncheck',
    line: 'Your code is affected by 0 vulnerabilities.',
    not: 'compile_error',
  },
  { what: 'clean commitlint', line: '✖   found 0 problems, 0 warnings', not: 'compile_error' },
  {
    what: 'passing pre-commit hook',
    line: 'black....................................................................Passed',
    not: 'compile_error',
  },
  {
    what: 'skipped pre-commit hook',
    line: 'mypy.................................................(no files to check)Skipped',
    not: 'compile_error',
  },
  {
    what: 'passing quality gate',
    line: 'QUALITY GATE STATUS: PASSED - View details on https://sonarcloud.io/dashboard?id=app',
    not: 'compile_error',
  },
  {
    what: 'clean Semgrep run',
    line: 'Ran 120 rules on 40 files: 0 findings.',
    not: 'compile_error',
  },
  { what: 'clean gitleaks run', line: '12:00PM INF no leaks found', not: 'compile_error' },
  {
    what: 'JaCoCo rule met',
    line: "[INFO] Analyzed bundle 'app' with 14 classes",
    not: 'test_failure',
  },
  {
    what: 'clean Checkov run',
    line: 'Passed checks: 21, Failed checks: 0, Skipped checks: 0',
    not: 'compile_error',
  },
  {
    what: 'Checkov passed check',
    line: '        PASSED for resource: aws.default',
    not: 'compile_error',
  },
  // Warnings that fail nothing.
  {
    what: 'webpack size hint as a warning',
    line: 'WARNING in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).',
    not: 'compile_error',
  },
  {
    what: 'Angular budget warning',
    line: 'Warning: bundle initial exceeded maximum budget. Budget 500.00 kB was not met by 12.00 kB with a total of 512.00 kB.',
    not: 'compile_error',
  },
  {
    what: 'Lighthouse CI warning',
    line: '  ⚠️  uses-long-cache-ttl warning for maxLength assertion',
    not: 'test_failure',
  },
  // npm install's audit summary, printed in passing jobs too.
  {
    what: "npm install's audit summary",
    line: '11 vulnerabilities (3 moderate, 8 high)',
    not: 'compile_error',
  },
  // Echoed commands.
  { what: 'echoed npm audit', line: '+ npm audit --audit-level=high', not: 'compile_error' },
  {
    what: 'echoed pytest with a threshold',
    line: '$ pytest --cov=app --cov-fail-under=80',
    not: 'test_failure',
  },
];

describe('quality-gates rules', () => {
  itClassifiesFamilyLines(qualityGatesFamily, { documented: DOCUMENTED, lookalikes: LOOKALIKES });
});

describe('quality-gates advice', () => {
  itGivesFamilyAdvice(qualityGatesFamily, DOCUMENTED, [
    { advice: 'quality-gates/coverage-below-threshold', what: "Jest's coverageThreshold, global" },
    {
      advice: 'quality-gates/quality-gate-failed',
      what: "SonarQube's quality gate with sonar.qualitygate.wait",
    },
    { advice: 'quality-gates/vulnerable-dependencies', what: "yarn 1's audit summary" },
    { advice: 'quality-gates/over-budget', what: "Angular's budgets" },
  ]);
});

describe('quality-gates: whole logs through the analyser', () => {
  it("calls awesome_bot's broken links a failing check, not the job's network", () => {
    // Travis CI log of vsouza/awesome-ios, kept in https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Swift/vsouza%40awesome-ios/failed/557856885.log
    // (corpus log travis-awesome-ios-awesome-bot-links): the links it lists failed to connect, the job did not.
    const log = [
      '$ awesome_bot README.md --allow-ssl --white-list $allowed_dupes,$allowed_redirects',
      '> Checking links in README.md',
      'Checking URLs: ✓✓✓✓✓✓→✓✓✓✓✓✓✓✓x✓✓✓✓✓✓✓✓',
      '',
      'Issues :-(',
      '> Links ',
      '  01. [L0410] 301 https://github.com/CoreCharts/CoreCharts  → https://github.com/cagricolak/CoreCharts ',
      '  06. [L1622] 404 https://www.goprimer.com  ',
      '  11. [L3303]  https://mobilecouch.co/ Failed to open TCP connection to mobilecouch.co:443 (getaddrinfo: Temporary failure in name resolution) ',
      '  23. [L3034]  https://swift.sandbox.bluemix.net Failed to open TCP connection to swift.sandbox.bluemix.net:443 (Connection refused) ',
      '> Dupes ',
      '  None ✓',
      '',
      'Wrote results to ab-results-README.md.json',
      'The command "awesome_bot README.md --allow-ssl --white-list $allowed_dupes,$allowed_redirects" exited with 1.',
      '',
      'Done. Your build exited with 1.',
    ];
    expectDiagnosis(log, 'test_failure', 'Issues :-(');
  });

  it('calls a Maven build stopped by a JaCoCo coverage rule a test failure', () => {
    // jacoco:check with a failing rule (https://www.jacoco.org/jacoco/trunk/doc/check-mojo.html):
    // Maven prints the rule as a warning, then the goal's failure.
    const log = [
      '$ mvn -B verify',
      '[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0',
      '[INFO] --- jacoco-maven-plugin:0.8.12:check (check) @ app ---',
      '[INFO] Loading execution data file /builds/app/target/jacoco.exec',
      "[INFO] Analyzed bundle 'app' with 14 classes",
      '[WARNING] Rule violated for bundle app: lines covered ratio is 0.72, but expected minimum is 0.80',
      '[INFO] ------------------------------------------------------------------------',
      '[INFO] BUILD FAILURE',
      '[INFO] ------------------------------------------------------------------------',
      '[ERROR] Failed to execute goal org.jacoco:jacoco-maven-plugin:0.8.12:check (check) on project app: Coverage checks have not been met. See log for details.',
      '[ERROR] -> [Help 1]',
      'ERROR: Job failed: exit code 1',
    ];
    const d = diagnoseLines(log);
    expect(d.category).toBe('test_failure');
    expect(d.evidence.map((e) => e.message).join('\n')).toContain('lines covered ratio is 0.72');
  });

  it('calls a Maven build stopped by the SonarQube quality gate a compile error, not a script error', () => {
    // sonar-maven-plugin with -Dsonar.qualitygate.wait=true
    // (https://docs.sonarsource.com/sonarqube-server/latest/analyzing-source-code/scanners/sonarscanner-for-maven/).
    const log = [
      '$ mvn -B verify sonar:sonar -Dsonar.qualitygate.wait=true',
      '[INFO] --- sonar-maven-plugin:3.9.1.2184:sonar (default-cli) @ app ---',
      '[INFO] ANALYSIS SUCCESSFUL, you can find the results at: https://sonarcloud.io/dashboard?id=app',
      '[INFO] ------------- Check Quality Gate status',
      '[INFO] Waiting for the analysis report to be processed (max 300s)',
      '[INFO] ------------------------------------------------------------------------',
      '[INFO] BUILD FAILURE',
      '[INFO] ------------------------------------------------------------------------',
      '[ERROR] Failed to execute goal org.sonarsource.scanner.maven:sonar-maven-plugin:3.9.1.2184:sonar (default-cli) on project app: QUALITY GATE STATUS: FAILED - View details on https://sonarcloud.io/dashboard?id=app -> [Help 1]',
      '[ERROR] ',
      '[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.',
    ];
    expectDiagnosis(log, 'compile_error');
  });

  it('calls a Trivy image scan that found vulnerabilities a compile error', () => {
    // trivy image --exit-code 1 --severity HIGH,CRITICAL (https://trivy.dev/latest/docs/configuration/others/#exit-code).
    const log = [
      '$ trivy image --exit-code 1 --severity HIGH,CRITICAL registry.example.com/app:1.2.3',
      '2024-05-01T10:00:00.000Z\tINFO\tVulnerability scanning is enabled',
      '2024-05-01T10:00:03.000Z\tINFO\tDetected OS: alpine',
      '',
      'registry.example.com/app:1.2.3 (alpine 3.18.4)',
      '',
      'Total: 2 (HIGH: 1, CRITICAL: 1)',
      '',
      '│ libcrypto3 │ CVE-2023-5363 │ HIGH     │ fixed  │ 3.1.3-r0 │ 3.1.4-r0 │',
      '│ libssl3    │ CVE-2023-5678 │ CRITICAL │ fixed  │ 3.1.3-r0 │ 3.1.4-r0 │',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'compile_error');
  });

  it('calls a pre-commit run whose formatter hook changed files a compile error', () => {
    // pre-commit's output for a failing hook (https://pre-commit.com/#usage).
    const log = [
      '$ pre-commit run --all-files --show-diff-on-failure',
      'trim trailing whitespace.................................................Passed',
      'check yaml...............................................................Passed',
      'black....................................................................Failed',
      '- hook id: black',
      '- files were modified by this hook',
      '',
      'reformatted src/app/main.py',
      '',
      'All done! ✨ 🍰 ✨',
      '1 file reformatted, 11 files left unchanged.',
      'ERROR: Job failed: exit code 1',
    ];
    expectDiagnosis(log, 'compile_error');
  });
});
