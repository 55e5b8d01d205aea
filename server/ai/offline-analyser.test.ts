import { describe, expect, it } from 'vitest';
import { distillLog } from './distill/log-distiller.ts';
import type { FailureCategory } from './distill/line-rules.ts';
import type { JobContext } from './job-context.ts';
import { minimalContext } from './job-context.ts';
import { fence } from './markdown.ts';
import { diagnose } from './offline/diagnosis.ts';
import { analyseOffline } from './offline/report.ts';
import { answerOffline } from './offline/follow-up.ts';
import { loadCorpus } from './testing/corpus/load-corpus.ts';

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

const corpus = loadCorpus();
const log = (name: string) => distillLog(corpus.find((c) => c.case.name === name)!.raw);

const context: JobContext = {
  ...minimalContext({
    projectId: 7,
    pipelineId: 300,
    jobId: 9001,
    jobName: 'test:unit',
    stage: 'test',
  }),
  ref: 'main',
  commit: {
    sha: 'b'.repeat(40),
    shortId: 'bbbbbbbb',
    title: 'Apply discounts before tax',
    author: 'Ada',
  },
  previousSuccess: {
    jobId: 8990,
    pipelineId: 290,
    finishedAt: '2026-11-20T10:00:00Z',
    durationSec: 80,
    commit: { sha: 'a'.repeat(40), shortId: 'aaaaaaaa', title: 'Bump deps', author: 'Lin' },
  },
};

describe('offline analyser', () => {
  it('names the right root-cause category for every corpus log', () => {
    const wrong: string[] = [];
    for (const c of corpus) {
      const expected = EXPECTED[c.case.name];
      expect(expected, `no expectation for ${c.case.name}`).toBeDefined();
      const got = diagnose(distillLog(c.raw)).category;
      if (got !== expected) wrong.push(`${c.case.name}: ${got} (expected ${expected})`);
    }
    expect(wrong).toEqual([]);
  });

  it('writes an analysis naming the failing step, quoting decisive lines and suggesting next steps', () => {
    const text = analyseOffline(log('jest-assertion'), context);
    expect(text).toContain(
      '**Failing step:** `npm test -- --ci --reporters=default` in the `step_script` section of job `test:unit` (stage `test`).',
    );
    expect(text).toContain('**Root cause category:** Test failure.');
    expect(text).toContain('Expected: 90.45');
    expect(text).toContain('Received: 100.5');
    expect(text).toContain('`src/cart/totals.test.ts:43`');
    expect(text).toMatch(
      /\*\*What changed:\*\* The last successful run of this job on `main` was job #8990/,
    );
    expect(text).toMatch(/\*\*Next steps:\*\*\n1\. /);
    expect(text).toContain('git log aaaaaaaa..bbbbbbbb');
    // Deterministic: same input, same answer.
    expect(analyseOffline(log('jest-assertion'), context)).toBe(text);
  });

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

  it('explains a clone failure as an authentication problem before any script ran', () => {
    const text = analyseOffline(log('git-auth-failure'));
    expect(text).toContain('fetching the repository (`get_sources`)');
    expect(text).toContain('Permission or authentication problem');
    expect(text).toContain('fatal: Authentication failed');
  });

  it('says so when the log is empty', () => {
    expect(analyseOffline(distillLog(''))).toMatch(/The job log is empty/);
  });

  it('answers follow-ups by intent, from the log', () => {
    const d = log('jest-assertion');
    const ask = (question: string) =>
      answerOffline({ question, distilled: d, context, analysis: 'previous' });
    expect(ask('How do I fix this?')).toMatch(/To fix this test failure:\n1\. /);
    expect(ask('Which file is it in?')).toContain('`src/cart/totals.test.ts:43`');
    expect(ask('What changed since the last green build?')).toContain('job #8990 in pipeline #290');
    expect(ask('Is this flaky?')).toMatch(/^Probably not/);
    expect(ask('Why did it fail?')).toContain('**test failure**');
    expect(ask('anything about discount?')).toContain('applies the percentage discount before tax');
    expect(ask('anything about kubernetes?')).toMatch(/The log does not mention “kubernetes”/);
  });

  it('calls network failures possibly flaky', () => {
    const answer = answerOffline({
      question: 'Should I just retry?',
      distilled: log('npm-registry-econnreset'),
      context: undefined,
      analysis: '',
    });
    expect(answer).toMatch(/^Possibly: a dependency or network problem is often transient/);
  });

  it('fences text containing backticks safely', () => {
    expect(fence('a ``` b')).toBe('````text\na ``` b\n````');
  });
});
