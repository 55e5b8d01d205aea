// The end of a failed test job's log written from the same test cases as its JUnit report, so the
// log and GitLab's test report name the same failed tests, each in its runner's own words:
// - Jest's default reporter: ` FAIL  <file>`, `● <describe> › <title>` and the summary lines
//   (jestjs.io/docs/cli; jest-junit writes classname "{classname}", title "{classname} {title}").
// - pytest: the `FAILURES` / `ERRORS` sections headed `_ TestClass.test_name _`, then the
//   `short test summary info` lines `FAILED path::Class::test - message` (docs.pytest.org,
//   "Detailed summary report").
// - Maven Surefire: `Tests run: …, Failures: … <<< FAILURE! -- in <class>`, the trace, then the
//   `Results:` block `Class.method:line message` (maven.apache.org/surefire).
// - `go test -v`: `=== RUN` / `--- FAIL: Test… (0.01s)` and `FAIL\t<package>\t<time>s`.
// - RSpec's progress formatter: `Failures:` with numbered examples (the expectation's message, the
//   backtrace as `# ./spec/…:LINE:in …`), `N examples, M failures` and `Failed examples:` as
//   `rspec ./spec/…_spec.rb:LINE # full description` (rspec-core, base_text_formatter.rb).
import type { Rng } from '../random.ts';
import type { JUnitFormat } from '../test-reports/catalog.ts';
import type { SimTestCase } from '../test-reports/report.ts';
import { secs } from './runner-text.ts';

const failedOf = (cases: readonly SimTestCase[]) =>
  cases.filter((c) => c.status === 'failed' || c.status === 'error');

const count = (cases: readonly SimTestCase[], status: SimTestCase['status']) =>
  cases.filter((c) => c.status === status).length;

/** The line of a trace that states the failure (the assertion or the exception). */
function message(trace: string | null): string {
  const lines = (trace ?? '').split('\n');
  const e = lines.find((l) => /^E\s+\S/.test(l));
  if (e) return e.replace(/^E\s+/, '');
  return lines.find((l) => l.trim() !== '')?.trim() ?? '';
}

function jest(cases: readonly SimTestCase[], rng: Rng): string[] {
  const failed = failedOf(cases);
  const files = [...new Set(failed.map((c) => c.file ?? c.classname))];
  const lines: string[] = [];
  for (const file of files) {
    lines.push('', `\x1b[1m\x1b[31m FAIL \x1b[39m\x1b[22m ${file} (${secs(rng, 1, 12)} s)`);
    for (const c of failed.filter((f) => (f.file ?? f.classname) === file)) {
      const title = c.name.startsWith(`${c.classname} `)
        ? c.name.slice(c.classname.length + 1)
        : c.name;
      lines.push(
        '',
        `\x1b[1m\x1b[31m  ● ${c.classname} › ${title}\x1b[39m\x1b[22m`,
        '',
        ...(c.stackTrace ?? '').split('\n').map((l) => (l === '' ? '' : `    ${l}`)),
      );
    }
  }
  const passed = count(cases, 'success');
  const skipped = count(cases, 'skipped');
  lines.push(
    '',
    `\x1b[1mTest Suites: \x1b[22m\x1b[1m\x1b[31m${files.length} failed\x1b[39m\x1b[22m, ${files.length} total`,
    `\x1b[1mTests:       \x1b[22m\x1b[1m\x1b[31m${failed.length} failed\x1b[39m\x1b[22m, ${skipped > 0 ? `${skipped} skipped, ` : ''}\x1b[1m\x1b[32m${passed} passed\x1b[39m\x1b[22m, ${cases.length} total`,
    `\x1b[1mTime:\x1b[22m        ${secs(rng, 20, 200)} s`,
    '\x1b[2mRan all test suites\x1b[22m\x1b[2m.\x1b[22m',
  );
  return lines;
}

function pytest(cases: readonly SimTestCase[], rng: Rng): string[] {
  const id = (c: SimTestCase) => `${c.file}::${c.classname.split('.').pop()}::${c.name}`;
  const head = (c: SimTestCase) => `${c.classname.split('.').pop()}.${c.name}`;
  const failed = cases.filter((c) => c.status === 'failed');
  const errors = cases.filter((c) => c.status === 'error');
  const lines: string[] = [];
  if (errors.length > 0) {
    lines.push(
      '',
      '==================================== ERRORS ====================================',
    );
    for (const c of errors)
      lines.push(
        `\x1b[31m\x1b[1m_______ ERROR at setup of ${head(c)} _______\x1b[0m`,
        ...(c.stackTrace ?? '').split('\n'),
      );
  }
  if (failed.length > 0) {
    lines.push(
      '',
      '=================================== FAILURES ===================================',
    );
    for (const c of failed)
      lines.push(
        `\x1b[31m\x1b[1m_______ ${head(c)} _______\x1b[0m`,
        '',
        ...(c.stackTrace ?? '').split('\n'),
      );
  }
  lines.push('=========================== short test summary info ============================');
  for (const c of failed) lines.push(`\x1b[31mFAILED\x1b[0m ${id(c)} - ${message(c.stackTrace)}`);
  for (const c of errors) lines.push(`\x1b[31mERROR\x1b[0m ${id(c)} - ${message(c.stackTrace)}`);
  const parts = [
    failed.length > 0 ? `${failed.length} failed` : null,
    `${count(cases, 'success')} passed`,
    count(cases, 'skipped') > 0 ? `${count(cases, 'skipped')} skipped` : null,
    errors.length > 0 ? `${errors.length} error${errors.length === 1 ? '' : 's'}` : null,
  ].filter((p) => p !== null);
  lines.push(
    `\x1b[31m=================== ${parts.join(', ')} in ${secs(rng, 20, 300).slice(0, -1)}s ===================\x1b[0m`,
  );
  return lines;
}

