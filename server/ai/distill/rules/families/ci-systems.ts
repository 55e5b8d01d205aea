/**
 * Other CI systems' verdicts and the configuration they refuse: timeouts and cancellations
 * (Travis, GitHub Actions, Azure Pipelines, Taskcluster, Jenkins), a Jenkinsfile or workflow the
 * system rejects, a setup action asked for a version that does not exist.
 */
import { defineFamily } from '../rule.ts';

/** Other CI systems' verdicts, and the configuration they refuse. */
export const ciSystemsFamily = defineFamily({
  name: 'ci-systems',
  // prettier-ignore
  hints: [
    'err', 'fail', 'exception', 'exit', 'timeout', 'not found', 'no such', "can't", 'could not',
    'unable', 'invalid', 'yaml', 'received', 'unknown', 'missing', 'abort', 'exceeded', 'cancel',
    'no output', 'resolv', 'ran longer than', 'not valid', 'timed out', 'aborted',
    'no such dsl method', 'workflowscript', 'solution not found',
  ],
  rules: {
    // Other CI systems' own timeouts and cancellations (Travis, GitHub Actions, Azure Pipelines,
    // Taskcluster, Jenkins: a build stopped by hand prints `Aborted by <user>` and `Finished:
    // ABORTED`, https://www.jenkins.io/doc/book/using/aborting-a-build/; a GitHub Actions step past
    // its `timeout-minutes` prints `The action 'Run tests' has timed out after 30 minutes.`,
    // https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepstimeout-minutes).
    'timeout-or-abort': {
      re: /exceeded the maximum (?:time limit|execution time)|\bThe action '[^']+' has timed out after \d+ minutes?\b|No output has been received in the last|max run time exceeded|Task timeout after \d+|Build timed out \(after|\bThe operation was canceled\b|has exceeded the maximum execution time|\bExceeded timeout of \d+ (?:minutes?|hours?)\b|ran longer than the maximum time of \d+|Cancelling nested steps due to timeout|^The command ".*" exited with 124\.|timed out after \d+ seconds? (?:with no|without) output|^Aborted by \S|^Finished: ABORTED\b/i,
      score: 95,
      kind: 'error',
      category: 'timeout',
    },
    // The job's own CI configuration rejected by the CI system: a Jenkinsfile calling a step or
    // section where the pipeline grammar has none (`No such DSL method 'post' found among steps`)
    // or failing to compile (`WorkflowScript: 12: …`, `MultipleCompilationErrorsException: startup
    // failed`), https://www.jenkins.io/doc/book/pipeline/syntax/.
    'jenkinsfile-rejected': {
      re: /\bNo such DSL method '[^']+' found among steps\b|^WorkflowScript: \d+: |\bMultipleCompilationErrorsException: startup failed\b|\bin source unit 'WorkflowScript'/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    // Azure Pipelines' VSBuild/MSBuild task given a solution pattern that matches nothing
    // (https://learn.microsoft.com/azure/devops/pipelines/tasks/reference/vsbuild-v1).
    'solution-not-found': {
      re: /\bSolution not found using search pattern\b/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
    // Zero-shot (deps): the job's own CI configuration. GitHub Actions rejecting a workflow, a
    // called workflow or an action reference, or a deprecated action it no longer runs
    // (https://docs.github.com/en/actions/writing-workflows/workflow-syntax-for-github-actions),
    // GitLab's `This GitLab CI configuration is invalid`, and a setup action asked for a version
    // that does not exist: setup-python, setup-node, setup-go, setup-java and setup-ruby (their
    // sources' errors, e.g.
    // https://github.com/actions/setup-node/blob/main/src/distributions/base-distribution.ts).
    'workflow-or-setup-version': {
      re: /\bInvalid workflow file\b|\bThe (?:workflow|template) is not valid\b|\.ya?ml \(Line: \d+, Col: \d+\): |\berror parsing called workflow\b|\bUnable to resolve actions?\b|Can't find 'action\.yml', 'action\.yaml' or 'Dockerfile'|\bMissing download info for \S+@|\bbecause it uses a deprecated version of `|CI configuration is invalid\b|\bVersion \S+ with arch \S+ not found\b|\bThe version '[^']+' with architecture '[^']+' was not found\b|\bUnable to find (?:Node|Go) version '[^']+' for platform\b|\bCould not find satisfied version for [Ss]em[Vv]er\b|\bUnknown version \S+ for (?:ruby|jruby|truffleruby)\b/,
      score: 89,
      kind: 'error',
      category: 'config_yaml',
    },
  },
  advice: {
    'stopped-by-hand': {
      category: 'timeout',
      when: /^Aborted by \S|Finished: ABORTED/m,
      steps: [
        'Someone (or a newer run) stopped this build; no check failed. If it was stopped because it hung, the last lines show what was running: a command that never returns (a server started in the foreground, a prompt waiting for input) must run in the background, as a service, or with a timeout.',
      ],
      instead: true,
    },
  },
});
