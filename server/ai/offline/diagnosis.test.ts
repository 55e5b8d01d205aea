import { describe, expect, it } from 'vitest';
import type { FailureCategory } from '../distill/rules/rule.ts';
import { distillLog } from '../distill/log-distiller.ts';
import { loadCorpus } from '../testing/corpus/load-corpus.ts';
import { diagnoseLines, quotedText } from '../testing/documented-lines.ts';
import { realDevLog } from '../testing/offline-fixtures.ts';
import { diagnose } from './diagnosis.ts';
import { analyseOffline } from './report.ts';

const EXPECTED: Record<string, FailureCategory> = {
  'jest-assertion': 'test_failure',
  'jest-multiple-failures': 'test_failure',
  'npm-eresolve': 'dependency_network',
  'node-heap-oom': 'oom_killed',
  'tsc-compile-errors': 'compile_error',
  'eslint-errors': 'compile_error',
  'pytest-assertion': 'test_failure',
  'pytest-collection-import': 'dependency_network',
  'pip-no-matching-distribution': 'dependency_network',
  'python-deploy-traceback': 'script_error',
  'go-test-fail': 'test_failure',
  'go-build-undefined': 'compile_error',
  'go-mod-proxy-timeout': 'dependency_network',
  'maven-surefire-failure': 'test_failure',
  'maven-compile-error': 'compile_error',
  'maven-nexus-unauthorized': 'permission_auth',
  'gradle-test-failure': 'test_failure',
  'gradle-daemon-oom': 'oom_killed',
  'rust-mismatched-types': 'compile_error',
  'rust-test-panic': 'test_failure',
  // A COPY source missing from the build context: the Dockerfile or the context (.dockerignore)
  // is wrong, as the real-log annotators also read it (https://docs.docker.com/build/concepts/context/).
  'docker-copy-not-found': 'config_yaml',
  'docker-push-denied': 'permission_auth',
  'docker-apt-dns': 'dependency_network',
  'shell-command-not-found': 'script_error',
  'shell-curl-404': 'script_error',
  'git-auth-failure': 'permission_auth',
  'job-timeout': 'timeout',
  'k8s-oomkilled': 'oom_killed',
  'helm-yaml-error': 'config_yaml',
  'terraform-invalid-reference': 'config_yaml',
  'rspec-failure': 'test_failure',
  'dotnet-build-error': 'compile_error',
  'cpp-segfault': 'script_error',
  'cypress-element-timeout': 'test_failure',
  'npm-registry-econnreset': 'dependency_network',
  'permission-denied-script': 'permission_auth',
  'docker-compose-yaml': 'config_yaml',
};

describe('diagnosis of the synthetic corpus', () => {
  it('names the right root-cause category for every corpus log', () => {
    const wrong: string[] = [];
    for (const c of loadCorpus()) {
      const expected = EXPECTED[c.case.name];
      expect(expected, `no expectation for ${c.case.name}`).toBeDefined();
      const got = diagnose(distillLog(c.raw)).category;
      if (got !== expected) wrong.push(`${c.case.name}: ${got} (expected ${expected})`);
    }
    expect(wrong).toEqual([]);
  });
});

// Each guard is shown on the incidental lines that used to fool the analyser, quoted from real
// public CI logs (sources next to each case) and cut to the lines that matter.

