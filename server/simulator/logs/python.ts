import { defineFamily, type FailureWriters } from './family.ts';
import { PLAIN, YELLOW, secs, words } from './runner-text.ts';

/** Python jobs: pytest, mypy, ruff, MkDocs. */
export const pythonFamily = defineFamily(['pytest', 'mypy', 'ruff', 'mkdocs'], {
  setup() {
    return [
      { cmd: 'python --version', out: ['Python 3.12.4'] },
      {
        cmd: 'pip install --quiet -r requirements-dev.txt',
        out: [
          `${YELLOW}WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system package manager.${PLAIN}`,
        ],
      },
    ];
  },
  main(tool, ctx, rng) {
    const p = ctx.project;
    const ws = words(p);
    switch (tool) {
      case 'pytest': {
        const n = rng.int(120, 640);
        const out = [
          '\x1b[1m============================= test session starts ==============================\x1b[0m',
          'platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0',
          `rootdir: /builds/${p.fullPath}`,
          'configfile: pyproject.toml',
          'plugins: cov-5.0.0, xdist-3.6.1',
          `collected ${n} items`,
          '',
        ];
        let pct = 0;
        for (const w of ws) {
          pct = Math.min(100, pct + Math.ceil(100 / ws.length));
          out.push(
            `tests/test_${w}.py \x1b[32m${'.'.repeat(rng.int(8, 40))}\x1b[0m\x1b[32m${' '.repeat(6)}[${String(pct).padStart(3)}%]\x1b[0m`,
          );
        }
        out.push(
          '',
          `\x1b[32m============================= \x1b[32m\x1b[1m${n} passed\x1b[0m\x1b[32m in ${secs(rng, 20, 300).slice(0, -1)}s\x1b[0m\x1b[32m ==============================\x1b[0m`,
        );
        return { cmd: 'pytest -n auto --cov=src --cov-report=term --junitxml=report.xml', out };
      }
      case 'mypy':
        return {
          cmd: 'mypy src',
          out: [
            `\x1b[1m\x1b[32mSuccess: no issues found in ${rng.int(40, 160)} source files\x1b[m`,
          ],
        };
      case 'ruff':
        return { cmd: 'ruff check --output-format=full src tests', out: ['All checks passed!'] };
      case 'mkdocs':
        return {
          cmd: 'mkdocs build --strict',
          out: [
            'INFO    -  Cleaning site directory',
            `INFO    -  Building documentation to directory: /builds/${p.fullPath}/site`,
            `INFO    -  Documentation built in ${secs(rng, 2, 20).slice(0, -1)} seconds`,
          ],
        };
    }
  },
  network(tool, _ctx, rng) {
    if (tool !== 'mkdocs') {
      // pip retries five times, then finds no version at all (pip's urllib3 retry warning, then
      // "Could not find a version that satisfies the requirement … (from versions: none)").
      const pkg = rng.pick([
        'pandas==2.2.2',
        'pydantic==2.8.2',
        'sqlalchemy==2.0.31',
        'httpx==0.27.0',
      ]);
      const name = pkg.split('==')[0]!;
      return [
        ...[4, 3, 2, 1, 0].map(
          (total) =>
            `WARNING: Retrying (Retry(total=${total}, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3c2a1b5d90>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/${name}/`,
        ),
        `ERROR: Could not find a version that satisfies the requirement ${pkg} (from versions: none)`,
        `ERROR: No matching distribution found for ${pkg}`,
      ];
    }
    return [
      `✗ [ERR] https://api.acme.example/v2/reference | Network error: error sending request for url (https://api.acme.example/v2/reference): operation timed out`,
      `🔍 ${rng.int(300, 900)} Total ✅ ${rng.int(300, 900)} OK 🚫 1 Error`,
    ];
  },
  fillerLine(tool, { ts, w, i }, rng) {
    if (tool !== 'pytest') return undefined;
    return `${ts} DEBUG    src.${w}: processed batch ${i} (${rng.int(100, 5000)} rows) in ${rng.int(1, 400)}ms`;
  },
  lint(tool, spot) {
    const { rng, w, line, col } = spot;
    switch (tool) {
      case 'ruff':
        return [
          `src/${w}.py:${line}:${col}: F401 [*] \`os\` imported but unused`,
          `src/${w}.py:${line + 9}:5: E711 Comparison to \`None\` should be \`cond is None\``,
          'Found 2 errors.',
          '[*] 1 fixable with the `--fix` option.',
        ];
      case 'mypy':
        return [
          `src/${w}.py:${line}: \x1b[1m\x1b[31merror:\x1b[m Incompatible return value type (got \x1b[1m"str | None"\x1b[m, expected \x1b[1m"str"\x1b[m)  \x1b[33m[return-value]\x1b[m`,
          `\x1b[1m\x1b[31mFound 1 error in 1 file (checked ${rng.int(40, 160)} source files)\x1b[m`,
        ];
      default:
        return undefined;
    }
  },
});

/** How Python jobs fail, by failure kind. */
export const pythonFailures = {
  'pytest-assertion'({ rng, w, line }) {
    const fn = `test_${w}_${rng.pick(['keeps_latest', 'handles_nulls', 'is_idempotent', 'respects_timezone'])}`;
    const got = rng.int(2, 9);
    return {
      early: false,
      exit: 'exit code 1',
      lines: [
        `tests/test_${w}.py \x1b[32m.......\x1b[0m\x1b[31mF\x1b[0m\x1b[32m....\x1b[0m\x1b[31m                                       [ 64%]\x1b[0m`,
        '',
        '=================================== FAILURES ===================================',
        `\x1b[31m\x1b[1m_____________________ ${fn} _____________________\x1b[0m`,
        '',
        `    def ${fn}():`,
        `        events = make_events(${got + 1}, duplicate_ids=True)`,
        `        result = ${w}.run(events)`,
        `>       assert len(result) == ${got - 1}`,
        `\x1b[1m\x1b[31mE       assert ${got} == ${got - 1}\x1b[0m`,
        `\x1b[1m\x1b[31mE        +  where ${got} = len([Event(id=1, ...), Event(id=2, ...), Event(id=2, ...)])\x1b[0m`,
        '',
        `\x1b[1m\x1b[31mtests/test_${w}.py\x1b[0m:${line}: AssertionError`,
        '=========================== short test summary info ============================',
        `\x1b[31mFAILED\x1b[0m tests/test_${w}.py::\x1b[1m${fn}\x1b[0m - assert ${got} == ${got - 1}`,
        `\x1b[31m========================= \x1b[31m\x1b[1m1 failed\x1b[0m, \x1b[32m${rng.int(100, 600)} passed\x1b[0m\x1b[31m in ${secs(rng, 20, 300).slice(0, -1)}s\x1b[0m\x1b[31m =========================\x1b[0m`,
      ],
    };
  },
} satisfies FailureWriters;
