import { describe, expect, it } from 'vitest';
import { loadRealLogs, realLogsPresent } from '../ai/testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../ai/testing/real-logs/skip-without-corpus.ts';
import { failureSignature, maskLine } from './failure-signature.ts';
import { simulatedFailureLog, type SimulatedFailure } from './testing/simulated-log.ts';

describe('maskLine', () => {
  it.each([
    // What varies between runs goes; the words stay (a leading timestamp is a CI prefix: dropped).
    ['2026-11-28T13:46:04.123Z ERROR connection reset', 'ERROR connection reset'],
    [
      'dial tcp 10.0.3.17:5432: connect: connection refused',
      'dial tcp <ip>: connect: connection refused',
    ],
    ['connect ECONNREFUSED 127.0.0.1:38211', 'connect ECONNREFUSED <ip>'],
    [
      'listen tcp [::1]:8080: bind: address already in use',
      'listen tcp <ip>: bind: address already in use',
    ],
    ['GET http://localhost:41234/health failed', 'GET http://localhost/<p> failed'],
    [
      'curl: (7) Failed to connect to localhost:39123',
      'curl: (#) Failed to connect to localhost:<port>',
    ],
    ['--- FAIL: TestCache (1.52s)', '--- FAIL: TestCache (<d>)'],
    ['context deadline exceeded after 1m32.5s', 'context deadline exceeded after <d>'],
    ['request 3f2a9c1e-4b7d-4e2a-9c3f-0a1b2c3d4e5f timed out', 'request <id> timed out'],
    ['fatal: bad object 9f3c2a17d4e8b6a5c3f1e2d4b6a8c0e1f3a5b7c9', 'fatal: bad object <h>'],
    ["Cannot find module '/builds/acme/api/src/db.ts'", "Cannot find module '<p>'"],
    // A registry's host says which registry is down; the package path does not.
    [
      'npm error 503 Service Unavailable - GET https://registry.npmjs.org/esbuild/-/esbuild-0.21.5.tgz',
      'npm error # Service Unavailable - GET https://registry.npmjs.org/<p>',
    ],
    ['error: token a8Hk2mQ9x7Lp3Zr4Tq1V expired', 'error: token <id> expired'],
    // A test name is part of the error: kept even when it carries a digit or two.
    [
      'FAILED tests/test_api.py::test_parse_v2_headers',
      'FAILED tests/test_api.py::test_parse_v#_headers',
    ],
  ])('%s', (line, masked) => {
    expect(maskLine(line)).toBe(masked);
  });
});

// Logs the GitLab simulator serves (server/simulator/logs/), rendered for three projects.
const PROJECTS: Pick<
  SimulatedFailure,
  'projectId' | 'projectPath' | 'jobId' | 'seed' | 'startedAt'
>[] = [
  { projectId: 1, projectPath: 'acme/api', jobId: 101, seed: 1, startedAt: 1_764_000_000_000 },
  { projectId: 2, projectPath: 'acme/web', jobId: 202, seed: 7, startedAt: 1_764_100_000_000 },
  {
    projectId: 3,
    projectPath: 'globex/billing',
    jobId: 303,
    seed: 42,
    startedAt: 1_765_000_000_000,
  },
];
const signaturesOf = (f: Pick<SimulatedFailure, 'failure' | 'tool' | 'kind'>) =>
  PROJECTS.map((p) => failureSignature(simulatedFailureLog({ ...f, ...p }))?.signature);

describe('failureSignature on simulator logs', () => {
  it('is one signature for the same error in three projects, whatever the paths, times and numbers', () => {
    expect(
      new Set(signaturesOf({ failure: 'tsc-error', tool: 'tsc', kind: 'node-service' })),
    ).toEqual(
      new Set([
        "compile_error: src<p>(#): error TS#: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.",
      ]),
    );
    // The simulator's BuildKit fails its base-image pull in one of two ways (a DNS failure or
    // Docker Hub's 429): two errors, each one signature whatever the project.
    for (const signature of signaturesOf({
      failure: 'network',
      tool: 'docker-build',
      kind: 'node-service',
    }))
      expect([
        'dependency_network: ERROR: failed to do request: Head "https://registry-#.docker.io/<p>": dial tcp: lookup registry-#.docker.io on <ip>: no such host',
        expect.stringMatching(
          /^dependency_network: ERROR: failed to copy: httpReadSeeker: failed open: unexpected status code https:\/\/registry-#\.docker\.io\/<p> # Too Many Requests - Server message: toomanyrequests: /,
        ),
      ]).toContainEqual(signature);
    expect(
      new Set(signaturesOf({ failure: 'timeout', tool: 'go-test', kind: 'go-service' })),
    ).toEqual(new Set(['timeout: ERROR: Job failed: execution took longer than <d> seconds']));
  });

  it('gives two errors of one tool two signatures', () => {
    const [eresolve] = signaturesOf({
      failure: 'npm-eresolve',
      tool: 'npm-build',
      kind: 'node-service',
    });
    const [reset] = signaturesOf({ failure: 'network', tool: 'npm-build', kind: 'node-service' });
    expect(eresolve).toBe('dependency_network: npm error code ERESOLVE');
    expect(reset).toBe('dependency_network: npm error code ECONNRESET');
    // Two Go compile errors naming different symbols are different errors.
    const go = signaturesOf({ failure: 'go-compile', tool: 'go-build', kind: 'go-service' });
    expect(go[0]).toBe('compile_error: internal<p>:#:#: undefined: middleware.HealthChecks');
    expect(go[1]).toBe('compile_error: internal<p>:#:#: undefined: middleware.CircuitBreaker');
  });

  it('has no signature for an empty log', () => {
    expect(failureSignature('')).toBeNull();
    expect(failureSignature('\n  \n')).toBeNull();
  });

  it('keeps the decisive line as printed for the sample', () => {
    const [first] = PROJECTS;
    const s = failureSignature(
      simulatedFailureLog({ failure: 'tsc-error', tool: 'tsc', kind: 'node-service', ...first! }),
    );
    expect(s?.category).toBe('compile_error');
    expect(s?.sampleLine).toMatch(
      /^src\/[a-z-]+\/[a-z-]+\.ts\(\d+,\d+\): error TS2345: Argument of type/,
    );
  });
});

