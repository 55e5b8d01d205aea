import { describe, it } from 'vitest';
import { expectDiagnosis, itGivesFamilyAdvice } from '../../../testing/documented-lines.ts';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { ciSystemsFamily } from './ci-systems.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: 'a GitHub Actions step past its timeout-minutes',
    from: 'https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepstimeout-minutes',
    line: "##[error]The action 'Run all tests with coverage' has timed out after 30 minutes.",
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
    lookalike: "Waiting for 'Run all tests with coverage' (timeout-minutes: 30)",
  },
  // ---- configuration ----
  {
    what: 'GitHub Actions action reference that does not resolve',
    from: 'https://github.com/actions/add-to-project/issues/540',
    line: 'Error: Unable to resolve action `actions/add-to-project@v1`, unable to find version `v1`',
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike:
      "Download action repository 'actions/checkout@v4' (SHA:11bd71901bbe5b1630ceea73d27597364c9af683)",
  },
  {
    what: 'GitHub Actions invalid workflow',
    from: 'https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions',
    line: "The workflow is not valid. .github/workflows/ci.yml (Line: 12, Col: 5): Unexpected value 'foo'",
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike: 'Prepare workflow directory',
  },
  {
    what: 'setup-python asked for a version that does not exist',
    from: 'https://github.com/actions/setup-python/issues/555',
    line: 'Error: Version 3.9.5 with arch x64 not found',
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike: 'Version 3.9.5 was not found in the local cache',
  },
  {
    what: 'setup-python (v4+) on an image without that version',
    from: 'https://github.com/actions/setup-python/issues/665',
    line: "Error: The version '3.6.15' with architecture 'x64' was not found for Ubuntu 22.04.",
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike: 'Successfully set up CPython (3.12.4)',
  },
  {
    what: 'setup-node asked for a version that does not exist',
    from: 'https://github.com/actions/setup-node/blob/main/docs/advanced-usage.md',
    line: "Error: Unable to find Node version '99' for platform linux and architecture x64.",
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike: 'Not found in manifest. Falling back to download directly from Node',
  },
  {
    what: 'GitHub refusing a deprecated action version',
    from: 'https://github.blog/changelog/2024-04-16-deprecation-notice-v3-of-the-artifact-actions/',
    line: 'Error: This request has been automatically failed because it uses a deprecated version of `actions/upload-artifact: v3`. Learn more: https://github.blog/changelog/2024-04-16-deprecation-notice-v3-of-the-artifact-actions/',
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike:
      'Node.js 16 actions are deprecated. Please update the following actions to use Node.js 20: actions/checkout@v3.',
  },
  {
    what: 'setup-java asked for a version that does not exist',
    from: 'https://github.com/actions/setup-java/blob/main/src/distributions/temurin/installer.ts',
    line: "Error: Could not find satisfied version for SemVer '26'.",
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike: 'Trying to resolve the latest version from remote',
  },
  {
    what: 'setup-ruby asked for a version that does not exist',
    from: 'https://github.com/ruby/setup-ruby/blob/master/index.js',
    line: 'Error: Unknown version 3.9 for ruby on ubuntu-22.04',
    rule: 'ci-systems/workflow-or-setup-version',
    category: 'config_yaml',
    lookalike: 'Using ruby-3.3.4 from the toolcache',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: "Azure Pipelines' build task given a solution pattern that matches nothing",
    from: 'https://github.com/mikolajroszak/orangefinansepl/blob/f2691c41a6195126b7b2f0ba59ffdd4b40ca261b/1_Job.txt',
    line: "2018-07-01T11:29:42.2986392Z ##[error]Solution not found using search pattern 'D:\\a\\1\\s\\**\\*.sln'.",
    rule: 'ci-systems/solution-not-found',
    category: 'config_yaml',
  },
  {
    what: "a Jenkinsfile the Groovy compiler chokes on (in source unit 'WorkflowScript')",
    from: 'https://github.com/stortfordyaw/PaaS/blob/b67c721f9dbaa50f199a298356b9ae9bd16827da/consoleText.txt',
    line: "Caused: BUG! exception in phase 'semantic analysis' in source unit 'WorkflowScript' unexpected NullpointerException",
    rule: 'ci-systems/jenkinsfile-rejected',
    category: 'config_yaml',
  },
  {
    what: 'a Jenkins build stopped by hand (a cancellation, like a CI timeout)',
    from: 'https://github.com/pankh600/Casestudy/blob/427a5f3582a874f14628f892b77899fbe6caa532/jenkins_log.txt',
    line: 'Aborted by Pankhuri Agrawal',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
  {
    what: 'a Jenkinsfile calling a section where the pipeline grammar has none',
    from: 'https://github.com/vidd1992/tipti-dev/blob/fae0007a16c424cadd9f1a90fb63efe4bfaab675/jenkins.log',
    line: "java.lang.NoSuchMethodError: No such DSL method 'post' found among steps [archive, bat, build, catchError, checkout, deleteDir, dir]",
    rule: 'ci-systems/jenkinsfile-rejected',
    category: 'config_yaml',
  },
  {
    what: 'a CI system stopping the job after a limit in minutes (DataKit CI), not a test timeout',
    from: 'https://github.com/avsm/mirage-ci-logs/blob/b59c3f627262adc40c6fc0409667287ffc62c301/log',
    line: '[2016-09-07 23:36.51] Failed: Exceeded timeout of 60 minutes',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
  {
    what: 'GitHub Actions job cancelled (timeout-minutes)',
    from: 'https://github.com/actions/runner/issues/1473',
    line: '  Error: The operation was canceled.',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
  {
    what: 'Taskcluster max run time',
    from: 'https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/taskcluster-only.log.gz',
    line: '[taskcluster:error] Task aborted - max run time exceeded',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
  {
    what: 'Travis stalled build',
    from: 'https://github.com/travis-ci/travis-ci/issues/6512',
    line: 'No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself.',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
  {
    what: 'Travis command killed by `timeout` (exit 124)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Haskell/purescript%40purescript/failed/549434310.log',
    line: 'The command "$TIMEOUT 35m ci/build.sh" exited with 124.',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
  {
    what: 'Azure Pipelines job time limit',
    from: 'https://learn.microsoft.com/azure/devops/pipelines/process/phases#timeouts',
    line: '##[error]The job running on agent Hosted Agent ran longer than the maximum time of 60 minutes. For more information, see https://go.microsoft.com/fwlink/?linkid=2077134',
    rule: 'ci-systems/timeout-or-abort',
    category: 'timeout',
  },
];

describe('ci-systems rules', () => {
  itClassifiesFamilyLines(ciSystemsFamily, { documented: DOCUMENTED, quoted: QUOTED });
});

describe('ci-systems advice', () => {
  itGivesFamilyAdvice(ciSystemsFamily, QUOTED, [
    {
      advice: 'ci-systems/stopped-by-hand',
      what: 'a Jenkins build stopped by hand (a cancellation, like a CI timeout)',
    },
  ]);
});

describe('ci-systems: whole logs through the analyser', () => {
  it('calls a test step that GitHub Actions stopped for time a timeout, though tests failed first', () => {
    // GitHub Actions log, https://github.com/avifenesh/connect-valkey-glide/blob/9a4cd9fd78a2da0a9b83e987287efa79ce984e6c/job_log.txt (MIT).
    const log = [
      '2025-09-17T08:18:24.8946826Z Test Suites: 3 failed, 9 passed, 12 total',
      '2025-09-17T08:18:24.8947547Z Tests:       2 failed, 2 skipped, 85 passed, 89 total',
      '2025-09-17T08:18:24.8948858Z Ran all test suites.',
      '2025-09-17T08:18:25.8961684Z Jest did not exit one second after the test run has completed.',
      '2025-09-17T08:18:25.8962002Z ',
      "2025-09-17T08:18:25.8962814Z 'This usually means that there are asynchronous operations that weren't stopped in your tests. Consider running Jest with `--detectOpenHandles` to troubleshoot this issue.",
      "2025-09-17T08:47:30.3675560Z ##[error]The action 'Run all tests with coverage' has timed out after 30 minutes.",
      '2025-09-17T08:47:30.3719661Z ##[group]Run docker rm -f valkey-standalone || true',
    ];
    expectDiagnosis(log, 'timeout', 'has timed out after 30 minutes');
  });

  it('calls setup-python asked for a missing version a configuration problem', () => {
    // https://github.com/actions/setup-python/issues/555
    const log = [
      'Run actions/setup-python@v5',
      '  with:',
      '    python-version: 3.6',
      'Version 3.6 was not found in the local cache',
      "Error: The version '3.6' with architecture 'x64' was not found for Ubuntu 22.04.",
      'The list of all available versions can be found here: https://raw.githubusercontent.com/actions/python-versions/main/versions-manifest.json',
    ];
    expectDiagnosis(log, 'config_yaml');
  });
});
