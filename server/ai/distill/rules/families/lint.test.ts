import { describe } from 'vitest';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { lintFamily } from './lint.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: "rustfmt's diff header in check mode",
    from: 'https://github.com/rust-lang/rustfmt/blob/master/src/emitter/diff.rs',
    line: 'Diff in /home/runner/work/app/app/escrow/src/lib.rs:2220:',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
    lookalike: 'diff --git a/escrow/src/lib.rs b/escrow/src/lib.rs',
  },
  {
    what: 'golangci-lint issue',
    from: 'https://golangci-lint.run/usage/configuration/#output-configuration',
    line: 'Error: services/bank/internal/handler/trading_handler.go:345:2: QF1003: could use tagged switch on class (staticcheck)',
    rule: 'lint/golangci-lint',
    category: 'compile_error',
    lookalike:
      'level=info msg="[runner] linters took 3.2s with stages: goanalysis_metalinter: 3.1s (staticcheck)"',
  },
  {
    what: "next lint's error line",
    from: 'https://nextjs.org/docs/app/api-reference/config/eslint',
    line: "2:8  Error: 'React' is defined but never used.  no-unused-vars",
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: "ESLint's compact formatter",
    from: 'https://eslint.org/docs/latest/use/formatters/',
    line: '/src/a.ts: line 12, col 5, Error - Unexpected any. Specify a different type. (@typescript-eslint/no-explicit-any)',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: 'ESLint --max-warnings exceeded',
    from: 'https://eslint.org/docs/latest/use/command-line-interface#--max-warnings',
    line: 'ESLint found too many warnings (maximum: 0).',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: "mypy's summary",
    from: 'https://mypy.readthedocs.io/en/stable/running_mypy.html',
    line: 'Found 5 errors in 4 files (checked 321 source files)',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: "tsc's summary",
    from: 'https://www.typescriptlang.org/docs/handbook/compiler-options.html',
    line: 'Found 3 errors in 2 files.',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: "pyright's summary",
    from: 'https://microsoft.github.io/pyright/#/command-line',
    line: '3 errors, 0 warnings, 0 informations ',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: 'black --check',
    from: 'https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html',
    line: '1 file would be reformatted, 11 files would be left unchanged.',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: 'ruff format --check',
    from: 'https://docs.astral.sh/ruff/formatter/',
    line: 'Would reformat: app/routers/api_catalog.py',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: 'Prettier --check file list',
    from: 'https://prettier.io/docs/cli#--check',
    line: '[warn] src/features/slot-board/ui/SlotTile.tsx',
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: "Android Lint's text report in a GitHub Actions annotation",
    from: 'https://github.com/priit2000/out-of-android/blob/24c2534eedabf9e8b830f70a69acbb7c20ac62e7/0_build.txt',
    line: '2025-08-20T18:09:49.5200315Z ##[error]/home/runner/work/out-of-android/out-of-android/app/src/main/AndroidManifest.xml:8: Error: Permission exists without corresponding hardware <uses-feature android:name="android.hardware.telephony" required="false"> tag [PermissionImpliesUnsupportedChromeOsHardware]',
    rule: 'lint/android-lint',
    category: 'compile_error',
  },
  {
    what: "next lint's error behind Vercel's build-time prefix",
    from: 'https://github.com/tmdc-io/modern-ui-component/blob/8f234f76b4ffa95f396cbb767cf30e626e82b03c/vercel.log',
    line: "13:39:31.419 57:9  Error: 'isVariantMode' is assigned a value but never used.  @typescript-eslint/no-unused-vars",
    rule: 'lint/checker-verdict',
    category: 'compile_error',
  },
  {
    what: 'rustfmt check: a line over the maximum width',
    from: 'https://github.com/konard/uselessgoddess-dunes/blob/840afd290c2e670e087ea294a42286e6c23f00a6/ci-failure.log',
    line: 'Format\tCheck formatting\t2025-12-02T13:30:44.2897865Z error[internal]: line formatted, but exceeded maximum width (maximum: 80 (see `max_width` option), found: 87)',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: 'flake8 code',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Python/nvbn%40thefuck/failed/545320732.log',
    line: './thefuck/rules/terraform_init.py:8:9: E128 continuation line under-indented for visual indent',
    rule: 'lint/finding-code',
    category: 'compile_error',
  },
  {
    what: 'markdownlint rule code after file: line',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/JavaScript/airbnb%40javascript/failed/556132210.log',
    line: 'react/README.md: 29: MD012/no-multiple-blanks Multiple consecutive blank lines [Expected: 1; Actual: 2]',
    rule: 'lint/finding-code',
    category: 'compile_error',
  },
  {
    what: 'TSLint `ERROR: file:line:col rule`',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/TypeScript/Microsoft%40TypeScript/failed/567573637.log',
    line: '\u001b[31mERROR\u001b[39m: /home/travis/build/microsoft/TypeScript/src/compiler/checker.ts:20269:48 \u001b[90mboolean-trivia\u001b[39m \u001b[33mTag argument with parameter name\u001b[39m',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: 'PHPStan summary `[ERROR] Found 1 error`',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/PHP/composer%40composer/failed/566904372.log',
    line: ' [ERROR] Found 1 error                                                          ',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: 'SwiftLint finding printed as a warning',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Objective-C/Realm%40realm-cocoa/failed/545920250.log',
    line: '/Users/travis/build/realm/realm-cocoa/Realm/ObjectServerTests/SwiftPermissionsTests.swift:156:13: warning: Redundant Discardable Let Violation: Prefer `_ = foo()` over `let _ = foo()` when discarding a result from a function. (redundant_discardable_let)',
    rule: 'lint/finding-code',
    category: 'compile_error',
  },
  {
    what: 'SwiftLint summary',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Objective-C/Realm%40realm-cocoa/failed/545920250.log',
    line: 'Done linting! Found 1 violation, 0 serious in 48 files.',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: 'Spotless format check (Gradle)',
    from: 'https://github.com/BugSwarm/bugswarm/blob/e6a77177e9725ee46f83f17c7989028116772bd1/tests/analyzer/github_data/gradle/2085562467-orig.log',
    line: '2022-04-03T14:29:35.6052350Z > The following files had format violations:',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: 'RuboCop offense (severity letter)',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Ruby/jekyll%40jekyll/failed/565960060.log',
    line: 'lib/jekyll/excerpt.rb:158:17: C: Performance/RegexpMatch: Use match? instead of =~ when MatchData is not used.',
    rule: 'lint/finding-code',
    category: 'compile_error',
  },
  {
    what: 'RuboCop summary',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Ruby/jekyll%40jekyll/failed/565960060.log',
    line: '129 files inspected, 3 offenses detected',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: 'mix format --check-formatted',
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Elixir/elixir-lang%40elixir/failed/574602754.log',
    line: '\u001b[31m\u001b[1m** (Mix) mix format failed due to --check-formatted.',
    rule: 'lint/linter-verdict',
    category: 'compile_error',
  },
  {
    what: "a linter's `file:line: CODE message` (tldr-lint)",
    from: 'https://github.com/lacinoire/master-thesis/blob/647916a705a9c52fabd957e69d7893c07140ca12/tool/samples/Shell/tldr-pages%40tldr/failed/563696877.log',
    line: 'pages/common/mat2.md:3: TLDR004 Command descriptions should end in a period',
    rule: 'lint/finding-code',
    category: 'compile_error',
  },
];

describe('lint rules', () => {
  itClassifiesFamilyLines(lintFamily, { documented: DOCUMENTED, quoted: QUOTED });
});