function surefire(cases: readonly SimTestCase[], rng: Rng, projectPath: string): string[] {
  const failed = failedOf(cases);
  const lines: string[] = [];
  for (const cls of [...new Set(failed.map((c) => c.classname))]) {
    const mine = cases.filter((c) => c.classname === cls);
    const bad = failedOf(mine);
    lines.push(
      `[INFO] Running ${cls}`,
      `[ERROR] Tests run: ${mine.length}, Failures: ${bad.length}, Errors: 0, Skipped: ${count(mine, 'skipped')}, Time elapsed: ${secs(rng, 0.5, 9)} s <<< FAILURE! -- in ${cls}`,
    );
    for (const c of bad)
      lines.push(
        `[ERROR] ${cls}.${c.name.replace(/\(\)$/, '')} -- Time elapsed: ${c.executionTime.toFixed(3)} s <<< FAILURE!`,
        ...(c.stackTrace ?? '').split('\n'),
        '',
      );
  }
  lines.push('[INFO] ', '[INFO] Results:', '[INFO] ', '[ERROR] Failures: ');
  for (const c of failed) {
    const simple = c.classname.split('.').pop()!;
    const line = /\((\w+)\.java:(\d+)\)\s*$/.exec(c.stackTrace ?? '')?.[2] ?? '';
    const text = message(c.stackTrace).replace(/^[\w.]+: /, '');
    lines.push(`[ERROR]   ${simple}.${c.name.replace(/\(\)$/, '')}:${line} ${text}`);
  }
  lines.push(
    '[INFO] ',
    `[ERROR] Tests run: ${cases.length}, Failures: ${failed.length}, Errors: 0, Skipped: ${count(cases, 'skipped')}`,
    '[INFO] ',
    '[INFO] ------------------------------------------------------------------------',
    '[INFO] BUILD FAILURE',
    '[INFO] ------------------------------------------------------------------------',
    `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project ${projectPath}: There are test failures.`,
    '[ERROR] -> [Help 1]',
  );
  return lines;
}

function go(cases: readonly SimTestCase[], rng: Rng): string[] {
  const failed = failedOf(cases);
  const lines: string[] = [];
  for (const pkg of [...new Set(failed.map((c) => c.classname))]) {
    for (const c of failed.filter((f) => f.classname === pkg))
      lines.push(...(c.stackTrace ?? `--- FAIL: ${c.name}`).split('\n'));
    lines.push('FAIL', `FAIL\t${pkg}\t${secs(rng, 0.1, 4)}s`);
  }
  lines.push('FAIL');
  return lines;
}

function rspec(cases: readonly SimTestCase[], rng: Rng): string[] {
  const failed = failedOf(cases);
  const lines = ['', 'Failures:'];
  failed.forEach((c, i) => {
    const trace = (c.stackTrace ?? '').split('\n');
    const frames = trace.filter((l) => l.startsWith('./'));
    const expectation = trace.filter((l) => !l.startsWith('./'));
    lines.push(
      '',
      `  ${i + 1}) ${c.name}`,
      `     \x1b[31mFailure/Error: expect(result).to eq(${/expected: (\S+)/.exec(c.stackTrace ?? '')?.[1] ?? 'expected'})\x1b[0m`,
      '',
      ...expectation.map((l) => (l === '' ? '' : `     \x1b[31m  ${l}\x1b[0m`)),
      ...frames.map((l) => `     \x1b[36m# ${l}\x1b[0m`),
    );
  });
  const pending = count(cases, 'skipped');
  lines.push(
    '',
    `Finished in ${secs(rng, 30, 240)} seconds (files took ${secs(rng, 2, 9)} seconds to load)`,
    `\x1b[31m${cases.length} examples, ${failed.length} failure${failed.length === 1 ? '' : 's'}${pending > 0 ? `, ${pending} pending` : ''}\x1b[0m`,
    '',
    'Failed examples:',
    '',
  );
  for (const c of failed) {
    // The example's own line: where `it` starts, a few lines above the failing expectation.
    const line = Number(/:(\d+):in /.exec(c.stackTrace ?? '')?.[1] ?? '3') - 2;
    lines.push(`\x1b[31mrspec ${c.file ?? ''}:${line}\x1b[0m \x1b[36m# ${c.name}\x1b[0m`);
  }
  return lines;
}

/**
 * The failure text a test runner prints for these cases (every case of the job's run), or null
 * for a format whose runner the simulator does not write from reports.
 */
export function testRunFailureLines(
  format: JUnitFormat,
  cases: readonly SimTestCase[],
  rng: Rng,
  projectPath: string,
): string[] | null {
  if (failedOf(cases).length === 0) return null;
  switch (format) {
    case 'jest':
      return jest(cases, rng);
    case 'pytest':
      return pytest(cases, rng);
    case 'rspec':
      return rspec(cases, rng);
    case 'surefire':
      return surefire(cases, rng, projectPath);
    case 'go':
      return go(cases, rng);
    case 'nextest':
      return null;
  }
}
