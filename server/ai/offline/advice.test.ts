import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import type { JobContext } from '../job-context.ts';
import { diagnoseLines } from '../testing/documented-lines.ts';
import {
  distilledCase as log,
  JOB_AFTER_GREEN_RUN as context,
  realDevLog,
} from '../testing/offline-fixtures.ts';
import { diagnose } from './diagnosis.ts';
import { answerOffline } from './follow-up.ts';
import { analyseOffline } from './report.ts';
import { loadRealLogs } from '../testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../testing/real-logs/skip-without-corpus.ts';

// Advice is checked on what a reader sees: the diagnosis's next steps, or the written analysis.
describe('offline advice', () => {
  it('does not offer an empty commit range when the last green run built the same commit', () => {
    const sameCommit: JobContext = {
      ...context,
      previousSuccess: { ...context.previousSuccess!, commit: context.commit },
    };
    const text = analyseOffline(log('jest-assertion'), sameCommit);
    expect(text).not.toContain('git log');
    expect(text).toContain('The last green run (job #8990) built this same commit');
    // The test-failure steps already say to retry once; the advice does not repeat it.
    expect(text.match(/retry/gi)).toHaveLength(1);
    // A compile error on a commit that built before is the toolchain's, not the code's.
    const build = analyseOffline(log('tsc-compile-errors'), sameCommit);
    expect(build).toContain('the code is not what changed');
    expect(build).not.toContain('Check whether this commit changed');
    expect(analyseOffline(log('tsc-compile-errors'), context)).toContain(
      'Check whether this commit changed',
    );
  });

  it('gives the advice of the gate or deploy tool that failed', () => {
    // https://docs.npmjs.com/cli/v10/commands/npm-audit: yarn's and pnpm's audit summaries.
    const audit = diagnoseLines([
      '$ yarn audit --level high',
      '3 vulnerabilities found - Packages audited: 1204',
      'Severity: 1 Moderate | 2 High',
      'ERROR: Job failed: exit code 2',
    ]);
    expect(audit.category).toBe('compile_error');
    expect(audit.nextSteps[0]).toMatch(/dependency audit found known vulnerabilities/);
    // https://developer.hashicorp.com/terraform/language/state/locking
    const lock = diagnoseLines([
      '$ terraform apply -auto-approve',
      '│ Error: Error acquiring the state lock',
      '│ Lock Info:',
      '│   ID:        9db0f4f6-3f1a-4c1e-9a55-2f4a1d2b7c11',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(lock.category).toBe('script_error');
    expect(lock.nextSteps[0]).toMatch(/holds the state lock/);
  });

  // Each checker runs without changing anything remote: https://developer.hashicorp.com/terraform/cli/commands/validate
  // (`init -backend=false` in automation), https://helm.sh/docs/helm/helm_lint/,
  // https://docs.docker.com/reference/cli/docker/compose/config/, https://yamllint.readthedocs.io/.
  it.each([
    ['helm-yaml-error', /`helm lint <chart>`/],
    ['docker-compose-yaml', /`docker compose config`/],
  ])('names the checker of the configuration that failed and no other stack’s: %s', (name, own) => {
    const steps = diagnose(log(name)).nextSteps.join('\n');
    expect(steps).toMatch(own);
    const others = [
      /helm lint/,
      /docker compose config/,
      /terraform validate/,
      /yamllint/,
      /CI Lint/,
    ];
    expect(others.filter((o) => !o.test(own.source) && o.test(steps))).toEqual([]);
  });

  it('names no configuration checker a real log’s tool does not use', () => {
    // The old advice listed yamllint, helm, terraform, compose and CI Lint for every configuration
    // error: a Jenkinsfile, a Podfile or a Dockerfile's COPY sent its reader to other stacks' tools.
    const checkers: [RegExp, RegExp][] = [
      [/terraform validate/, /terraform|│ Error:/i],
      [/helm lint/, /\bhelm\b|Chart\.ya?ml/],
      [/docker compose config/, /docker[- ]compose|compose\.ya?ml/],
      [
        /yamllint/,
        /yaml: line \d+|YAMLException|did not find expected|while (?:parsing|scanning)/i,
      ],
      [/CI Lint/, /\.gitlab-ci\.ya?ml/],
      [/mvn validate/, /POM/],
      [/docker build --check/, /dockerfile parse error|unknown instruction/i],
    ];
    skipWithoutRealLogs();
    const wrong: string[] = [];
    let configErrors = 0;
    for (const real of loadRealLogs()) {
      const distilled = distillLog(real.text);
      const d = diagnose(distilled);
      if (d.category !== 'config_yaml') continue;
      configErrors++;
      const said = d.nextSteps.join('\n');
      const seen = `${distilled.failingCommand ?? ''}\n${distilled.decisive.map((l) => l.text).join('\n')}`;
      for (const [checker, tool] of checkers) {
        if (checker.test(said) && !tool.test(seen)) wrong.push(`${real.id}: ${checker.source}`);
      }
    }
    expect(configErrors).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });

  it.each([
    [
      'travis-vis-libtermkey-checksum',
      'dependency_network',
      /update the pinned version and checksum/,
    ],
    ['travis-openface-models-tls-cert-mismatch', 'dependency_network', /CA bundle/],
    [
      'gha-spring-boot-admin-invalid-target-release-17',
      'config_yaml',
      /JDK in the job’s image is older/,
    ],
    ['jenkins-nopol-checkout-no-space-left', 'script_error', /disk is full/],
  ])('gives advice that fits the cause on a real log: %s', (id, category, advice) => {
    const d = diagnose(distillLog(realDevLog(id)));
    expect(d.category).toBe(category);
    expect(d.nextSteps.join('\n')).toMatch(advice);
    expect(d.nextSteps.join('\n')).not.toMatch(/Retry the job: network errors/);
  });

  it('tells pip’s unreachable index from a version that does not exist', () => {
    // pip prints the versions the index offered; "none" after urllib3's connection retries means
    // it reached no index (pip's resolver: "Could not find a version that satisfies …").
    const retry = (total: number) =>
      `WARNING: Retrying (Retry(total=${total}, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3c2a1b5d90>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/httpx/`;
    const offline = diagnoseLines([
      '$ pip install -r requirements.txt',
      retry(4),
      retry(0),
      'ERROR: Could not find a version that satisfies the requirement httpx==0.27.0 (from versions: none)',
      'ERROR: No matching distribution found for httpx==0.27.0',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(offline.category).toBe('dependency_network');
    expect(offline.nextSteps[0]).toMatch(/^Retry the job: network errors/);
    const missing = diagnoseLines([
      '$ pip install -r requirements.txt',
      'ERROR: Could not find a version that satisfies the requirement httpx==9.9.9 (from versions: 0.26.0, 0.27.0, 0.27.2)',
      'ERROR: No matching distribution found for httpx==9.9.9',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(missing.nextSteps.join('\n')).not.toMatch(/network errors/);
    expect(missing.nextSteps.join('\n')).toMatch(/pip index versions/);
  });

  it('reads Bundler’s and CocoaPods’ unreachable hosts as network failures, not versions to fix', () => {
    // Bundler's HTTPError ("Could not reach host …", bundler/fetcher.rb) and cocoapods-core's
    // cdn_source.rb ("CDN: trunk URL couldn't be downloaded: … Response: …", curl's words).
    for (const lines of [
      [
        '$ bundle install',
        'Could not reach host index.rubygems.org. Check your network connection and try again.',
      ],
      [
        '$ bundle exec pod install',
        "[!] CDN: trunk URL couldn't be downloaded: https://cdn.cocoapods.org/CocoaPods-version.yml Response: Couldn't resolve host name",
      ],
    ]) {
      const d = diagnoseLines([...lines, 'ERROR: Job failed: exit code 1']);
      expect(d.category).toBe('dependency_network');
      expect(d.nextSteps[0]).toMatch(/^Retry the job: network errors/);
    }
  });

  it("says a registry's pull rate limit is not a transient network error", () => {
    // The message as Docker Hub sends it: https://docs.docker.com/docker-hub/usage/pulls/
    const d = diagnoseLines([
      '$ docker pull node:22',
      'Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(d.category).toBe('dependency_network');
    expect(d.nextSteps[0]).toMatch(/rate-limiting/);
  });

  it('says what to do about a native build of a dependency and an artifacts archive over the limit', () => {
    // https://doc.rust-lang.org/cargo/reference/build-scripts.html
    const native = diagnoseLines([
      '$ cargo build --release',
      '   Compiling openssl-sys v0.9.80',
      'error: failed to run custom build command for `openssl-sys v0.9.80`',
      '  Could not find directory of OpenSSL installation, and this `-sys` crate cannot proceed without this knowledge.',
      'ERROR: Job failed: exit code 101',
    ]);
    expect(native.category).toBe('dependency_network');
    expect(native.nextSteps.join('\n')).toMatch(/system library or tool the image lacks/);
    // The runner's words: https://gitlab.com/gitlab-org/gitlab/-/issues/472984
    const artifacts = diagnoseLines([
      'Uploading artifacts for successful job',
      'Uploading artifacts...',
      'dist/: found 48213 matching artifact files and directories',
      'ERROR: Uploading artifacts as "archive" to coordinator... 413 Request Entity Too Large  id=4242 responseStatus=413 Request Entity Too Large status=413',
      'FATAL: too large',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(artifacts.category).toBe('config_yaml');
    expect(artifacts.nextSteps[0]).toMatch(/maximum artifacts size/);
  });

  it('says what to do about a database the build cannot reach, a drifted Python dependency, a signing keystore, a Docker build context and an aborted build', () => {
    const advice = (id: string) => {
      const d = diagnose(distillLog(realDevLog(id)));
      return { category: d.category, steps: d.nextSteps.join('\n') };
    };
    // The build prerenders pages that query a database the builder cannot reach: not "retry".
    expect(advice('vercel-synthalyst-prisma-db-unreachable-prerender')).toMatchObject({
      category: 'dependency_network',
      steps: expect.stringMatching(/keep the database out of the build/),
    });
    expect(advice('render-seventhtime-flask-werkzeug-url-quote')).toMatchObject({
      category: 'dependency_network',
      steps: expect.stringMatching(/Pin that package/),
    });
    expect(advice('gha-radio-partition-keytool-keystore-not-enough-content')).toMatchObject({
      category: 'permission_auth',
      steps: expect.stringMatching(/signing keystore could not be read/),
    });
    expect(advice('coolify-ozean-storybook-docker-context-not-found')).toMatchObject({
      category: 'config_yaml',
      steps: expect.stringMatching(/not in the build context/),
    });
    // A Jenkins build aborted by hand while `java -jar` ran in the foreground: not "raise the limit".
    const aborted = advice('jenkins-casestudy-spring-boot-java-jar-blocks-aborted');
    expect(aborted).toMatchObject({
      category: 'timeout',
      steps: expect.stringMatching(/stopped this build/),
    });
    expect(aborted.steps).not.toMatch(/raise `timeout:`/);
  });

  it('advises resolving an npm peer conflict instead of retrying', () => {
    // https://github.com/storybookjs/storybook/issues/15785
    const lines = [
      '$ npm ci',
      'npm ERR! code ERESOLVE',
      'npm ERR! ERESOLVE unable to resolve dependency tree',
      'npm ERR! ',
      'npm ERR! While resolving: custom-hooks@0.1.0',
      'npm ERR! Found: react@undefined',
      'npm ERR! node_modules/react',
      'npm ERR!   react@"*" from the root project',
      'npm ERR! ',
      'npm ERR! Could not resolve dependency:',
      'npm ERR! peer react@"17.0.2" from react-dom@17.0.2',
      'npm ERR! node_modules/react-dom',
      'npm ERR!   react-dom@"*" from the root project',
      'npm ERR! ',
      'npm ERR! Fix the upstream dependency conflict, or retry',
      'npm ERR! this command with --force, or --legacy-peer-deps',
      'npm ERR! to accept an incorrect (and potentially broken) dependency resolution.',
    ];
    const d = diagnoseLines(lines);
    expect(d.category).toBe('dependency_network');
    expect(d.nextSteps[0]).toMatch(/peer-dependency conflict, not a network problem/);
    expect(d.nextSteps.join('\n')).not.toMatch(/^Retry the job/m);
    const flaky = answerOffline({
      question: 'Is this flaky? Should I retry?',
      distilled: distillLog(lines.join('\n')),
      context: undefined,
      analysis: '',
    });
    expect(flaky).toMatch(/^Probably not/);
  });

  it('gives Maven advice Maven has: -U for a cached failure, no lock file to regenerate', () => {
    // Maven's own words when it will not retry (https://maven.apache.org/ref/current/maven-embedder/cli.html: -U forces updates).
    const cached = diagnoseLines([
      '$ mvn -B verify',
      '[ERROR] Failed to execute goal on project app: Could not resolve dependencies for project com.example:app:jar:1.0: Failure to find com.example:lib:jar:2.1 in https://repo.maven.apache.org/maven2 was cached in the local repository, resolution will not be reattempted until the update interval of central has elapsed or updates are forced -> [Help 1]',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(cached.category).toBe('dependency_network');
    expect(cached.nextSteps.join('\n')).toContain('`mvn -U`');
    expect(cached.nextSteps.join('\n')).not.toMatch(/lock file|Retry the job/);
    // Maven Resolver 1.9's wording (Maven 3.9), as the demo's Maven jobs print it.
    const resolver19 = diagnoseLines([
      '$ mvn -B -q -s ci_settings.xml dependency:go-offline',
      '[ERROR] Failed to execute goal on project billing-service: Could not resolve dependencies for project com.acme:billing-service:jar:2.8.0-SNAPSHOT',
      '[ERROR] dependency: com.acme.platform:payments-client:jar:1.14.0 (compile)',
      '[ERROR] \tcom.acme.platform:payments-client:jar:1.14.0 was not found in https://gitlab.acme.example/api/v4/groups/acme/-/packages/maven during a previous attempt. This failure was cached in the local repository and resolution is not reattempted until the update interval of gitlab-maven has elapsed or updates are forced',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(resolver19.nextSteps.join('\n')).toContain('`mvn -U`');
    const missing = diagnoseLines([
      '$ mvn -B verify',
      '[ERROR] Failed to execute goal on project app: Could not resolve dependencies for project com.example:app:jar:1.0: Could not find artifact com.example:lib:jar:2.1 in central (https://repo.maven.apache.org/maven2) -> [Help 1]',
      'ERROR: Job failed: exit code 1',
    ]);
    expect(missing.category).toBe('dependency_network');
    expect(missing.nextSteps.join('\n')).not.toMatch(/lock file/);
  });
});
