/**
 * Lines that frame a step rather than explain its failure: the step's start, its echoed command,
 * the CI system's verdict on it and the wrappers that report that it failed.
 */

/**
 * The line that opens a step: a GitHub Actions `##[group]Run …`, pytest's `____ test_x ____`, a
 * `$ command` or shell trace `+ command`, a Gradle task or Maven plugin banner, an rpm stage.
 */
export const LEAD_IN =
  /^##\[group\]Run |^_{3,} .+ _{3,}$|^\$ \S|^\+ \S|^> Task :|^\[INFO\] --- |^Executing\(%\w+\)|^make(?:\[\d+\])?: Entering directory|^Running (?:command|test|tests|\S+\.\w+)\b|^TEST-START \|/;

/**
 * Lines that follow from the real error rather than explain it: build tools, shells and CI systems
 * reporting that a step failed.
 */
export const WRAPPER =
  /^✗ Build failed in \d|Bad exit status from \S+ \(%\w+\)|^make(?:\[\d+\])?: \*\*\* (?!No rule to make target)|Process completed with exit code|npm ERR! (?:code ELIFECYCLE|errno|Test failed\.|Exit status|Failed at|A complete log)|^npm error (?:code|errno|Lifecycle|command failed)|\bELIFECYCLE\b|^RPM build errors|^ERROR: Job failed\b|error: last command exited|\bBUILD FAILED\b|FAILURE: Build failed|^Build failed\b|^error: build failed|returned (?:a )?non-zero exit status|The command ".*" exited with [1-9]\d*\.?$|^Error: Process completed|^error Command failed with exit code \d+\.$|exited with code [1-9]|^\S*Error: Command failed|^ERROR: Exception\(|^ERROR: Command failed|^ERROR: Step \S.*\S (?:failed|aborted due to exception)|^\[ERROR\] (?:Failed to execute goal|BUILD FAILURE|-> \[Help|Re-run Maven|To see the full stack|For more information about the errors|\s*$)/;

/**
 * A CI system's verdict that one command (Travis) or step (GitHub Actions) failed; the job may run
 * more commands after it, whose failures usually follow from the first.
 */
export const COMMAND_VERDICT =
  /^The command ".*" exited with [1-9]\d*\.?$|Process completed with exit code [1-9]/;

/** A shell command as GitLab echoes it (`$ npm test`). */
export const COMMAND = /^\$ \S/;
