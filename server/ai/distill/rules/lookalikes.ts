/**
 * Lines that look like errors but are not, checked around the rules: a compiler's warning before
 * them, a line that says nothing failed after them.
 */

/** Lines that look alarming but say nothing went wrong ("0 errors", compiler flags). */
export const NOT_AN_ERROR =
  /\b0 (?:errors?|failed|failures|failing)\b|\bfailures: 0, errors: 0\b|\berrors?: 0\b|\bno errors?\b|\b0 vulnerabilities\b|\btests? (?:failed|errors?): 0\b|, continuing with (?:the )?build\b|^Total: 0 \((?:UNKNOWN|LOW|MEDIUM|HIGH|CRITICAL): /i;

// Command and setting words that make a line look alarming (`set -e`, `-Werror`, `|| true`): an
// echoed command, unless the line opens with an error verdict that merely quotes the command.
const ALARMING_WORDS = /-Werror|--fail-fast|error_reporting|\bset -e|\|\| true\b|allow_failure/i;
const OPENS_WITH_ERROR = /^\s*(?:Error|ERROR|error|fatal|FATAL)\b:? /;
// A count of failures or the runner's verdict is an error even beside those words.
const COUNTED_FAILURE =
  /\bERROR: Job failed\b|\b[1-9]\d* (?:errors|failures|failed)\b|\b(?:Failures|Errors|Failed): [1-9]/;

/**
 * Whether an error rule's match on `line` is a lookalike: the line says nothing failed, or it is an
 * echoed command or setting, and it counts no failures.
 */
export function isErrorLookalike(line: string): boolean {
  return (
    (NOT_AN_ERROR.test(line) || (ALARMING_WORDS.test(line) && !OPENS_WITH_ERROR.test(line))) &&
    !COUNTED_FAILURE.test(line)
  );
}

/**
 * A compiler's warning or note (gcc/clang `file:12:5: warning:`, `cc1plus: note:`, MSVC
 * `file(12): warning C4996:`), or apt's (`W: Failed to fetch …`, ignored by apt itself), is not why
 * a build failed, even when its text says "is not defined"; with -Werror it is printed as an error.
 * Still counted: linters whose findings are all "warnings" (shellcheck's [SC####], SwiftLint's
 * "… Violation:"), and the warnings GCC 14 turned into errors
 * (https://gcc.gnu.org/gcc-14/porting_to.html), which break configure checks and newer toolchains.
 */
export const COMPILER_WARNING =
  /^W: |^\S+: note: |^\s*\S+:\d+(?::\d+)?: note: |^\s*\S+(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\)\s?:) warning(?::| [A-Z]+\d+)(?!.*(?:\[SC\d{4}\]| Violation: |implicit declaration|implicit-function-declaration|implicit-int|int-conversion|incompatible(?:-| )pointer|return-mismatch|-Werror))/;
