/**
 * Gates a change must pass besides its tests: coverage thresholds, static analysis, dependency
 * audits, size budgets, site, link and text checks.
 */
import { defineFamily } from '../rule.ts';

/**
 * A coverage threshold the run missed (Jest, coverage.py, pytest-cov, nyc/c8): the run's own
 * failing verdict, though the runner prints it before `Tests: 12 passed` or `=== 75 passed ===`.
 * The analyser's diagnosis reads it too, so a run with passing tests still counts as failed.
 */
export const COVERAGE_MISSED =
  /\bcoverage threshold for \w+ \([\d.]+%\) not met\b|\bis less than fail-under=|\bRequired test coverage of [\d.]+% not reached\b|\bdoes not meet (?:global |"[^"]*" )?threshold\b/;

/** Gates a change must pass besides its tests. */
export const qualityGatesFamily = defineFamily({
  name: 'quality-gates',
  // prettier-ignore
  hints: [
    'err', 'fail', 'exit', 'timeout', 'expected', 'assert', 'warn', 'failures', 'unknown', 'abort',
    'exceeded', 'violation', 'aborted', 'not met', 'fail-under', 'not reached', 'does not meet',
    'covered ratio', 'missed ratio', 'exceeds global', 'quality gate', 'weighted issue', 'bugs and',
    'pmd failure', 'vulnerabilit', 'critical: ', 'npm audit report', 'affected by', 'failon flag',
    'onlyallow flag', 'maxsize', 'below the specified', 'below the expected minimum',
    'below the failure threshold', 'covered percentage', 'missed percentage', 'coverage related',
    'msi percentage', '>> issue: [b', ' rules on ', 'need approval', 'leaks found',
    'potential problem', 'issues found in', 'rejected status code', 'maximum budget',
    'known issues', ' ==> ', 'issues found', 'dead link', '(standard:', '(experimental:', '✗',
    /^Issues :-\($/,
  ],
  rules: {
    // Zero-shot (gates): coverage thresholds, the test run's own gate, so a test failure. Jest's
    // `Jest: "global" coverage threshold for lines (80%) not met: 72.5%` and `Jest: Uncovered count
    // for lines (12) exceeds global threshold (10)`
    // (https://github.com/jestjs/jest/blob/main/packages/jest-reporters/src/CoverageReporter.ts),
    // coverage.py's and pytest-cov's `Coverage failure: total of 72 is less than fail-under=80` and
    // `FAIL Required test coverage of 80% not reached. Total coverage: 72.50%`
    // (https://coverage.readthedocs.io/en/latest/config.html#report-fail-under,
    // https://pytest-cov.readthedocs.io/en/latest/config.html), nyc's, c8's and Vitest's `ERROR:
    // Coverage for lines (72.5%) does not meet global threshold (80%)`
    // (https://github.com/istanbuljs/nyc#coverage-thresholds), JaCoCo's check rules `Rule violated
    // for bundle app: lines covered ratio is 0.72, but expected minimum is 0.80` and `Coverage
    // checks have not been met. See log for details.`
    // (https://www.jacoco.org/jacoco/trunk/doc/check-mojo.html; Maven prints the rule as a
    // [WARNING], Gradle as `[ant:jacocoReport] Rule violated …`), Kover's `Rule violated: lines
    // covered percentage is 50.000000, but expected minimum is 80`
    // (https://kotlin.github.io/kotlinx-kover/gradle-plugin/#verification), coverlet's `The total
    // line coverage is below the specified 80`
    // (https://github.com/coverlet-coverage/coverlet/blob/master/Documentation/MSBuildIntegration.md),
    // SimpleCov's `Line coverage (79.30%) is below the expected minimum coverage (90.00%).`
    // (https://github.com/simplecov-ruby/simplecov#minimum-coverage), cargo-tarpaulin's `Coverage
    // is below the failure threshold 72.50% < 80.00%` (https://github.com/xd009642/tarpaulin) and
    // Infection's mutation score `The minimum required MSI percentage should be 80%, but actual is
    // 72%. Improve your tests!`
    // (https://infection.github.io/guide/command-line-options.html#min-msi).
    'coverage-threshold': {
      re: /^(?:Jest: )?"[^"]+" coverage threshold for (?:lines|functions|statements|branches) \([\d.]+%\) not met: |^Jest: Uncovered count for (?:lines|functions|statements|branches) \(\d+\) exceeds |\bCoverage failure: total of [\d.]+ is less than fail-under=|\bRequired test coverage of [\d.]+% not reached\b|^(?:ERROR: )?Coverage for (?:lines|functions|statements|branches) \([\d.]+%\) does not meet (?:global |"[^"]*" )?threshold \(|\bRule violated for (?:bundle|package|class|sourcefile|method|group) \S+: \w+ (?:covered|missed) (?:ratio|count) is [\d.]+, but expected (?:minimum|maximum) is [\d.]+|\bCoverage checks have not been met\b|\bRule (?:'[^']*' )?violated: \w+ (?:covered|missed) (?:percentage|count) is [\d.]+, but expected (?:minimum|maximum) is\b|\bThe (?:total|minimum|average) (?:line|branch|method) coverage is below the specified [\d.]+|\bis below the expected minimum coverage\b|\bSimpleCov failed with exit \d+ due to a coverage related error\b|\bCoverage is below the failure threshold [\d.]+% < |\bThe minimum required (?:Covered Code )?MSI percentage should be [\d.]+%, but actual is\b/,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (gates): static analysis that rejected the code, in the analysers' documented
    // verdicts. SonarQube/SonarCloud with `sonar.qualitygate.wait` (`QUALITY GATE STATUS: FAILED -
    // View details on …`,
    // https://docs.sonarsource.com/sonarqube-server/latest/analyzing-source-code/ci-integration/overview/),
    // SonarSource's quality-gate action (`✖ Quality Gate has FAILED.`,
    // https://github.com/SonarSource/sonarqube-quality-gate-action) and Jenkins' waitForQualityGate
    // (`Pipeline aborted due to quality gate failure: ERROR`); detekt's `Build failed with 3
    // weighted issues.` / `Analysis failed with 3 weighted issues.`
    // (https://detekt.dev/docs/introduction/configurations/#build); the Maven plugins' check goals:
    // SpotBugs' findings (`[ERROR] Medium: Found reliance on default encoding in … [x.Y] At
    // Y.java:[line 12] DM_DEFAULT_ENCODING`) and `failed with 3 bugs and 0 errors`
    // (https://github.com/spotbugs/spotbugs-maven-plugin), PMD's and Checkstyle's `You have 3 PMD
    // violations.` / `You have 1 Checkstyle violation.` and PMD's `PMD Failure: x.Y:12
    // Rule:UnusedLocalVariable Priority:3 …`
    // (https://maven.apache.org/plugins/maven-pmd-plugin/check-mojo.html,
    // https://maven.apache.org/plugins/maven-checkstyle-plugin/check-mojo.html), Gradle's
    // Checkstyle and PMD tasks (`Checkstyle rule violations were found. See the report at:`, `3 PMD
    // rule violations were found.`,
    // https://docs.gradle.org/current/userguide/checkstyle_plugin.html), and ktlint's findings
    // (`src/A.kt:12:5: Unexpected blank line(s) before "}" (standard:no-blank-line-before-rbrace)`,
    // https://pinterest.github.io/ktlint/latest/install/cli/); security linters: Bandit's `>>
    // Issue: [B602:subprocess_popen_with_shell_equals_true] …`
    // (https://bandit.readthedocs.io/en/latest/start.html), Semgrep's `Ran 120 rules on 40 files: 3
    // findings.` (https://semgrep.dev/docs/cli-reference) and gitleaks' `WRN leaks found: 1`
    // (https://github.com/gitleaks/gitleaks#exit-codes); scanners of infrastructure code: Checkov's
    // `Passed checks: 9, Failed checks: 7, Skipped checks: 0` and its `FAILED for resource:
    // aws_s3_bucket.x` (not a test's FAILED,
    // https://www.checkov.io/2.Basics/CLI%20Command%20Reference.html) and tfsec's `1 potential
    // problem(s) detected.` (https://aquasecurity.github.io/tfsec/latest/guides/usage/).
    'static-analysis': {
      re: /\bQUALITY GATE STATUS: (?:FAILED|ERROR)\b|\bQuality Gate has FAILED\b|\bPipeline aborted due to quality gate failure\b|^(?:Build|Analysis) failed with [1-9]\d* weighted issues?\b|^\[ERROR\] (?:High|Medium|Low|Scary|Scariest|Troubling|Of Concern): .* \[[\w.$]+\] (?:At \S+:\[lines? [\d-]+\]|In \S+) [A-Z][A-Z0-9_]{2,}\s*$|\bfailed with [1-9]\d* bugs and \d+ errors\b|\bYou have [1-9]\d* (?:PMD|CPD|Checkstyle) (?:violations?|duplications?)\b|\bPMD Failure: \S+:\d+ Rule:\w+ Priority:\d|^Checkstyle rule violations were found\b|\b[1-9]\d* (?:PMD|Checkstyle|CodeNarc) rule violations were found\b|^\S+\.kts?:\d+:\d+: .* \((?:standard|experimental|[\w-]+):[\w-]+\)\s*$|^>> Issue: \[B\d{3}:\w+(?::\w+)?\] |^Ran \d+ rules? on \d+ files?: [1-9]\d* findings?\.|\bleaks found: [1-9]\d*\b|\bPassed checks: \d+, Failed checks: [1-9]\d*, Skipped checks: \d+|^\s*FAILED for resource: \S|\b[1-9]\d* potential problem\(s\) detected\./,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (gates): security and licence audits of the dependencies, which judge the build
    // (not a download that failed): yarn 1's `3 vulnerabilities found - Packages audited: 100`
    // (https://classic.yarnpkg.com/lang/en/docs/cli/audit/), pnpm's `3 vulnerabilities found`
    // (https://pnpm.io/cli/audit), npm's `# npm audit report` heading above the list
    // (https://docs.npmjs.com/cli/v10/commands/npm-audit; `N vulnerabilities (…)` is left alone:
    // `npm install` prints it in passing jobs too), pip-audit's `Found 2 known vulnerabilities in 1
    // package` (https://github.com/pypa/pip-audit), safety's `-> Vulnerability found in django
    // version 2.0`, bundler-audit's `Vulnerabilities found!`
    // (https://github.com/rubysec/bundler-audit), cargo audit's `error: 1 vulnerability found!`
    // (https://docs.rs/crate/cargo-audit), cargo deny's `error[rejected]: failed to satisfy license
    // requirements`, `error[vulnerability]: …` and `advisories FAILED, bans ok, …`
    // (https://embarkstudios.github.io/cargo-deny/checks/licenses/diags.html), Trivy's per-target
    // `Total: 3 (UNKNOWN: 0, LOW: 0, MEDIUM: 0, HIGH: 2, CRITICAL: 1)`
    // (https://trivy.dev/latest/docs/configuration/others/#exit-code), Grype's `discovered
    // vulnerabilities at or above the severity threshold`
    // (https://github.com/anchore/grype#gating-on-severity-of-vulnerabilities), Snyk's `✗ High
    // severity vulnerability found in lodash` and `Tested 45 dependencies for known issues, found 3
    // issues` (https://docs.snyk.io/snyk-cli/commands/test), OWASP dependency-check's `One or more
    // dependencies were identified with vulnerabilities that have a CVSS score greater than or
    // equal to '7.0'`
    // (https://jeremylong.github.io/DependencyCheck/dependency-check-maven/configuration.html),
    // govulncheck's `Your code is affected by 2 vulnerabilities from 1 module.`
    // (https://go.dev/doc/tutorial/govulncheck) and license-checker's `Found license defined by the
    // --failOn flag: "GPL-3.0". Exiting.` (https://github.com/davglass/license-checker#options) and
    // LicenseFinder's `Dependencies that need approval:`
    // (https://github.com/pivotal/LicenseFinder#usage).
    'dependency-audit': {
      re: /^[1-9]\d* vulnerabilit(?:y|ies) found(?: - Packages audited: \d+)?\s*$|^# npm audit report\s*$|\bFound [1-9]\d* known vulnerabilit(?:y|ies) in \d+ packages?\b|^\s*-> Vulnerability found in \S+ version\b|^Vulnerabilities found!\s*$|^error: [1-9]\d* vulnerabilit(?:y|ies) found!|^error\[(?:rejected|unlicensed|vulnerability|unmaintained|unsound|yanked|banned|notice)\]: |\badvisories FAILED, bans \w+, licenses \w+, sources \w+|\blicenses FAILED, sources \w+|^Total: [1-9]\d* \((?:UNKNOWN|LOW|MEDIUM|HIGH|CRITICAL): \d+|\bdiscovered vulnerabilities at or above the severity threshold\b|^\s*✗ (?:Low|Medium|High|Critical) severity vulnerability found in \S|\bTested \d+ dependencies for known (?:issues|vulnerabilities), found [1-9]\d* (?:issues|vulnerabilities)\b|\bOne or more dependencies were identified with vulnerabilities that have a CVSS score\b|\bYour code is affected by [1-9]\d* vulnerabilit(?:y|ies)\b|\bFound license defined by the --failOn flag\b|\bpackages? with licenses defined by the --failOn flag\b|\bwhich is not permitted by the --onlyAllow flag\b|^Dependencies that need approval:\s*$/,
      score: 86,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (gates): size and performance budgets. The bundlers' own budgets reject the build:
    // webpack's performance hints as errors (`ERROR in asset size limit: The following asset(s)
    // exceed the recommended size limit (244 KiB).`,
    // https://webpack.js.org/configuration/performance/#performancehints; the same text as a
    // WARNING fails nothing) and Angular's budgets (`✘ [ERROR] bundle initial exceeded maximum
    // budget. Budget 500.00 kB was not met by …`, older `Error: …` and `ERROR in budgets: Exceeded
    // maximum budget for initial.`, https://angular.dev/tools/cli/build#configuring-size-budgets).
    'bundle-budget': {
      re: /^ERROR in (?:asset|entrypoint) size limit: |^(?:✘ \[ERROR\] |X \[ERROR\] |Error: |ERROR in budgets: ).*\b[Ee]xceeded maximum budget\b/,
      score: 88,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (gates): a size check the project runs as a script of its own: size-limit's
    // `Package size limit has exceeded by 2.1 kB` (https://github.com/ai/size-limit) and
    // bundlesize's `FAIL ./dist/app.js: 12KB > maxSize 10KB (gzip)`
    // (https://github.com/siddharthkp/bundlesize). The corpus annotators file size-limit under the
    // project's own check script (a development log, whose `yarn test` runs it), so these stay
    // script errors rather than the bundlers' verdicts.
    'size-limit': {
      re: /\b(?:Package )?[Ss]ize limit has exceeded by\b|\S: [\d.]+ ?[kKMG]?B > maxSize [\d.]+ ?[kKMG]?B\b/,
      score: 88,
      kind: 'error',
      category: 'script_error',
    },
    // Zero-shot (gates): checks that run against the built site or its links, like tests:
    // Lighthouse CI's assertions (`✘  categories.performance failure for minScore assertion` and
    // `Assertion failed. Exiting with status code 1.`,
    // https://github.com/GoogleChrome/lighthouse-ci/blob/main/docs/configuration.md#assert; `⚠️ …
    // warning for … assertion` lines fail nothing) and markdown-link-check's `ERROR: 2 dead links
    // found!` (https://github.com/tcort/markdown-link-check): the corpus annotators file a link
    // checker's dead links (awesome_bot's, development logs) as a test failure; lychee's `Issues
    // found in 1 input. Find details below.` and its links (`[404] https://x/y (at 3:10) | Rejected
    // status code: 404 Not Found`, `[ERROR] https://x | Not found`,
    // https://lychee.cli.rs/troubleshooting/) likewise, and so are awesome_bot's `Issues :-(`
    // (https://github.com/dkhamsing/awesome_bot, lib/awesome_bot/cli.rb), linkinator's `ERROR:
    // Detected 3 broken links. Scanned 120 links in 4.2 seconds.`
    // (https://github.com/JustinBeckwith/linkinator) and HTML-Proofer's `HTML-Proofer found 2
    // failures!` (https://github.com/gjtorikian/html-proofer).
    'site-and-link-checks': {
      re: /^\s*(?:✘|X)\s+\S+ failure for \w+ assertion\b|^Assertion failed\. Exiting with status code [1-9]|^\s*ERROR: [1-9]\d* (?:file\(s\) with )?dead links? found!|^Issues :-\($|\bERROR: Detected [1-9]\d* broken links?\. Scanned\b|\bHTML-Proofer found [1-9]\d* failures?!|^Issues found in \d+ inputs?\. Find details below\.|^(?:✗ )?\[(?:[45]\d\d|ERROR|ERR|TIMEOUT)\] https?:\/\/\S+ (?:\(at \d+:\d+\) )?\| \S/,
      score: 88,
      kind: 'error',
      category: 'test_failure',
    },
    // Zero-shot (gates): checks on the repository's text that reject the change like a linter:
    // commitlint's `✖   found 1 problems, 0 warnings` (its rule lines, `✖   subject may not be
    // empty [subject-empty]`, are kept as context) (https://commitlint.js.org/reference/cli.html),
    // codespell's `./README.md:12: teh ==> the` (https://github.com/codespell-project/codespell),
    // cspell's `src/a.ts:12:5 - Unknown word (teh)` and `CSpell: Files checked: 10, Issues found: 2
    // in 2 files.` (https://cspell.org/docs/command-line/), and pre-commit's hook verdict
    // `black....................Failed` above `- hook id: black` (https://pre-commit.com/#usage):
    // the hook's own output below says more and, where a rule knows it, gives the category.
    'text-checks': {
      re: /^\s*✖\s+found [1-9]\d* problems?, \d+ warnings?\b|^\S+:\d+: \S.* ==> \S|^\S+:\d+:\d+ - Unknown word \(|\bIssues found: [1-9]\d* in \d+ files?\b|^[^.\s][^.]*\.{3,}Failed\s*$/,
      score: 85,
      kind: 'error',
      category: 'compile_error',
    },
  },
  advice: {
    'coverage-below-threshold': {
      category: 'test_failure',
      when: new RegExp(
        `${COVERAGE_MISSED.source}|Rule violated for (?:bundle|package|class)|Coverage checks have not been met|line coverage is below the specified`,
      ),
      steps: [
        'The tests passed, but coverage is below the threshold the project set: open the coverage report for the files this change touched and add tests for the uncovered lines, or lower the threshold in the same change and say why.',
      ],
      instead: true,
    },
    'quality-gate-failed': {
      category: 'compile_error',
      when: /QUALITY GATE STATUS: FAILED|Quality Gate has FAILED|quality gate failure/i,
      steps: [
        'The quality gate failed: open the dashboard link above; the failed conditions are usually coverage or new issues on new code, and the gate names which.',
      ],
      instead: true,
    },
    'vulnerable-dependencies': {
      category: 'compile_error',
      when: /vulnerabilit(?:y|ies) found|Vulnerability found in|# npm audit report|Total: \d+ \(.*CRITICAL: |Your code is affected by \d+ vulnerabilit|error\[(?:vulnerability|unsound|unmaintained|yanked)\]/i,
      steps: [
        'A dependency audit found known vulnerabilities: upgrade the packages named above to the fixed versions (`npm audit fix`, a newer base image, `cargo update -p <crate>`), or record an accepted exception with its reason in the scanner’s ignore file.',
      ],
      instead: true,
    },
    'over-budget': {
      category: 'compile_error',
      when: /exceeded maximum budget|(?:asset|entrypoint) size limit/,
      steps: [
        'A bundle is over its size budget: split or lazy-load the code this change added, or raise the budget in the same change and say why.',
      ],
      instead: true,
    },
  },
});