/**
 * The same log as another run of the same job would print it: other timestamps, commit, checkout
 * directory, durations and addresses. The error is the same, so the signature must be.
 */
function anotherRun(text: string): string {
  return text
    .replace(/\b\d{4}-\d\d-\d\d([T ])\d\d:\d\d:\d\d/g, (_m, t: string) => `2031-07-19${t}03:14:15`)
    .replace(/\b[0-9a-f]{40}\b/g, 'f00dfacecafe0123456789abcdef0123456789ab')
    .replace(/\/builds\/[\w.-]+\/[\w.-]+/g, '/builds/other-group/other-project')
    .replace(/\/home\/runner\/work\/([\w.-]+)\/\1\//g, '/home/runner/work/fork/fork/')
    .replace(/\b(\d+(?:\.\d+)?)(ms|s)\b/g, (_m, n: string, u: string) => `${Number(n) + 7}${u}`)
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}\b/g, '10.20.30.40');
}

// The real-log corpus (server/ai/testing/real-logs/): 583 failed jobs of public projects.
describe('failureSignature on the real-log corpus', () => {
  const logs = realLogsPresent ? loadRealLogs() : [];
  const byId = new Map(logs.map((l) => [l.id, l]));
  // Each log is distilled once for the whole file (583 logs take a few seconds).
  const memo = new Map<string, string | undefined>();
  const sig = (id: string) => {
    const log = byId.get(id);
    if (!log) throw new Error(`corpus entry ${id} missing`);
    if (!memo.has(id)) memo.set(id, failureSignature(log.text)?.signature);
    return memo.get(id);
  };
  const CORPUS_TIMEOUT_MS = 240_000;

  it(
    'gives every log the same signature in another run with other times, paths, hashes and numbers',
    () => {
      skipWithoutRealLogs();
      const changed = logs.filter(
        (l) => sig(l.id) !== failureSignature(anotherRun(l.text))?.signature,
      );
      expect(logs.length).toBe(583);
      expect(changed.map((l) => l.id)).toEqual([]);
      // Every log names an error.
      expect(logs.filter((l) => sig(l.id) === undefined).map((l) => l.id)).toEqual([]);
    },
    CORPUS_TIMEOUT_MS,
  );

  it('finds the same error in different projects', () => {
    skipWithoutRealLogs();
    // npm's peer-dependency conflict in two unrelated repositories.
    expect(sig('gha-rpglitch-npm-eresolve-vite8')).toBe(
      'dependency_network: npm error code ERESOLVE',
    );
    expect(sig('gha-devenv-vscode-npm-ci-eresolve-eslint10')).toBe(
      'dependency_network: npm error code ERESOLVE',
    );
    // A full disk on two Jenkins agents.
    expect(sig('jenkins-guava-2087')).toBe(sig('jenkins-guice-spoon-no-space-left'));
    expect(sig('jenkins-guava-2087')).toBe('script_error: [ERROR] No space left on device');
    // javac's missing symbol in three projects, at other files and lines.
    expect(
      new Set([
        sig('gha-grasscutter-javac-cannot-find-symbol'),
        sig('eas-adpg-react-native-svg-javac-cannot-find-symbol'),
        sig('gha-aetheris-android-javac-r-color-missing'),
      ]),
    ).toEqual(new Set(['compile_error: <p>:#: error: cannot find symbol']));
  });

  it('tells two different errors of one tool apart', () => {
    skipWithoutRealLogs();
    // Two TypeScript errors.
    expect(sig('gha-skylite-vue-tsc-possibly-null')).toBe(
      "compile_error: app<p>(#): error TS#: 'settings.value' is possibly 'null'.",
    );
    expect(sig('gha-somaterm-tauri-tsc-ts2673-private-constructor')).toMatch(
      /^compile_error: src<p>\(#\): error TS#: Constructor of class 'Store' is private/,
    );
    // Two ESLint rules.
    expect(sig('gha-colleco-mvp-eslint-no-undef')).toBe(
      "compile_error: #:# error 'setReceipts' is not defined no-undef",
    );
    expect(sig('vercel-tmdc-ui-nextjs-eslint-unused-vars')).toBe(
      "compile_error: #:# Error: 'isVariantMode' is assigned a value but never used. @typescript-eslint/no-unused-vars",
    );
    // Two npm failures: a lockfile out of sync is not a peer conflict.
    expect(sig('gha-vrcx-npm-ci-lockfile-out-of-sync')).not.toBe(
      sig('gha-rpglitch-npm-eresolve-vite8'),
    );
  });

  it(
    'groups the corpus into nearly as many signatures as logs',
    () => {
      skipWithoutRealLogs();
      const distinct = new Set(logs.map((l) => sig(l.id)));
      // 583 public failures of ~500 projects: 51 logs share a signature with another (the same
      // npm, Maven, javac, Jenkins or runner error), the rest are each their own error.
      expect(distinct.size).toBe(532);
    },
    CORPUS_TIMEOUT_MS,
  );
});
