import type { FailureKind, ToolKind } from '../model.ts';
import { rngFor, type Rng } from '../random.ts';

/** The JUnit XML dialect a test runner writes; decides names, files and stack-trace format. */
export type JUnitFormat = 'jest' | 'pytest' | 'rspec' | 'surefire' | 'go' | 'nextest';

/** The runners whose jobs upload `artifacts:reports:junit`, and the dialect each writes. */
export const JUNIT_FORMAT: Partial<Record<ToolKind, JUnitFormat>> = {
  jest: 'jest',
  pytest: 'pytest',
  rspec: 'rspec',
  'maven-test': 'surefire',
  'go-test': 'go',
  'cargo-test': 'nextest',
};

/** The failure of each runner that is a failed test (others, e.g. OOM or timeout, write no report). */
export const TEST_FAILURE: Partial<Record<ToolKind, FailureKind>> = {
  jest: 'jest-assertion',
  pytest: 'pytest-assertion',
  rspec: 'rspec-failure',
  'maven-test': 'junit-assertion',
  'go-test': 'go-test',
};

/** One test a suite contains: what GitLab's parser reads from a `<testcase>`. */
export interface CatalogTest {
  classname: string;
  name: string;
  /** The `file` attribute; Surefire and go-junit-report write none. */
  file: string | null;
  /** The line the assertion sits on, for the stack trace. */
  line: number;
}

const SUBJECTS: Record<JUnitFormat, readonly string[]> = {
  jest: [
    'CheckoutForm',
    'PriceTag',
    'useCart',
    'formatCurrency',
    'SessionStore',
    'DataTable',
    'Modal',
    'RetryQueue',
    'WebhookSigner',
    'TemplateRenderer',
    'RateLimiter',
    'LocaleSwitcher',
  ],
  pytest: [
    'ingest',
    'dedup',
    'schema_registry',
    'warehouse_loader',
    'feature_store',
    'scoring',
    'backfill',
    'partitioning',
    'late_events',
    'currency_rates',
  ],
  rspec: [
    'invoice',
    'order',
    'cart_item',
    'refund',
    'subscription',
    'coupon',
    'shipment',
    'webhook_event',
  ],
  surefire: [
    'invoice.InvoiceService',
    'invoice.ProrationCalculator',
    'payment.PaymentReconciler',
    'payment.RefundPolicy',
    'subscription.SubscriptionRenewal',
    'subscription.PlanCatalog',
    'tax.VatRules',
    'ledger.LedgerWriter',
    'webhook.StripeEventHandler',
    'dunning.DunningScheduler',
  ],
  go: [
    'token',
    'session',
    'ratelimit',
    'router',
    'oidc',
    'jwks',
    'middleware',
    'proxy',
    'config',
    'healthcheck',
  ],
  nextest: ['segment', 'tokenizer', 'merge', 'query', 'snapshot', 'wal', 'compaction', 'schema'],
};

const BEHAVIOURS: readonly string[] = [
  'rejects an expired card',
  'renders the empty state',
  'keeps the order of equal keys',
  'retries after a 503',
  'rounds half to even',
  'drops duplicate events',
  'refreshes the key before expiry',
  'applies proration on upgrade',
  'respects the rate limit window',
  'escapes user input',
  'handles a timezone change at midnight',
  'reads a partial page',
  'reconnects after the socket closes',
  'falls back to the default locale',
  'times out a slow upstream',
  'merges overlapping ranges',
  'ignores a stale cache entry',
  'signs the payload with the current secret',
  'parses a leap-second timestamp',
  'closes the transaction on error',
];

