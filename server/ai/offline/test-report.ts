import type { JobTestFailure } from '../job-context.ts';
import { testVerdict } from '../test-failures.ts';

/** Failed tests the offline answer names one by one (the rest are counted). */
const MAX_NAMED = 5;

/**
 * The assertion a trace reports, in each runner's own format: pytest's `E` lines, Jest's
 * `expect(…)` with Expected/Received, a JVM exception line, a Go `_test.go:N:` message, a Rust
 * panic's assertion; else its first line.
 */
export function assertionOf(trace: string): string | undefined {
  const lines = trace.split('\n').map((l) => l.trimEnd());
  const pytest = lines.find((l) => /^E\s+\S/.test(l));
  if (pytest) return pytest.replace(/^E\s+/, '');
  const jest = lines.findIndex((l) => /^\w*Error: expect\(/.test(l));
  if (jest >= 0) {
    const detail = lines
      .slice(jest + 1, jest + 6)
      .filter((l) => /^(Expected|Received)/.test(l.trim()))
      .map((l) => l.trim());
    return [lines[jest]!.replace(/ \/\/.*$/, ''), ...detail].join(' — ');
  }
  const go = lines.map((l) => /_test\.go:\d+: (.+)$/.exec(l)?.[1]).find(Boolean);
  if (go) return go;
  // RSpec's `eq` message: `expected: 18` over `     got: 20` (rspec-expectations).
  const rspec = lines.findIndex((l) => /^\s*expected: /.test(l));
  if (rspec >= 0 && /^\s*got: /.test(lines[rspec + 1] ?? ''))
    return `${lines[rspec]!.trim()} — ${lines[rspec + 1]!.trim()}`;
  const rust = lines.findIndex((l) => /^assertion .* failed/.test(l));
  if (rust >= 0)
    return [lines[rust], ...lines.slice(rust + 1, rust + 3).map((l) => l.trim())].join(' — ');
  return lines.find((l) => l.trim() !== '' && !/^\s*(at |def |=== RUN)/.test(l))?.trim();
}

/** Where the failing assertion is (file:line), from the trace's frames, test code first. */
export function locationOf(trace: string, file: string | null): string | undefined {
  const pytest = /^(\S+\.py):(\d+): \w+/m.exec(trace);
  if (pytest) return `${pytest[1]}:${pytest[2]}`;
  if (file) {
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const own = new RegExp(`${escaped}:(\\d+)(?::(\\d+))?`).exec(trace);
    if (own) return `${file}:${own[1]}${own[2] ? `:${own[2]}` : ''}`;
  }
  const jvm = [...trace.matchAll(/^\s*at ([\w.$]+)\((\w+\.(?:java|kt)):(\d+)\)/gm)].find(
    (m) => !/^(org\.junit|org\.opentest4j|java\.|jdk\.|sun\.)/.test(m[1]!),
  );
  if (jvm) return `${jvm[2]}:${jvm[3]} (${jvm[1]})`;
  const go = /(\w+_test\.go):(\d+):/.exec(trace);
  if (go) return `${go[1]}:${go[2]}`;
  const rust = /panicked at ([^\s:]+\.rs):(\d+):(\d+)/.exec(trace);
  if (rust) return `${rust[1]}:${rust[2]}:${rust[3]}`;
  const js = [...trace.matchAll(/\(([^()\s]+\.[cm]?[jt]sx?):(\d+):(\d+)\)/g)].find(
    (m) => !m[1]!.includes('node_modules'),
  );
  return js ? `${js[1]}:${js[2]}:${js[3]}` : undefined;
}

/**
 * The offline answer's lines about the job's failed tests, from GitLab's JUnit report: which tests,
 * the assertion and its location from each trace, and whether each is new, known broken on the
 * default branch, or flaky. Empty when the report named none.
 */
export function failedTestLines(tests: readonly JobTestFailure[] | undefined): string[] {
  if (!tests || tests.length === 0) return [];
  const lines = [
    `**Failed tests** (GitLab's JUnit report, ${tests.length}):`,
    ...tests.slice(0, MAX_NAMED).map((t) => {
      const assertion = t.trace ? assertionOf(t.trace) : undefined;
      const where = t.trace ? locationOf(t.trace, t.file) : undefined;
      return [
        `- \`${t.name}\` (${t.classname})`,
        assertion ? ` — ${assertion}` : '',
        where ? ` at \`${where}\`` : '',
        ` — ${testVerdict(t)}.`,
      ].join('');
    }),
  ];
  if (tests.length > MAX_NAMED) lines.push(`- … and ${tests.length - MAX_NAMED} more.`);
  const broken = tests.filter((t) => t.knownFailingSince).length;
  const flaky = tests.filter((t) => t.flakes > 0 && !t.knownFailingSince).length;
  if (broken === tests.length)
    lines.push(
      '',
      'These tests already fail on the default branch: this change is unlikely to be the cause; fix or quarantine them there.',
    );
  else if (flaky === tests.length)
    lines.push(
      '',
      'Every failed test is known flaky: a retry is likely to pass, but the flakes deserve a fix.',
    );
  return [...lines, ''];
}