describe('offline analyser guards', () => {
  it("does not let a test's quoted source vote: a heading named 'Authentication Required' is not a 403", () => {
    // https://github.com/anicolao/uptime/blob/7f9db72d294750948f961bff8f4544d232d6df57/ci_log.txt
    const d = diagnose(distillLog(realDevLog('gha-uptime-playwright-screenshot-auth-wall')));
    expect(d.category).toBe('test_failure');
  });

  it('calls a build that ran out of disk a script error, not the compile errors it caused', () => {
    // javac could not write its output: the errors are the disk's, not the code's.
    const d = diagnose(distillLog(realDevLog('eas-hizli-okuma-android-no-space-left')));
    expect(d.category).toBe('script_error');
    expect(d.nextSteps.join(' ')).toContain('disk is full');
  });

  it("does not read a mail's `Received: from` trace header as a test's received value", () => {
    // A Jenkins failure mailed to a list keeps the mail headers above the console output.
    // https://lore.kernel.org/linux-media/772924952.14.1600690692800@builder.linuxtv.org/
    const d = diagnose(
      distillLog(realDevLog('jenkins-libcamera-meson-configure-android-true-combo')),
    );
    expect(d.category).toBe('config_yaml');
    expect(d.evidence[0]!.text).toContain('for combo option is not one of the choices');
  });

  it('does not let a passing test named after a permission error vote', () => {
    // https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Python/nvbn%40thefuck/failed/545320732.log
    const d = diagnoseLines([
      'tests/rules/test_chmod_x.py::test_match[./gradlew build-gradlew: Permission denied] \x1b[32mPASSED\x1b[0m\x1b[36m [ 18%]\x1b[0m',
      'tests/rules/test_chmod_x.py::test_not_match[./gradlew build-gradlew: Permission denied-True-True] \x1b[32mPASSED\x1b[0m\x1b[36m [ 18%]\x1b[0m',
      '$ flake8',
      './thefuck/rules/terraform_init.py:8:9: E128 continuation line under-indented for visual indent',
      'The command "flake8" exited with 1.',
      'Done. Your build exited with 1.',
    ]);
    expect(d.category).toBe('compile_error');
    expect(d.evidence[0]!.text).toContain('E128 continuation line');
  });

  it("does not call a build OOM because a package creates the 'systemd-oom' user", () => {
    // https://github.com/fedora-copr/logdetective-sample/blob/6bd8dbdf5b9c5e977a7e6202226960809109394b/data/bd0afcc7-1395-4275-a906-84df79a84452/builder-live.log
    const d = diagnoseLines([
      ">>> Creating user 'systemd-oom' (systemd Userspace OOM Killer) with UID 999 and GID 999.",
      '+ bin/test',
      'ActionText::JobRenderTest#test_uses_app_default_url_options:',
      "ActionView::Template::Error: Can't resolve image into URL: undefined method 'to_model' for an instance of ActiveStorage::VariantWithRecord",
      "    app/jobs/broadcast_job.rb:5:in 'BroadcastJob#perform'",
      '116 runs, 259 assertions, 0 failures, 1 errors, 0 skips',
      'error: Bad exit status from /var/tmp/rpm-tmp.H6YM9X (%check)',
    ]);
    expect(d.category).toBe('test_failure');
    expect(quotedText(d)).toContain("ActionView::Template::Error: Can't resolve image into URL");
  });

  it('calls it OOM when the kill is there', () => {
    expect(
      diagnoseLines([
        '$ make -j8',
        'g++ -c big.cc',
        'Killed',
        'make: *** [Makefile:12: big.o] Error 137',
      ]).category,
    ).toBe('oom_killed');
  });

  it("quotes the shell's report of a SIGKILLed child as the kill", () => {
    // bash names the signal with strsignal(SIGKILL) = "Killed", then the pid and the command.
    const d = diagnoseLines([
      '$ npm ci && npm run build',
      'npm warn deprecated inflight@1.0.6: This module is not supported',
      '/usr/bin/bash: line 1: 1008290 Killed                  npm run build 2>&1',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(d.category).toBe('oom_killed');
    expect(d.evidence[0]?.text).toContain('Killed                  npm run build');
  });

  it('says when its category is only a fallback because no rule knows the wording', () => {
    // An in-house deploy script's own message: only the generic `Error:` rule matches it.
    const unknown = [
      '$ ./deploy.sh staging',
      'Error: release bucket staging-releases is locked by another deploy',
      'ERROR: Job failed: exit code 1',
    ];
    expect(diagnoseLines(unknown)).toMatchObject({ category: 'script_error', generic: true });
    expect(analyseOffline(distillLog(unknown.join('\n')))).toMatch(
      /Root cause category:\*\* Script error, a fallback/i,
    );
    // A wording a rule knows, of the same category (PowerShell's error record), is a finding.
    expect(
      diagnoseLines([
        'Start-Process : This command cannot be run because "RedirectStandardOutput" and "RedirectStandardError" are same.',
        'ERROR: script returned exit code 1',
      ]),
    ).toMatchObject({ category: 'script_error', generic: false });
    expect(
      diagnoseLines([
        "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      ]),
    ).toMatchObject({ category: 'compile_error', generic: false });
  });

  it("does not let debconf's complaints about a missing terminal vote", () => {
    // https://github.com/Tejal1211/CyberStadium-AI/blob/991ffcd790ed166b0df1ffe9b9ecf2e84f4e0456/cloudbuild.log:
    // apt in a container prints them on every install; the push was refused.
    const d = diagnoseLines([
      "debconf: (Can't locate Term/ReadLine.pm in @INC (you may need to install the Term::ReadLine module) (@INC contains: /etc/perl /usr/local/lib/x86_64-linux-gnu/perl/5.32.1) at /usr/share/perl5/Debconf/FrontEnd/Readline.pm line 7.)",
      "debconf: (Can't locate Term/ReadLine.pm in @INC (you may need to install the Term::ReadLine module) (@INC contains: /etc/perl /usr/local/lib/x86_64-linux-gnu/perl/5.32.1) at /usr/share/perl5/Debconf/FrontEnd/Readline.pm line 7.)",
      'The push refers to repository [gcr.io/solarsail-499714/solarsail-server]',
      'denied: gcr.io repo does not exist. Creating on push requires the artifactregistry.repositories.createOnPush permission',
      'ERROR: failed to push image',
    ]);
    expect(d.category).toBe('permission_auth');
  });

  it("does not call it OOM when Go reports a child 'signal: killed' by its own deadline", () => {
    // https://github.com/crossplane-contrib/provider-upjet-azuread/blob/a3393bc3458c5da61a138dc907079b0647a14ac5/job-logs.txt:
    // uptest's context expired while chainsaw waited for a condition; os/exec killed it.
    const d = diagnoseLines([
      '2026-08-07T06:03:50.2025764Z 2026/08/07 06:03:50 --- FAIL: chainsaw (0.00s)',
      '2026-08-07T06:03:50.2026229Z 2026/08/07 06:03:50     --- FAIL: chainsaw/apply (1218.59s)',
      '2026-08-07T06:03:50.2037791Z uptest-v2.2.0: error: cannot run e2e tests successfully: cannot execute tests: cannot execute test 00-apply.yaml: cannot wait for chainsaw: "$***CHAINSAW***" test --test-dir _output/controlplane-dump/case --test-file 00-apply.yaml --skip-delete --parallel 1 2>&1: signal: killed',
      '2026-08-07T06:03:50.2080527Z 06:03:50 \u001b[31m[FAIL]\u001b[0m',
      '2026-08-07T06:03:50.2101924Z ##[error]Process completed with exit code 2.',
    ]);
    expect(d.category).toBe('test_failure');
  });

  it('does not call it OOM when a test kills its own child early in the log', () => {
    expect(
      diagnoseLines([
        '$ make check',
        'PASS: t/signals.sh 1 - child exits on TERM',
        't/signals.sh: line 41: 31337 Killed                  sleep 100',
        'PASS: t/signals.sh 2 - child dies on KILL',
        ...Array.from({ length: 40 }, (_, i) => `PASS: t/io.sh ${i + 1}`),
        'FAIL: t/parse.sh 3 - expected 2 fields, got 3',
        '# FAIL:  1',
        'make: *** [Makefile:880: check] Error 1',
      ]).category,
    ).toBe('test_failure');
  });

  it('reads the first failed command as the cause when a CI system runs more after it', () => {
    // Shaped on https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Scala/scala%40scala/failed/567103817.log
    const d = diagnoseLines([
      '$ sbt -warn setupPublishCore publishLocal',
      '[error] /home/travis/build/scala/scala/src/reflect/scala/reflect/internal/util/Collections.scala:78: type mismatch;',
      '[error] (reflect/compile:compileIncremental) Compilation failed',
      'The command "sbt -warn setupPublishCore publishLocal" exited with 1.',
      '$ sbt -Dstarr.version=$STARR testAll',
      'sbt.ResolveException: unresolved dependency: org.scala-lang#scala-compiler;2.12.9-bin-5d0a905-SNAPSHOT: not found',
      '[error] (root/*:update) sbt.ResolveException: unresolved dependency: org.scala-lang#scala-compiler;2.12.9-bin-5d0a905-SNAPSHOT: not found',
      'The command "sbt -Dstarr.version=$STARR testAll" exited with 1.',
    ]);
    expect(d.category).toBe('compile_error');
    expect(d.evidence[0]?.text).toContain('Collections.scala:78: type mismatch');
  });

  it("lets Maven's 'Failed to execute goal' vote when it names the cause", () => {
    // https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/spooncontrolflow_805/fail.log
    expect(
      diagnoseLines([
        '[INFO] BUILD FAILURE',
        '[ERROR] Failed to execute goal on project spoon-control-flow: Could not resolve dependencies for project fr.inria.gforge.spoon:spoon-control-flow:jar:0.0.2-SNAPSHOT: Could not find artifact fr.inria.gforge.spoon:spoon-core:jar:9.2.0-SNAPSHOT -> [Help 1]',
        '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/DependencyResolutionException',
      ]).category,
    ).toBe('dependency_network');
  });

  it('quotes what follows the main error (its cause) before what led up to it', () => {
    // Lines 100-116 of a real GitLab runner trace (Gradle behind fastlane's prefix); the release
    // notes' "Java compilation errors" highlight sits just before the failure.
    const log = realDevLog('gitlab-ionic-appflow-capacitor-no-variant', 99, 116);
    const d = diagnose(distillLog(log));
    expect(d.category).toBe('dependency_network');
    const [first, second] = d.evidence.map((e) => e.message);
    expect(first).toContain('> Could not resolve all dependencies for configuration');
    expect(second).toContain('> Could not resolve project :capacitor-android.');
  });

  it('weighs lines by closeness to the failed step, not to the end of the log', () => {
    // Shaped on https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2505733928-orig.log: setup trouble the job survived, the failing test step, then many lines of
    // `if: always()` steps.
    expect(
      diagnoseLines([
        '2022-06-15T23:51:06.6554440Z Error from server: error when creating "/tmp/k8s.yaml": Post "https://apiext.svc:443/": dial tcp 10.43.3.6:443: connect: connection refused',
        '2022-06-15T23:51:06.6556135Z Error from server: error when creating "/tmp/k8s.yaml": Post "https://apiext.svc:443/convert": net/http: TLS handshake timeout',
        '2022-06-15T23:51:06.6569331Z Error from server: error when creating "/tmp/hosts.yaml": Post "https://apiext.svc:443/hosts": dial tcp 10.43.3.6:443: i/o timeout',
        ...Array.from({ length: 60 }, (_, i) => `2022-06-15T23:52:0${i % 10}.1Z PASSED test_${i}`),
        '2022-06-15T23:52:28.8Z E   AssertionError: expected status code 200, got 503 instead',
        '2022-06-15T23:52:28.9026813Z ===== 3 failed, 40 passed, 224 deselected in 255.21s ======',
        '2022-06-15T23:52:29.2615379Z ##[error]Process completed with exit code 2.',
        ...Array.from(
          { length: 400 },
          (_, i) => `2022-06-15T23:53:0${i % 10}.1Z collecting logs ${i}`,
        ),
      ]).category,
    ).toBe('test_failure');
  });

  it("lets only the exception in pytest's E block vote, not the source line and caret under it", () => {
    // Lines 320-340 of https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/python/2512030835-orig.log: a collection error whose E block quotes the source
    const log = realDevLog('gha-kubernetes-python-client-syntax-error', 319, 340);
    expect(diagnose(distillLog(log)).category).toBe('compile_error');
  });

  it('calls a test that died on the network a network problem, and one that asserted a test failure', () => {
    // Lines 560-580 of https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Perl/sjdy521%40Mojo-Webqq/failed/332708478.log: a Perl test that needs the network hits a connect timeout
    const log = realDevLog('travis-mojo-webqq-connect-timeout', 559, 580);
    expect(diagnose(distillLog(log)).category).toBe('dependency_network');
    // The same network error, but the test compared what it got: the test's own verdict.
    const asserted = [
      'ok 1 - starts the client',
      'Connection refused while fetching the fixture; using the cached copy',
      'not ok 2 - parses the response',
      "#   Failed test 'parses the response'",
      "#          got: 'foo'",
      "#     expected: 'bar'",
      'Failed 1/2 subtests',
    ].join('\n');
    expect(diagnose(distillLog(asserted)).category).toBe('test_failure');
  });

  it("does not let a passing run's assertion-like output vote, but keeps a failing run's lines when a later run passes", () => {
    // https://github.com/thefaftek-git/CA_Scanner/blob/555f7270fbe590b0ad6960f5efff0a6776c5b546/0_build-and-test.txt:
    // an xUnit test of an error path logs `Assert.Equal() Failure` and passes; the run says so, and the
    // job fails later in a coverage step.
    const passed = diagnoseLines([
      '2025-06-06T18:50:48.0476609Z Exception occurred: Assert.Equal() Failure: Values differ',
      '2025-06-06T18:50:48.0476967Z Expected: 0',
      '2025-06-06T18:50:48.0477145Z Actual:   1',
      '2025-06-06T18:51:00.6284303Z Test Run Successful.',
      '2025-06-06T18:51:00.6284716Z Total tests: 187',
      '2025-06-06T18:51:00.6285019Z      Passed: 187',
      "2025-06-06T18:51:02.3435990Z 2025-06-06T18:51:02: The report file pattern '**/coverage.opencover.xml' found no matching files.",
      '2025-06-06T18:51:02.3539690Z ##[error]Failed to execute ReportGenerator global tool',
    ]);
    expect(passed.category).not.toBe('test_failure');
    // Two test projects (https://learn.microsoft.com/dotnet/core/tools/dotnet-test): the first fails,
    // the second passes; the failure stands.
    const failedFirst = diagnoseLines([
      '  Failed Shop.Tests.CartTests.AppliesDiscount [12 ms]',
      '  Error Message:',
      '   Assert.Equal() Failure: Values differ',
      'Failed!  - Failed:     1, Passed:    41, Skipped:     0, Total:    42, Duration: 1 s - Shop.Tests.dll (net8.0)',
      'Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12, Duration: 80 ms - Shop.Api.Tests.dll (net8.0)',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(failedFirst.category).toBe('test_failure');
    // Jest prints a missed coverage threshold before its all-passed summary
    // (https://jestjs.io/docs/configuration#coveragethreshold-object): the threshold failed the run.
    const coverage = diagnoseLines([
      '$ npx jest --ci --coverage',
      'Jest: "global" coverage threshold for lines (80%) not met: 72.5%',
      'Test Suites: 12 passed, 12 total',
      'Tests:       148 passed, 148 total',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(coverage.category).toBe('test_failure');
    // Its advice is about coverage, not about a failing test to rerun.
    expect(coverage.nextSteps[0]).toMatch(/coverage is below the threshold/);
    expect(coverage.nextSteps.join('\n')).not.toMatch(/first failing test/);
  });

  it('lets only the GitHub Actions step that failed vote, not an earlier step whose error a fallback absorbed', () => {
    // https://github.com/oppenpsy-rub/experiment-eye-40129/blob/5496ec85ac323a73b8e2be5e3bf9ff0e2a091ffa/0_build.txt:
    // `npm ci || npm install` failed over to npm install; the job failed later, packaging.
    const d = diagnoseLines([
      '2025-12-04T15:30:43.5817270Z ##[group]Run npm ci --no-audit --no-fund || npm install --no-audit --no-fund',
      '2025-12-04T15:30:43.5859120Z ##[endgroup]',
      '2025-12-04T15:30:46.1900160Z npm error code EUSAGE',
      '2025-12-04T15:30:46.1913610Z npm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.',
      '2025-12-04T15:30:52.9669410Z added 395 packages in 7s',
      '2025-12-04T15:31:12.8859150Z ##[group]Run npx electron-builder --projectDir=. --mac dmg zip --publish=never',
      '2025-12-04T15:31:12.8870000Z ##[endgroup]',
      '2025-12-04T15:31:14.7625620Z [beforePack] main.js exists: false',
      '2025-12-04T15:31:18.6616390Z   ⨯ Application entry file "main.js" in the "/Users/runner/work/x/x/electron-dist/mac-arm64/X.app/Contents/Resources/app.asar" does not exist. Seems like a wrong configuration.',
      '2025-12-04T15:31:18.7208990Z ##[error]Process completed with exit code 1.',
    ]);
    expect(d.category).toBe('script_error');
    expect(d.evidence[0]?.text).toMatch(/Application entry file "main.js"/);
  });

  it("keeps 'timeout' for the CI system stopping the job, not for a script's own wait", () => {
    const waited = [
      '$ ./scripts/wait-for-api.sh https://staging.example.com/health',
      'Attempt 40/40: API not ready yet',
      'ERROR: timed out after 40 attempts waiting for https://staging.example.com/health',
      'ERROR: Job failed: exit code 1',
    ].join('\n');
    expect(diagnose(distillLog(waited)).category).not.toBe('timeout');
    // The runner's words, from https://gitlab.com/gitlab-org/gitlab/-/merge_requests/153515 (limits:
    // https://docs.gitlab.com/ci/pipelines/settings/#set-a-limit-for-how-long-jobs-can-run).
    const stopped = [
      '# [RSpecRunTime] RSpec elapsed time: 81 minutes 28.11 seconds. Current RSS: ~1373M.',
      'Terminated',
      'WARNING: step_script could not run to completion because the timeout was exceeded. For more control over job and script timeouts see: https://docs.gitlab.com/ee/ci/runners/configure_runners.html#set-script-and-after_script-timeouts',
      'ERROR: Job failed: execution took longer than 1h30m0s seconds',
    ].join('\n');
    expect(diagnose(distillLog(stopped)).category).toBe('timeout');
  });

  it('quotes the first full-disk error, not the post-build steps that also hit it', () => {
    // https://github.com/labri-progress/cidiff/blob/3cad9e8e4278e0eea38551b4f71cc1cf08bd9d14/data/breakages/nopol_1590/fail.log: the checkout fails on a full disk, then a Jenkins post-build step fails the same way
    const log = realDevLog('jenkins-nopol-checkout-no-space-left');
    const d = diagnose(distillLog(log));
    expect(d.category).toBe('script_error');
    // The checkout (line 26) is where the disk ran out; the post-build IOException (line 66) follows.
    expect(d.evidence[0]?.message).toContain('No space left on device');
    expect(d.evidence[0]?.line).toBeLessThan(40);
  });

  it.each([
    // https://github.com/travis-ci/travis-ci/issues/6512
    [
      'Travis',
      'No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself.',
    ],
    // https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/taskcluster-only.log.gz
    ['Taskcluster', '[taskcluster:error] Task aborted - max run time exceeded'],
  ])("recognises %s's own timeout", (_system, line) => {
    expect(
      diagnoseLines(['$ ./run-tests.sh', 'test_a ... ok', 'error: retrying connection to db', line])
        .category,
    ).toBe('timeout');
  });

  it('quotes the failing test first, not an earlier incidental error', () => {
    // https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/C%23/NancyFx%40Nancy/failed/375800180.log
    const d = diagnoseLines([
      '/Users/travis/.travis/job_stages: line 476: yarn: command not found',
      '$ ./build.sh',
      '\x1b[m\x1b[31;1m    Nancy.Testing.Tests.BrowserFixture.Should_return_JSON_serialized_form [FAIL]',
      '',
      '\x1b[m\x1b[37m      Assert.Equal() Failure',
      'Done. Your build exited with 1.',
    ]);
    expect(d.category).toBe('test_failure');
    expect(d.evidence[0]!.text).toContain('Should_return_JSON_serialized_form [FAIL]');
  });

  it("does not let a browser's console errors outvote the harness verdict", () => {
    // https://github.com/mozilla/treeherder/blob/dc3080dd746d4732d5e06c0272471834d4639da0/tests/sample_data/logs/mochitest-fail.log.gz
    const noise =
      "[task 2025-02-13T10:54:06.706Z] 10:54:06     INFO - GECKO(7098) | JavaScript error: , line 0: NotFoundError: No such JSProcessActor 'DevToolsProcess'";
    const d = diagnoseLines([
      noise,
      noise.replace('10:54:06', '10:54:07'),
      '[task 2025-02-13T11:00:27.837Z] 11:00:27     INFO - TEST-UNEXPECTED-FAIL | devtools/client/webconsole/test/browser/browser_console_enable_network_monitoring.js | A promise chain failed to handle a rejection',
      noise.replace('10:54:06', '11:00:28'),
    ]);
    expect(d.category).toBe('test_failure');
    expect(d.evidence[0]!.text).toContain('TEST-UNEXPECTED-FAIL');
  });

  it("quotes the failing tool's own last words, not the CI system's verdict, when no rule knows the tool", () => {
    // https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Lua/luvit%40luvit/failed/232600361.log
    const d = diagnoseLines([
      '$ make',
      'using luvi from: /home/travis/build/luvit/luvit/luvi',
      'fetching: 1 object',
      'fail: [string "bundle:libs/codec.lua"]:123: No such hash: 31b8c996c762b151bedbd7f0e5ad12c2ababf3cd',
      'stack traceback:',
      "\t[C]: in function 'assert'",
      '\t[string "bundle:libs/codec.lua"]:123: in function \'read\'',
      '',
      'make: *** [lit] Error 255',
      '',
      'travis_time:end:20208a80:start=1494884029718450140,finish=1494884033034515162,duration=3316065022',
      'The command "make" exited with 2.',
    ]);
    // The progress lines before the message and the frames after it are left out.
    expect(d.evidence[0]!.text).toContain('No such hash: 31b8c996');
    expect(d.evidence.map((e) => e.text)).not.toContain('fetching: 1 object');
  });

  it("reads past Gradle's help lines and task count to the paragraph that says what went wrong", () => {
    // https://github.com/kingjjy-debug/my-android-app/blob/61e3684f1a644aeabe83111e68b83ae41522b7e2/ci.log
    const d = diagnoseLines([
      '##[group]Run ./gradlew assembleDebug',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':app:processDebugMainManifest'.",
      '> Manifest merger failed with multiple errors, see logs',
      '',
      '13 actionable tasks: 13 executed',
      '* Try:',
      '> Run with --stacktrace option to get the stack trace.',
      '> Run with --info or --debug option to get more log output.',
      '> Get more help at https://help.gradle.org.',
      '',
      'BUILD FAILED in 12s',
      '##[error]Process completed with exit code 1.',
    ]);
    expect(d.category).toBe('compile_error');
    expect(d.evidence[0]!.text).toBe('> Manifest merger failed with multiple errors, see logs');
    expect(
      distillLog(
        [
          '$ ./gradlew test',
          "Execution failed for task ':app:x'.",
          '> Something odd',
          '',
          '13 actionable tasks: 13 executed',
          '* Try:',
          '> Get more help at https://help.gradle.org.',
          '',
          'BUILD FAILED in 12s',
          'The command "./gradlew test" exited with 1.',
        ].join('\n'),
      ).lastWords.map((w) => w.text),
    ).toEqual([
      "Execution failed for task ':app:x'.",
      '> Something odd',
      '13 actionable tasks: 13 executed',
    ]);
  });

  it("reads past yarn's own verdict to the message above it", () => {
    // https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/CoffeeScript/postcss%40autoprefixer/failed/462651213.log
    const d = diagnoseLines([
      '$ yarn test',
      "[05:26:24] Finished 'default' after 2.65 μs",
      '',
      '  Package size limit has exceeded by 934 B',
      '  Package size: 103.91 KB',
      '  Size limit:   103 KB',
      '  With all dependencies, minified and gzipped',
      '',
      'error Command failed with exit code 3.',
      'info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.',
      'The command "yarn test" exited with 1.',
    ]);
    expect(d.category).toBe('script_error');
    expect(d.evidence[0]!.text).toBe('Package size limit has exceeded by 934 B');
  });

  it("counts npm's 'Test failed. See above' as a verdict, so what it points above is quoted", () => {
    // https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Perl/jlord%40git-it-electron/failed/189032546.log
    const d = diagnoseLines([
      '$ npm test',
      '  /home/travis/build/jlord/git-it-electron/menus/darwin-menu.js:0:0: /home/travis/build/jlord/git-it-electron/node_modules/babel-eslint/babylon-to-esprima/toToken.js:44',
      '    token.value = `/${value.pattern}/${value.flags}`;',
      '                  ^',
      'Unexpected token ILLEGAL',
      'npm ERR! Test failed.  See above for more details.',
      'The command "npm test" exited with 1.',
    ]);
    const quoted = d.evidence.slice(0, 3).map((e) => e.text);
    expect(quoted).toContain('Unexpected token ILLEGAL');
    expect(quoted).toContain('token.value = `/${value.pattern}/${value.flags}`;');
  });
});
