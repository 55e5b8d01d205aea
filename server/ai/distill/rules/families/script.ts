/**
 * The job's own script (shell, PowerShell), other timeouts, and error or warning lines in any
 * tool's words.
 */
import { defineFamily } from '../rule.ts';

/** The job's own script, and error lines in any tool's words. */
export const scriptFamily = defineFamily({
  name: 'script',
  // prettier-ignore
  hints: [
    'err', 'no rule to make target', 'fail', 'fatal', 'panic', 'traceback', 'caused by',
    'exception', 'exit', 'timeout', 'time out', 'deadline', 'not found', 'no such', 'expected',
    'warn', 'abort', 'segmentation', 'core dumped', 'syntax', 'unexpected', 'terminated',
    'exceeded', 'unhealthy', 'curl: (', 'timed out', 'aborted', /^[A-Z][a-z]+-[A-Z][A-Za-z]+ : /,
    /^\*\* \(/,
  ],
  rules: {
    // PowerShell's error record, as its default view prints it (`Start-Process : This command
    // cannot be run because …`, then `At line:1 char:1` and `+ FullyQualifiedErrorId : …`,
    // https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_error_handling):
    // a cmdlet of the job's own script failed.
    'powershell-error': {
      re: /^[A-Z][a-z]+-[A-Z][A-Za-z]+ : \S/,
      score: 86,
      kind: 'error',
      category: 'script_error',
    },
    // Something else timed out: an error, but not the `timeout` category, which means the CI system
    // stopped the job (gitlab-runner/job-timeout, ci-systems/timeout-or-abort); a harness's or a
    // script's own limit is what it was waiting for.
    'other-timeout': {
      re: /\b(?:timed out|time ?out (?:exceeded|reached|after)|deadline exceeded|exceeded timeout|took longer than)/i,
      score: 88,
      kind: 'error',
      category: 'script_error',
    },
    // Zero-shot (build): the job's own shell script failing, not compiled code: dash's `sh: 1: foo:
    // not found` (https://git.kernel.org/pub/scm/utils/dash/dash.git/tree/src/exec.c) and its `1:
    // Syntax error: "fi" unexpected`, bash's `line 12: syntax error near unexpected token `fi'` and
    // `unexpected EOF while looking for matching`
    // (https://www.gnu.org/software/bash/manual/bash.html). Before build/compile-error-words in
    // precedence, which reads any "syntax error" as code.
    'shell-error': {
      re: /^\S+: (?:\d+|line \d+): [^\s:]+: (?:command )?not found\s*$|^(?:\S*\/)?(?:ba|da)?sh: [^\s:]+: (?:command )?not found\s*$|^\S+: (?:-c: )?line \d+: (?:syntax error(?: near unexpected token |: unexpected end of file)|unexpected EOF while looking for matching )|^\S+: \d+: (?:\S+: )?Syntax error: /,
      score: 87,
      kind: 'error',
      category: 'script_error',
    },
    // Generic errors.
    'generic-error': {
      re: /^[\w.+-]+: (?:error|fatal|ERROR|FATAL)\b:? |^\*\* \(\w[\w.]*\) |^[\s│|]*(?:npm ERR!|npm error|ERR!|\[ERROR\]|\[ +(?:ERROR|CRITICAL) +\]:|ERROR\b|FATAL\b|fatal:|Error:|error\b|E\/|panic:|Fatal error:)|\b(?:FATAL|CRITICAL)\b|\bpanic: |^Traceback \(most recent call last\)|^\s*Caused by\b|^\s*caused by: |^\s*(?:[\w$]+(?:\.|::))*[\w$]*(?:Exception|Error)\b(?::|\s*$)|^\s*(?:[\w$]+\.)*[A-Z][a-z]\w*(?:Failed|Failure): |\((?:ERROR|CRITICAL)\): |^The command ".*" exited with [1-9]\d*\.|make(?:\[\d+\])?: \*\*\*|^curl: \(\d+\)|BUILD FAILURE|FAILURE: Build failed|BUILD FAILED|Build failed|Segmentation fault|core dumped|Aborted|command not found|No such file or directory|exited with (?:code|status) [1-9]|exit (?:code|status) [1-9]|returned (?:a )?non-zero exit status|non-zero (?:exit )?code|terminated with exit code|failed with exit code|Process completed with exit code [1-9]|The command '.*' returned a non-zero code|did not complete successfully|unhealthy|Unhandled(?:Promise)?Rejection|Uncaught/,
      score: 85,
      kind: 'error',
      category: 'script_error',
    },
    // Lower-value hints.
    warning: { re: /\bwarn(?:ing)?\b|\bdeprecated\b/i, score: 30, kind: 'warning' },
  },
});