function camel(words: string, upperFirst: boolean): string {
  const parts = words.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  return parts
    .map((w, i) => (i === 0 && !upperFirst ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join('');
}

function snake(words: string): string {
  return words
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/_+$/, '')
    .toLowerCase();
}

function testOf(
  format: JUnitFormat,
  projectPath: string,
  subject: string,
  behaviour: string,
  line: number,
): CatalogTest {
  switch (format) {
    case 'jest':
      // jest-junit: classname "{classname}" is the describe block, the file attribute on.
      return {
        classname: subject,
        name: `${subject} ${behaviour}`,
        file: `src/${subject[0] === 'u' ? 'hooks' : 'components'}/${subject}.test.ts`,
        line,
      };
    case 'pytest':
      // pytest --junitxml: classname is the dotted module path plus the class.
      return {
        classname: `tests.test_${subject}.Test${camel(subject, true)}`,
        name: `test_${snake(behaviour)}`,
        file: `tests/test_${subject}.py`,
        line,
      };
    case 'rspec': {
      // rspec_junit_formatter (sj26/rspec_junit_formatter, lib/rspec_junit_formatter.rb): classname
      // is the spec file's path without its extension, dots for slashes ("spec.models.order_spec"),
      // name the example's full description, file the spec file as RSpec names it ("./spec/…").
      const file = `./spec/models/${subject}_spec.rb`;
      return {
        classname: `spec.models.${subject}_spec`,
        name: `${camel(subject, true)} ${behaviour}`,
        file,
        line,
      };
    }
    case 'surefire':
      return {
        classname: `com.acme.${projectPath.replace(/-service$/, '').replace(/-/g, '')}.${subject}Test`,
        name: `${camel(behaviour, false)}()`,
        file: null,
        line,
      };
    case 'go':
      return {
        classname: `gitlab.example.com/acme/${projectPath}/internal/${subject}`,
        name: `Test${camel(subject, true)}${camel(behaviour, true)}`,
        file: null,
        line,
      };
    case 'nextest':
      // cargo-nextest's JUnit: the binary id as classname, the test path as name.
      return {
        classname: `${projectPath.replace(/-/g, '_')}::${subject}`,
        name: `tests::${snake(behaviour)}`,
        file: null,
        line,
      };
  }
}

/**
 * The tests one job's suite runs, `count` of them, derived from the project and job name so that
 * every pipeline of the project runs the same suite (tests are identified across pipelines).
 */
export function suiteTests(
  format: JUnitFormat,
  projectPath: string,
  jobName: string,
  count: number,
): CatalogTest[] {
  const rng = rngFor('junit-suite', projectPath, jobName);
  const subjects = SUBJECTS[format];
  const tests: CatalogTest[] = [];
  const seen = new Set<string>();
  for (let i = 0; tests.length < count; i++) {
    const subject = subjects[i % subjects.length]!;
    const behaviour = BEHAVIOURS[(i * 7 + rng.int(0, 3)) % BEHAVIOURS.length]!;
    const round = Math.floor(i / (subjects.length * BEHAVIOURS.length));
    const test = testOf(format, projectPath, subject, behaviour, rng.int(18, 240));
    // Past the catalogue's combinations (benchmarks ask for thousands): numbered variants.
    if (round > 0 || seen.has(`${test.classname}\n${test.name}`)) test.name = `${test.name} [${i}]`;
    seen.add(`${test.classname}\n${test.name}`);
    tests.push(test);
  }
  return tests;
}

/**
 * The assertion a failed test reports, then the stack trace in its runner's own format, its paths
 * under `checkoutDir` (the job's CI_PROJECT_DIR, `/builds/<project's full path>` by default).
 */
export function stackTraceOf(
  format: JUnitFormat,
  test: CatalogTest,
  checkoutDir: string,
  rng: Rng,
): string {
  const expected = rng.int(2, 40);
  const received = expected + rng.int(1, 3);
  switch (format) {
    case 'jest':
      return [
        'Error: expect(received).toBe(expected) // Object.is equality',
        '',
        `Expected: ${expected}`,
        `Received: ${received}`,
        `    at Object.<anonymous> (${checkoutDir}/${test.file}:${test.line}:${rng.int(9, 40)})`,
        `    at Promise.then.completed (${checkoutDir}/node_modules/jest-circus/build/utils.js:298:28)`,
        `    at new Promise (<anonymous>)`,
        `    at callAsyncCircusFn (${checkoutDir}/node_modules/jest-circus/build/utils.js:231:10)`,
      ].join('\n');
    case 'pytest':
      return [
        `    def ${test.name}(self, events):`,
        `        rows = run(events)`,
        `>       assert len(rows) == ${expected}`,
        `E       AssertionError: assert ${received} == ${expected}`,
        `E        +  where ${received} = len([...])`,
        '',
        `${test.file}:${test.line}: AssertionError`,
      ].join('\n');
    case 'rspec':
      // The failure element's text: the exception's message, then the backtrace
      // (rspec_junit_formatter `failure_for`), lines as RSpec prints them.
      // Ruby 3.3's backtrace quotes a frame as `block …' (3.4 changed it to 'block …').
      return [
        `expected: ${expected}`,
        `     got: ${received}`,
        '',
        '(compared using ==)',
        '',
        `${test.file}:${test.line}:in \`block (2 levels) in <top (required)>'`,
      ].join('\n');
    case 'surefire': {
      const cls = test.classname.split('.').pop()!;
      const method = test.name.replace(/\(\)$/, '');
      return [
        `org.opentest4j.AssertionFailedError: expected: <${expected}> but was: <${received}>`,
        '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
        '\tat org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)',
        '\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)',
        '\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1141)',
        `\tat ${test.classname}.${method}(${cls}.java:${test.line})`,
      ].join('\n');
    }
    case 'go': {
      const pkg = test.classname.split('/').pop()!;
      return [
        `=== RUN   ${test.name}`,
        `    ${pkg}_test.go:${test.line}: got ${received}, want ${expected}`,
        `--- FAIL: ${test.name} (0.0${rng.int(1, 9)}s)`,
      ].join('\n');
    }
    case 'nextest': {
      const module = test.classname.split('::').pop()!;
      return [
        `thread '${test.name}' panicked at src/${module}.rs:${test.line}:${rng.int(5, 30)}:`,
        'assertion `left == right` failed',
        `  left: ${received}`,
        ` right: ${expected}`,
        'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace',
      ].join('\n');
    }
  }
}
