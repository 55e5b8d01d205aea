/**
 * Which rule wins a line. The classifier (classify-line.ts) tries every rule on a line that passes
 * the prefilter; of the rules that match:
 * - the score and kind come from the highest-scoring one, the earliest in RULE_PRECEDENCE on a tie;
 * - the category comes from the earliest one in RULE_PRECEDENCE that has a category, whatever its
 *   score: a tool's own words come before a generic rule that reads the same line differently.
 * Before any rule, a compiler's warning or note is a warning; after them, an error line that says
 * nothing failed (`0 errors`, an echoed `set -e`) is noise (lookalikes.ts).
 * The order the families' advice applies in is stated here too (ADVICE_PRECEDENCE).
 */
import type { AdviceName, RuleName } from './families.ts';

/**
 * Every rule, earliest first (see above). A rule's place is where its category must beat the
 * rules below it on lines both match; a new rule goes above the generic rules its lines also match.
 */
export const RULE_PRECEDENCE = [
  'gitlab-runner/job-failed',
  'gitlab-runner/job-timeout',
  'test-runners/harness-or-sanitizer',
  'ci-systems/timeout-or-abort',
  'dependencies/build-root-packages',
  'services/database-unreachable',
  'services/android-signing',
  'dependencies/python-import-mismatch',
  'services/platform-settings',
  'lint/android-lint',
  'build/error-mark',
  'ci-systems/jenkinsfile-rejected',
  'build/solidity',
  'dependencies/targeting-pack',
  'machine/file-in-use',
  'ci-systems/solution-not-found',
  'machine/subordinate-ids',
  'script/powershell-error',
  'quality-gates/coverage-threshold',
  'quality-gates/static-analysis',
  'quality-gates/dependency-audit',
  'quality-gates/bundle-budget',
  'quality-gates/size-limit',
  'quality-gates/site-and-link-checks',
  'quality-gates/text-checks',
  'config/missing-path-or-name',
  'config/project-settings',
  'config/missing-env-var',
  'credentials/tool-credentials',
  'credentials/token-refused',
  'credentials/cloud',
  'dependencies/javascript',
  'dependencies/other-languages',
  'dependencies/system-packages-and-network',
  'ci-systems/workflow-or-setup-version',
  'config/build-tool-config',
  'deploy/credentials',
  'deploy/no-kubeconfig',
  'deploy/unreachable',
  'deploy/manifest-rejected',
  'deploy/rollout-or-lock',
  'dependencies/library-or-fetch',
  'machine/disk-full',
  'credentials/dubious-ownership',
  'dependencies/lockfile-or-solver',
  'gitlab-runner/artifacts-too-large',
  'machine/jvm-heap',
  'machine/compiler-killed',
  'machine/out-of-memory',
  'machine/child-killed',
  'test-runners/runner-verdict',
  'test-runners/expect-assertion',
  'test-runners/ctest-verdict',
  'test-runners/failure-count',
  'test-runners/failed-tests-heading',
  'test-runners/test-timeout',
  'script/other-timeout',
  'deploy/terraform-config',
  'config/tool-usage',
  'config/config-file-rejected',
  'build/manifest-merger',
  'build/error-at-position',
  'build/nim',
  'test-runners/gotestsum-or-pester',
  'dependencies/no-http-answer',
  'dependencies/cmake-find-package',
  'config/app-settings',
  'config/config-file-missing',
  'build/qute-template',
  'test-runners/flutter-exception',
  'config/flutter-platform',
  'config/yaml',
  'credentials/http-401-403',
  'credentials/permission-denied',
  'dependencies/transfer-cut-off',
  'dependencies/network',
  'dependencies/module-resolution',
  'script/shell-error',
  'dependencies/not-installed',
  'build/build-script',
  'build/other-compilers',
  'test-runners/test-task-failed',
  'lint/checker-verdict',
  'build/bundler-verdict',
  'build/xcodebuild-failed-commands',
  'test-runners/pytest-short-summary',
  'lint/golangci-lint',
  'build/compile-error',
  'build/compile-error-words',
  'lint/linter-verdict',
  'dependencies/configure-missing-library',
  'build/configure-or-cmake',
  'build/kotlin',
  'build/erlang',
  'build/go',
  'config/patch-does-not-apply',
  'credentials/aws-keys',
  'test-runners/surefire-pester-tap',
  'test-runners/test-crashed',
  'test-runners/rspec-dotnet-bazel',
  'test-runners/failed-test-line',
  'lint/finding-code',
  'test-runners/minitest-test-name',
  'test-runners/failed-count',
  'test-runners/failed-test-list',
  'test-runners/failure-or-assertion',
  'deploy/ansible-item-failed',
  'script/generic-error',
  'test-runners/surefire-summary',
  'test-runners/summary-header',
  'script/warning',
] as const satisfies readonly RuleName[];

// Compile-time check that every rule has a place: this fails to type-check when one is missing.
type Placed = (typeof RULE_PRECEDENCE)[number];
const everyRulePlaced: [RuleName] extends [Placed] ? true : never = true;
void everyRulePlaced;

/**
 * Every family's advice, in the order it applies: the analyser adds the steps of every entry whose
 * category and pattern match the failure, earliest first, so where two entries of one category can
 * match one log, this order is the order their steps are read in. It keeps the order of the single
 * list the advice came from (the analyser's SPECIFIC_ADVICE), which no order of whole families
 * does: deploy's permission advice came before services' keystore advice (both permission_auth),
 * services' database advice before dependencies' and deploy's network advice (dependency_network).
 */
export const ADVICE_PRECEDENCE = [
  'quality-gates/coverage-below-threshold',
  'quality-gates/quality-gate-failed',
  'quality-gates/vulnerable-dependencies',
  'quality-gates/over-budget',
  'deploy/state-locked',
  'deploy/helm-release-pending',
  'deploy/rollout-not-ready',
  'deploy/permission-missing',
  'services/database-in-build',
  'dependencies/installed-package-changed',
  'dependencies/maven-cached-failure',
  'ci-systems/stopped-by-hand',
  'services/keystore-unreadable',
  'services/path-outside-docker-context',
  'services/publish-directory-missing',
  'services/file-over-size-limit',
  'deploy/host-unreachable',
] as const satisfies readonly AdviceName[];

// Compile-time check that every advice has a place, as for the rules above.
type AdvicePlaced = (typeof ADVICE_PRECEDENCE)[number];
const everyAdvicePlaced: [AdviceName] extends [AdvicePlaced] ? true : never = true;
void everyAdvicePlaced;
