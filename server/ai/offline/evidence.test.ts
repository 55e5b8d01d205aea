import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { loadRealLogs } from '../testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../testing/real-logs/skip-without-corpus.ts';
import { BOILERPLATE, diagnose } from './diagnosis.ts';
import { analyseOffline } from './report.ts';

describe('quoted evidence', () => {
  it("quotes what a timed-out job was doing, repeats folded (issue 25's e2e-tests)", () => {
    const lines = ['$ npx playwright test --project=chromium', 'Running 84 tests using 4 workers'];
    for (let i = 1; i <= 28; i++) lines.push(`[api] retrying request ${i} after ${i * 500}ms`);
    lines.push('ERROR: Job failed: execution took longer than 1h0m0s seconds');
    const answer = analyseOffline(distillLog(lines.join('\n')));
    expect(answer).toContain('execution took longer than 1h0m0s');
    expect(answer).toContain('[api] retrying request 28 after 14000ms   (×28)');
    expect(answer).toContain('$ npx playwright test --project=chromium');
  });

  it('quotes a Clippy lint before cargo’s closing summary, as a compile error', () => {
    // rustc's human emitter: the message, then `--> file:line:col` under it
    // (https://doc.rust-lang.org/rustc/json.html#diagnostics shows the same parts; Clippy's lints
    // are denied with `-D warnings`: https://doc.rust-lang.org/clippy/usage.html).
    const d = diagnose(
      distillLog(
        [
          '$ cargo clippy --all-targets --locked -- -D warnings',
          '    Checking search-indexer v0.14.0 (/builds/acme/search-indexer)',
          'error: this `if` has identical blocks',
          '   --> src/tokenizer.rs:109:18',
          '    |',
          '109 |       if ready {',
          '    |  ______________^',
          '    |',
          '    = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else',
          '    = note: `-D clippy::if-same-then-else` implied by `-D warnings`',
          '',
          'error: could not compile `search-indexer` (lib) due to 1 previous error',
          'ERROR: Job failed: exit code 101',
        ].join('\n'),
      ),
    );
    expect(d.category).toBe('compile_error');
    expect(d.evidence[0]!.text).toBe('error: this `if` has identical blocks');
    expect(d.locations[0]).toBe('src/tokenizer.rs:109:18');
  });

  it('points a timeout at what it was doing when it stopped, not at every file its log names', () => {
    const lines = ['$ go test -race -count=1 ./...'];
    for (const [file, n] of [
      ['circuit_breaker_test.go:70', 4],
      ['health_checks_test.go:289', 3],
      ['rate_limiting_test.go:145', 30],
    ] as const) {
      for (let i = 0; i < n; i++) {
        lines.push(`    ${file}: level=debug msg="handled request" status=200 dur=${i + 3}ms`);
      }
    }
    lines.push('ERROR: Job failed: execution took longer than 1h0m0s seconds');
    const d = diagnose(distillLog(lines.join('\n')));
    expect(d.category).toBe('timeout');
    expect(d.locations).toEqual(['rate_limiting_test.go:145']);
  });

  it('folds the same activity from different components into one quoted line with its count', () => {
    const lines = ['$ npx jest --ci', '  run `npm fund` for details'];
    const parts = ['dark_mode', 'cart_drawer', 'date_picker', 'search'];
    for (let i = 1; i <= 28; i++)
      lines.push(
        `    console.log  [2026-11-26T16:19:${String(i).padStart(2, '0')}.000Z] ${parts[i % 4]}: retrying request ${i} after ${(i * 37) % 500}ms`,
      );
    lines.push('ERROR: Job failed: execution took longer than 1h0m0s seconds');
    const quoted = diagnose(distillLog(lines.join('\n'))).evidence.map((e) =>
      e.occurrences > 1 ? `${e.text} ×${e.occurrences}` : e.text,
    );
    expect(quoted).toEqual([
      'ERROR: Job failed: execution took longer than 1h0m0s seconds',
      '$ npx jest --ci',
      '    console.log  [2026-11-26T16:19:28.000Z] dark_mode: retrying request 28 after 36ms ×28',
    ]);
  });

  // Real timeouts: the last thing each was doing, repeats by different parts folded.
  it.each([
    ['datakit-mirage-opam-sources-timeout', '[cppo: http] Command started', 12],
    [
      'travis-purescript-timeout',
      'tf-random                        > [4 of 4] Compiling System.Random.TF.Instances',
      2,
    ],
  ])('quotes what the real timed-out job %s was doing, folded', (id, line, count) => {
    skipWithoutRealLogs();
    const log = loadRealLogs('dev').find((l) => l.id === id)!;
    const d = diagnose(distillLog(log.text));
    expect(d.category).toBe('timeout');
    expect(d.evidence.filter((e) => e.text === line).map((e) => e.occurrences)).toEqual([count]);
  });

  it("quotes no blank [ERROR], Maven footer or help link (a real Maven log's cause instead)", () => {
    skipWithoutRealLogs();
    const log = loadRealLogs('dev').find((l) => l.id === 'jenkins-mimecraft-2316')!;
    const d = diagnose(distillLog(log.text));
    expect(d.evidence.map((e) => e.text)).not.toContainEqual(expect.stringMatching(BOILERPLATE));
    expect(d.evidence[0]!.text).toContain('could not be resolved');
    expect(d.nextSteps.join('\n')).toContain('`mvn -U`');
  });

  it('quotes no blank or boilerplate line for any real log, behind a CI timestamp or not', () => {
    skipWithoutRealLogs();
    const bad = loadRealLogs().flatMap((l) =>
      diagnose(distillLog(l.text))
        .evidence.filter((e) => BOILERPLATE.test(e.text) || BOILERPLATE.test(e.message))
        .map((e) => `${l.id}: ${e.text}`),
    );
    expect(bad).toEqual([]);
  }, 120_000);

  // npm's fixed text around an error: lib/utils/error-message.js (the proxy paragraph, where the
  // log went) and lib/utils/explain-eresolve.js (the `--force`/`--legacy-peer-deps` hint).
  it("quotes npm's peer conflict in the log's order, not its footer (a real ERESOLVE)", () => {
    skipWithoutRealLogs();
    const log = loadRealLogs('dev').find(
      (l) => l.id === 'gha-devenv-vscode-npm-ci-eresolve-eslint10',
    )!;
    const quoted = diagnose(distillLog(log.text)).evidence.map((e) => e.message);
    expect(quoted).toContain('npm error Conflicting peer dependency: eslint@10.0.3');
    expect(quoted).not.toContain('npm error');
    expect(
      quoted.filter((q) => /For a full report|A complete log|--legacy-peer-deps/.test(q)),
    ).toEqual([]);
    const found = quoted.findIndex((q) => q.startsWith('npm error Found: '));
    expect(found).toBeGreaterThanOrEqual(0);
    expect(found).toBeLessThan(
      quoted.indexOf('npm error Conflicting peer dependency: eslint@10.0.3'),
    );
  });

  it("quotes the failed request of npm's network error without its proxy paragraph", () => {
    const lines = [
      '$ npm ci --prefer-offline --no-audit',
      'npm error code ECONNRESET',
      'npm error syscall read',
      'npm error errno ECONNRESET',
      'npm error network request to https://registry.npmjs.org/vite failed, reason: read ECONNRESET',
      'npm error network This is a problem related to network connectivity.',
      'npm error network In most cases you are behind a proxy or have bad network settings.',
      'npm error network',
      'npm error network If you are behind a proxy, please make sure that the',
      "npm error network 'proxy' config is set properly.  See: 'npm help config'",
      'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-19T17_47_24_619Z-debug-0.log',
      'ERROR: Job failed: exit code 1',
    ];
    expect(diagnose(distillLog(lines.join('\n'))).evidence.map((e) => e.text)).toEqual([
      'npm error code ECONNRESET',
      'npm error syscall read',
      'npm error errno ECONNRESET',
      'npm error network request to https://registry.npmjs.org/vite failed, reason: read ECONNRESET',
    ]);
  });

  it("quotes a Terraform diagnostic's whole box: where, the expression and what is wrong", () => {
    const box = [
      '$ terraform validate',
      '╷',
      '│ Error: Reference to undeclared input variable',
      '│',
      '│   on modules/web/main.tf line 23, in resource "aws_instance" "web":',
      '│   23:   instance_type = var.instance_typ',
      '│',
      '│ An input variable with the name "instance_typ" has not been declared. Did you mean "instance_type"?',
      '╵',
      'ERROR: Job failed: exit code 1',
    ].join('\n');
    expect(diagnose(distillLog(box)).evidence.map((e) => e.text)).toEqual([
      '│ Error: Reference to undeclared input variable',
      '│   on modules/web/main.tf line 23, in resource "aws_instance" "web":',
      '│   23:   instance_type = var.instance_typ',
      '│ An input variable with the name "instance_typ" has not been declared. Did you mean "instance_type"?',
    ]);
  });

  it('quotes the cause on the box lines under a real Terraform error (GitHub Actions prefixes kept)', () => {
    skipWithoutRealLogs();
    const log = loadRealLogs().find(
      (l) => l.id === 'gha-tf-azure-modules-validate-null-condition',
    )!;
    const quoted = diagnose(distillLog(log.text))
      .evidence.slice(0, 6)
      .map((e) => e.text);
    for (const decisive of log.decisive)
      expect(quoted.some((q) => q.includes(decisive))).toBe(true);
  });
});
