import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { locationShare } from '../testing/answer-audit.ts';
import { loadRealLogs } from '../testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../testing/real-logs/skip-without-corpus.ts';
import { formatLocation, locationsIn, toolSuggestion } from './locations.ts';
import { analyseOffline } from './report.ts';

// One case per format: the lines as the tool prints them, and the location an answer should give.
const FORMATS: [string, string[], string][] = [
  [
    'Terraform (https://developer.hashicorp.com/terraform/language/expressions/references)',
    [
      '│ Error: Unsupported attribute',
      '│',
      '│   on modules/rds-module/main.tf line 152, in resource "aws_db_subnet_group" "this":',
    ],
    'modules/rds-module/main.tf:152',
  ],
  ['GCC/Clang', ['src/parser.c:42:17: error: expected ‘;’ before ‘}’ token'], 'src/parser.c:42:17'],
  ['Go', ['./internal/cart/cart.go:31:2: undefined: total'], './internal/cart/cart.go:31:2'],
  [
    'Rust',
    ['error[E0425]: cannot find value `x` in this scope', '  --> src/main.rs:4:13'],
    'src/main.rs:4:13',
  ],
  [
    'tsc (pretty)',
    ["src/cart.ts:12:5 - error TS2322: Type 'string' is not assignable to type 'number'."],
    'src/cart.ts:12:5',
  ],
  ['tsc (file(line,col))', ['src/cart.ts(12,5): error TS2322: Type mismatch.'], 'src/cart.ts:12:5'],
  [
    'MSBuild/C#',
    ["/src/App/Program.cs(7,13): error CS0103: The name 'x' does not exist"],
    '/src/App/Program.cs:7:13',
  ],
  [
    'ESLint (stylish)',
    ['/builds/acme/web/src/app.tsx', '  12:5  error  Unexpected console statement  no-console'],
    '/builds/acme/web/src/app.tsx:12:5',
  ],
  ['mypy', ['app/models.py:88: error: Incompatible return value type'], 'app/models.py:88'],
  ['ruff', ['app/views.py:3:8: F401 [*] `os` imported but unused'], 'app/views.py:3:8'],
  [
    'Python traceback: the last frame in the project, not site-packages',
    [
      'Traceback (most recent call last):',
      '  File "/builds/acme/api/app/main.py", line 10, in <module>',
      '    run()',
      '  File "/builds/acme/api/app/service.py", line 42, in run',
      '    requests.get(url)',
      '  File "/usr/local/lib/python3.12/site-packages/requests/api.py", line 73, in get',
      '    return request("get", url, params=params, **kwargs)',
      'requests.exceptions.ConnectionError: refused',
    ],
    '/builds/acme/api/app/service.py:42',
  ],
  [
    'JVM stack: the first frame in the project',
    [
      'java.lang.NullPointerException: price',
      '\tat java.base/java.util.Objects.requireNonNull(Objects.java:233)',
      '\tat com.acme.shop.Cart.total(Cart.java:57)',
      '\tat com.acme.shop.CartTest.sums(CartTest.java:21)',
      '\tat org.junit.platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:725)',
    ],
    'com/acme/shop/Cart.java:57',
  ],
  [
    '.NET stack: the first frame in the project',
    [
      'System.InvalidOperationException: Sequence contains no elements',
      '   at System.Linq.ThrowHelper.ThrowNoElementsException()',
      '   at Acme.Shop.Cart.Total() in /src/Acme.Shop/Cart.cs:line 31',
    ],
    '/src/Acme.Shop/Cart.cs:31',
  ],
  [
    'JS stack: the first frame in the project, not node_modules',
    [
      'TypeError: Cannot read properties of undefined (reading "id")',
      '    at get (/builds/acme/web/node_modules/lodash/get.js:10:3)',
      '    at Object.<anonymous> (/builds/acme/web/src/cart.test.ts:12:5)',
      '    at node:internal/modules/cjs/loader:1554:14',
    ],
    '/builds/acme/web/src/cart.test.ts:12:5',
  ],
  [
    'Maven compiler',
    ['[ERROR] /builds/acme/app/src/main/java/com/acme/App.java:[12,5] cannot find symbol'],
    '/builds/acme/app/src/main/java/com/acme/App.java:12:5',
  ],
];

describe('source locations', () => {
  it.each(FORMATS)('%s', (_, lines, expected) => {
    expect(locationsIn(lines).map(formatLocation)[0]).toBe(expected);
  });

  it('reads no location from lines that only look like one', () => {
    expect(
      locationsIn([
        'Downloading https://registry.npmjs.org/react/-/react-18.2.0.tgz',
        'npm ERR! code ERESOLVE',
        '12:05:33 INFO starting build',
        'at /usr/lib/node_modules/npm/lib/cli.js:10:3',
      ]),
    ).toEqual([]);
  });

  it("quotes the tool's own suggestion and names Terraform's file and line (issue 25's apply-staging)", () => {
    const log = [
      '$ terraform plan -input=false -out=plan.cache',
      '╷',
      '│ Error: Unsupported attribute',
      '│',
      '│   on modules/rds-module/main.tf line 152, in resource "aws_db_subnet_group" "this":',
      '│  152:   vpc_id = aws_vpc.main.idd',
      '│',
      '│ This object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?',
      '╵',
      'ERROR: Job failed: exit code 1',
    ].join('\n');
    expect(toolSuggestion(log.split('\n'))).toBe(
      'This object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?',
    );
    const answer = analyseOffline(distillLog(log));
    expect(answer).toContain('**Where:** `modules/rds-module/main.tf:152`');
    expect(answer).toContain('**The tool suggests:** This object has no argument');
    expect(answer).not.toContain('the log names no source location');
  });

  it('quotes the location in ≥ 90 % of the answers about real logs that have one', () => {
    skipWithoutRealLogs();
    const share = locationShare(loadRealLogs());
    expect(share.withLocation).toBeGreaterThan(50);
    // The target (figures per split: `npm run bench -- ai`); 52.7 % before locations.ts.
    expect(share.quoted / share.withLocation).toBeGreaterThanOrEqual(0.9);
  }, 120_000);
});
