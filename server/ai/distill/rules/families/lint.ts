/**
 * Linters, type checkers and formatters rejecting the code.
 */
import { ERROR_CODE_HINT, GO_LOCATION_HINT } from '../prefilter.ts';
import { defineFamily } from '../rule.ts';

/** Linters, type checkers and formatters rejecting the code. */
export const lintFamily = defineFamily({
  name: 'lint',
  // prettier-ignore
  hints: [
    'err', 'fail', 'cannot', 'warn', 'exceeded', 'violation', ': c: ', ': w: ', ': e: ', ': f: ',
    'offense', 'formatted', 'reformat', 'code style issues', 'diff in ', 'lint found',
    'issues found', ERROR_CODE_HINT, GO_LOCATION_HINT,
  ],
  rules: {
    // Android Lint's text report (`app/src/main/AndroidManifest.xml:8: Error: … [IssueId]`) and its
    // verdict (`Lint found 2 errors, 17 warnings. First failure:`),
    // https://developer.android.com/studio/write/lint#commandline: the code failed a check, above
    // Gradle's `Execution failed for task ':app:lintDebug'` that wraps it.
    'android-lint': {
      re: /^\s*\S+\.(?:xml|kt|kts|java|gradle|png|json):\d+: Error: |^\s*Lint found [1-9]\d* errors?\b/,
      score: 89,
      kind: 'error',
      category: 'compile_error',
    },
    // Zero-shot (build): type checkers', linters' and formatters' verdicts and other output shapes:
    // mypy `Found 3 errors in 2 files (checked 10 source files)`
    // (https://mypy.readthedocs.io/en/stable/running_mypy.html), tsc `Found 3 errors in 2 files.`,
    // ruff `Found 3 errors.` (https://docs.astral.sh/ruff/linter/), pyright `3 errors, 0 warnings,
    // 0 informations`, svelte-check; ESLint's `--max-warnings`
    // (https://eslint.org/docs/latest/use/command-line-interface#--max-warnings), its compact and
    // unix formatters (https://eslint.org/docs/latest/use/formatters/) and `next lint`'s `12:5
    // Error: message  rule` (https://nextjs.org/docs/app/api-reference/config/eslint); formatters
    // in check mode: black's `1 file would be reformatted` and `error: cannot format a.py: Cannot
    // parse` (https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html), ruff
    // format's `Would reformat: a.py` (https://docs.astral.sh/ruff/formatter/), isort's `ERROR:
    // a.py Imports are incorrectly sorted` (https://pycqa.github.io/isort/), and the files Prettier
    // --check lists before its summary (`[warn] src/a.ts`, https://prettier.io/docs/cli#--check).
    'checker-verdict': {
      re: /^Found [1-9]\d* errors?\b|^[1-9]\d* errors?, \d+ warnings?, \d+ (?:informations?|notes?)\b|^svelte-check found [1-9]\d* errors?\b|^ESLint found too many warnings\b|^\S+: line \d+, col \d+, Error - |^\S+:\d+:\d+: .* \[Error\/[@\w/-]+\]$|^\s*\d+:\d+\s+Error: .*\S {2,}[@\w/-]+$|\bwould be reformatted\b|^Would reformat: |^error: cannot format \S+: |^ERROR: \S+ Imports are incorrectly sorted|^\[warn\] [^\s[\]]+\.[A-Za-z]\w*\s*$/,
      score: 86,
      kind: 'error',
      category: 'compile_error',
    },
    // golangci-lint's issues (`internal/a.go:345:2: QF1003: could use tagged switch (staticcheck)`,
    // behind `Error: ` as golangci-lint-action annotates them,
    // https://golangci-lint.run/usage/configuration/#output-configuration): a linter rejecting the
    // code.
    'golangci-lint': {
      re: /^(?:Error: )?\S+\.go:\d+:\d+: .+ \([a-z][\w-]*\)$/,
      score: 87,
      kind: 'error',
      category: 'compile_error',
    },
    // Linters: ESLint's `12:5  error  message  rule` and its summary, TSLint's `ERROR: file:12:5
    // rule message`, PHPStan's `[ERROR] Found 3 errors`, SwiftLint's `Found 1 violation`, and
    // Gradle's lint and format tasks (Spotless, Checkstyle, ktlint, detekt, Android lint),
    // RuboCop's `3 offenses detected` and formatters in check mode (mix format, black, Prettier,
    // rustfmt's `error[internal]: line formatted, but exceeded maximum width` and its diff headers,
    // `Diff in src/lib.rs at line 12:` before 1.4.x and `Diff in /w/src/lib.rs:2220:` since,
    // https://github.com/rust-lang/rustfmt/blob/master/src/emitter/diff.rs).
    'linter-verdict': {
      re: /^\s*\d+:\d+\s+error\s|✖ \d+ problems? \(\d+ errors?|^ERROR: \S+\.\w+[:[(]\d+[:,]\d+\)?:? |^\s*\[ERROR\] Found \d+ errors?\b|\bFound [1-9]\d* violations?\b|\bhad format violations\b|\b[1-9]\d* offenses? detected\b|\bmix format failed\b|--check-formatted\b|^error\[internal\]: line formatted, but exceeded maximum width|\bwould reformat\b|\bCode style issues found\b|^Diff in \S+(?: at line \d+|:\d+:$)|Execution failed for task '[^']*:(?:spotless\w*Check|checkstyle\w*|ktlint\w*|detekt\w*|lint\w*)'/,
      score: 86,
      kind: 'error',
      category: 'compile_error',
    },
    // Linters that print `file:line:col: CODE message` (flake8/pycodestyle, RuboCop, shellcheck -f
    // gcc).
    'finding-code': {
      re: /^\S+:\d+:\d+: (?:[EWFC]\d{3,4}\b|[CWEF]: \S|(?:error|warning): .*\[SC\d{4}\]|warning: .* Violation: )|^\S+\.\w+: ?\d+(?::\d+)?:? (?:MD\d{3}\/|[A-Z]{1,5}\d{3,4} \S)/,
      score: 86,
      kind: 'error',
      category: 'compile_error',
    },
  },
});
