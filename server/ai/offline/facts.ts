// What GitLab states and the runner prints about a failed job, before any reading of its log: the
// job's failure_reason, the exit code, allow_failure, its other attempts and its last green run.
// The analysis starts from these and says which it rests on; the log's lines support or refine them.
import type { DistilledLog } from '../distill/log-distiller.ts';
import type { JobContext } from '../job-context.ts';

/** Who states a fact: GitLab's API, the runner's own last line, another CI system's log, or history. */
export type FactSource = 'GitLab' | 'runner' | 'log';

/** One fact the analysis rests on, with where it comes from and what it means. */
export interface Fact {
  source: FactSource;
  /** What was stated, as the source states it (`failure_reason = job_execution_timeout`). */
  statement: string;
  /** What it means for this failure, in a reader's words. */
  meaning: string;
  /** The log line that shows the same, when the log has one. */
  support?: string | undefined;
}

/** How a failure reason directs the analysis. */
type ReasonKind =
  /** The job's own script failed: the log decides the cause. */
  | 'script'
  /** Time ran out (the job's timeout, or no runner picked it up in time). */
  | 'time'
  /** The runner or GitLab failed around the job, not the job's script: retry first. */
  | 'infrastructure'
  /** The job could not run as configured (dependencies, environments, triggers, runners). */
  | 'configuration'
  /** The instance refused to run it (quota, blocked user, permissions, disabled CI). */
  | 'refused';

interface ReasonInfo {
  kind: ReasonKind;
  /** GitLab's own words for it, shortened. */
  says: string;
  /** What to do first. */
  advice?: string;
}

/**
 * GitLab's job failure reasons (the `failure_reason` enum of app/models/concerns/enums/ci/
 * commit_status.rb) with the words GitLab shows for each (CALLOUT_FAILURE_MESSAGES in
 * app/presenters/commit_status_presenter.rb), and what they mean for the analysis.
 */
export const FAILURE_REASONS: Readonly<Record<string, ReasonInfo>> = {
  script_failure: { kind: 'script', says: 'a command of the job script exited non-zero' },
  unknown_failure: {
    kind: 'infrastructure',
    says: 'an unknown failure',
    advice: 'Retry the job; if it fails the same way, the log below is the only evidence.',
  },
  api_failure: {
    kind: 'infrastructure',
    says: 'the runner could not talk to GitLab’s API (an API failure)',
    advice:
      'Retry the job: the runner lost GitLab (network, GitLab maintenance, an expired job token), not your script.',
  },
  stuck_or_timeout_failure: {
    kind: 'time',
    says: 'the job got stuck (no runner picked it up in time) or timed out',
    advice:
      'Check that a runner with the job’s tags is online and not saturated (Settings › CI/CD › Runners), then retry.',
  },
  runner_system_failure: {
    kind: 'infrastructure',
    says: 'the runner’s system failed (the executor, its container or VM), not the job’s script',
    advice:
      'Retry the job; if it recurs on the same runner, tell the runner’s administrator (the runner is named at the top of the log).',
  },
  missing_dependency_failure: {
    kind: 'configuration',
    says: 'an artifact this job depends on is missing (expired or never uploaded)',
    advice:
      'Re-run the pipeline so the jobs named in `needs:`/`dependencies:` produce their artifacts again, or raise their `artifacts:expire_in`.',
  },
  runner_unsupported: {
    kind: 'configuration',
    says: 'the runner is too old for this job',
    advice: 'Upgrade the runner, or pin the job to an up-to-date runner with `tags:`.',
  },
  stale_schedule: {
    kind: 'infrastructure',
    says: 'a delayed job could not be run',
    advice: 'Retry the job.',
  },
  job_execution_timeout: {
    kind: 'time',
    says: 'the script ran longer than the maximum execution time set for the job',
  },
  archived_failure: {
    kind: 'refused',
    says: 'the job is archived and cannot be run',
    advice:
      'Run a new pipeline: GitLab does not re-run jobs of archived pipelines (Settings › CI/CD › Archive pipelines).',
  },
  unmet_prerequisites: {
    kind: 'configuration',
    says: 'the job failed to complete prerequisite tasks (for example creating its Kubernetes namespace or environment)',
    advice:
      'Check the cluster or environment the job deploys to (its agent or integration and its permissions), then retry.',
  },
  scheduler_failure: {
    kind: 'infrastructure',
    says: 'the scheduler failed to assign the job to a runner',
    advice: 'Retry the job; if it recurs, ask the GitLab administrator.',
  },
  data_integrity_failure: {
    kind: 'infrastructure',
    says: 'GitLab found a problem with the job’s data',
    advice: 'Ask the GitLab administrator to review the job’s logs (give them the job id).',
  },
  forward_deployment_failure: {
    kind: 'refused',
    says: 'the deployment job is older than a deployment that already succeeded',
    advice: 'Nothing to fix: a newer deployment already ran. Deploy from the newest pipeline.',
  },
  failed_outdated_deployment_job: {
    kind: 'refused',
    says: 'the deployment job is older than the latest deployment',
    advice: 'Deploy from the newest pipeline.',
  },
  user_blocked: {
    kind: 'refused',
    says: 'the user who created the job is blocked',
    advice: 'Run the pipeline as an active user.',
  },
  project_deleted: { kind: 'refused', says: 'the job belongs to a deleted project' },
  ci_quota_exceeded: {
    kind: 'refused',
    says: 'no compute minutes are left',
    advice:
      'Buy or wait for compute minutes, or run the job on a project or group runner of your own.',
  },
  pipeline_loop_detected: {
    kind: 'configuration',
    says: 'running it would create an endless loop of pipelines',
    advice: 'Check the `trigger:` and `rules:` that start this pipeline from itself.',
  },
  no_matching_runner: {
    kind: 'configuration',
    says: 'no runner matches the job',
    advice: 'Check the job’s `tags:` against the runners available to the project.',
  },
  trace_size_exceeded: {
    kind: 'configuration',
    says: 'the job log reached its size limit',
    advice: 'Print less (drop verbose or debug output), or write it to an artifact.',
  },
  builds_disabled: { kind: 'refused', says: 'CI/CD is disabled for this project' },
  environment_creation_failure: {
    kind: 'configuration',
    says: 'it would create an environment with an invalid parameter',
    advice: 'Check `environment:name` and `environment:url` (variables in them must expand).',
  },
  deployment_rejected: { kind: 'refused', says: 'the deployment was rejected (an approval)' },
  protected_environment_failure: {
    kind: 'refused',
    says: 'the environment is protected and this user may not deploy to it',
    advice: 'Ask someone allowed to deploy to the environment to run the job.',
  },
  ip_restriction_failure: {
    kind: 'refused',
    says: 'the group’s IP address restriction does not allow the runner’s address',
  },
  secrets_provider_not_found: {
    kind: 'configuration',
    says: 'the secrets provider cannot be found',
    advice: 'Check the job’s `secrets:` and the Vault or cloud variables it needs.',
  },
  downstream_pipeline_creation_failed: {
    kind: 'configuration',
    says: 'the downstream pipeline could not be created',
    advice: 'Open the trigger job in GitLab: it shows why the downstream pipeline was refused.',
  },
  insufficient_bridge_permissions: {
    kind: 'refused',
    says: 'the user may not create the downstream pipeline',
  },
  downstream_bridge_project_not_found: {
    kind: 'configuration',
    says: 'the downstream project could not be found',
    advice: 'Check `trigger:project:` (its full path) and that the user can see it.',
  },
  invalid_bridge_trigger: {
    kind: 'configuration',
    says: 'the downstream trigger definition is invalid',
    advice: 'Check the job’s `trigger:` in .gitlab-ci.yml with the CI Lint.',
  },
  reached_max_descendant_pipelines_depth: {
    kind: 'configuration',
    says: 'the maximum depth of child pipelines was reached',
  },
  reached_max_pipeline_hierarchy_size: {
    kind: 'configuration',
    says: 'the downstream pipeline tree is too large',
  },
};

/**
 * What GitLab's failure reason says when it is not the script's failure: a sentence for the
 * report's head and the first thing to do. Undefined for script failures, the job's own timeout
 * and unknown reasons.
 */
export function reasonVerdict(
  context: JobContext | undefined,
): { sentence: string; advice: string | undefined } | undefined {
  const reason = context?.failureReason;
  const info = reason ? FAILURE_REASONS[reason] : undefined;
  // The job's own timeout is the log's to explain (what it was doing); a job that never ran is not.
  if (!info || info.kind === 'script' || (info.kind === 'time' && !info.advice)) return undefined;
  const whose =
    info.kind === 'time'
      ? 'Time ran out before or while the job ran'
      : info.kind === 'infrastructure'
        ? 'This is a failure around the job, not of its script'
        : info.kind === 'configuration'
          ? 'The job could not run as configured'
          : 'GitLab refused to run the job';
  return { sentence: `${whose}: GitLab says ${info.says}.`, advice: info.advice };
}

// Exit statuses above 128 are 128 + the signal that ended the command (bash manual, "Exit Status":
// https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html); 126 and 127 are bash's for a
// command that is not executable or not found; 124 is what GNU `timeout` returns when it stopped the
// command (https://www.gnu.org/software/coreutils/manual/html_node/timeout-invocation.html).
const EXIT_CODES: Readonly<Record<number, { meaning: string }>> = {
  124: {
    meaning:
      'the `timeout` command stopped the command when its time limit ran out (GNU timeout exits 124)',
  },
  126: { meaning: 'the command was found but could not be executed (not executable, bash 126)' },
  127: { meaning: 'the command was not found (bash 127): a missing tool or a typo in the script' },
  130: { meaning: 'the command was interrupted (SIGINT, 128 + 2)' },
  134: { meaning: 'the program aborted itself (SIGABRT, 128 + 6): an assertion or a crash' },
  137: {
    meaning:
      'the process was killed with SIGKILL (128 + 9): most often the out-of-memory killer, or a runner or orchestrator stopping the container',
  },
  139: { meaning: 'the program crashed with a segmentation fault (SIGSEGV, 128 + 11)' },
  143: {
    meaning:
      'the process was terminated with SIGTERM (128 + 15): the job was cancelled or timed out, or its container or pod was stopped',
  },
};

/** What an exit status means, for the statuses that say more than "the command failed". */
export function exitCodeMeaning(code: number): string | undefined {
  return EXIT_CODES[code]?.meaning;
}

// The GitLab runner's verdict (`ERROR: Job failed: exit code 137`); other CI systems print their
// own (`##[error]Process completed with exit code 2.`), which count as the log's word.
// A Kubernetes executor says `ERROR: Job failed: command terminated with exit code 1`.
const RUNNER_EXIT = /^ERROR: Job failed: (?:command terminated with )?exit code (\d+)\s*$/;
// How the distiller reads an exit status (log-distiller.ts), to quote the line it came from.
const EXIT_WORDS = '(?:exit code|exit status|exited with code|returned a non-zero code:)';
const RUNNER_TIMEOUT = /^ERROR: Job failed: execution took longer than .+$/;

function findLine(distilled: DistilledLog, re: RegExp): string | undefined {
  return distilled.text
    .split('\n')
    .map((l) => l.trim())
    .findLast((l) => re.test(l));
}

// A CI system's verdict on the job: the command whose status failed it. Other lines with an exit
// status (a post-job `git` warning, a retried download) say less.
const CI_VERDICT = /##\[error\]Process completed with exit code (\d+)/;

/** The exit status that failed the job: the runner's verdict, another CI system's, else the last one printed. */
function exitFact(distilled: DistilledLog): Fact | undefined {
  const runnerLine = findLine(distilled, RUNNER_EXIT);
  if (runnerLine !== undefined) {
    const code = Number(RUNNER_EXIT.exec(runnerLine)![1]);
    return {
      source: 'runner',
      statement: `exit code ${code}`,
      meaning: exitCodeMeaning(code) ?? 'the failing command exited non-zero',
    };
  }
  const verdict = findLine(distilled, CI_VERDICT);
  const code = verdict ? Number(CI_VERDICT.exec(verdict)![1]) : distilled.exitCode;
  if (code === undefined) return undefined;
  return {
    source: 'log',
    statement: `exit code ${code}`,
    meaning: exitCodeMeaning(code) ?? 'the failing command exited non-zero',
    support: verdict ?? findLine(distilled, new RegExp(`${EXIT_WORDS} ${code}\\b`, 'i')),
  };
}

function attemptsFact(context: JobContext): Fact | undefined {
  const attempts = context.attempts;
  if (!attempts || attempts.length === 0) return undefined;
  const earlier = attempts.filter((a) => a.jobId < context.jobId);
  const later = attempts.filter((a) => a.jobId > context.jobId);
  const word = (a: (typeof attempts)[number]) =>
    `#${a.jobId} ${a.status}${a.failureReason && a.status === 'failed' ? ` (\`${a.failureReason}\`)` : ''}`;
  const parts: string[] = [];
  if (earlier.length > 0) parts.push(`earlier: ${earlier.map(word).join(', ')}`);
  if (later.length > 0) parts.push(`retried since: ${later.map(word).join(', ')}`);
  const passedLater = later.some((a) => a.status === 'success');
  const failedBefore = earlier.filter((a) => a.status === 'failed');
  const sameReason =
    failedBefore.length > 0 && failedBefore.every((a) => a.failureReason === context.failureReason);
  const meaning = passedLater
    ? 'a retry of the same commit passed: this failure is intermittent (flaky test, shared service or runner), not a code change'
    : failedBefore.length > 0 && sameReason
      ? `it failed the same way ${failedBefore.length === 1 ? 'before' : `${failedBefore.length} times before`}: retrying alone will not fix it`
      : failedBefore.length > 0
        ? 'an earlier attempt failed differently: compare both logs'
        : 'other attempts of this job exist in the pipeline';
  return {
    source: 'GitLab',
    statement: `attempt ${earlier.length + 1} of ${attempts.length + 1} of this job in pipeline #${context.pipelineId} (${parts.join('; ')})`,
    meaning,
  };
}

function greenFact(context: JobContext): Fact | undefined {
  const prev = context.previousSuccess;
  if (prev === undefined) return undefined;
  const ref = context.ref ? ` on \`${context.ref}\`` : '';
  if (prev === null) {
    return {
      source: 'GitLab',
      statement: `no green run of this job${ref} in recent pipelines`,
      meaning: 'it has been failing for a while (or is new): not what flakiness looks like',
    };
  }
  return {
    source: 'GitLab',
    statement: `last green run${ref}: job #${prev.jobId} in pipeline #${prev.pipelineId}${prev.commit ? ` at ${prev.commit.shortId}` : ''}`,
    meaning:
      prev.commit && prev.commit.sha === context.commit?.sha
        ? 'it passed on this very commit: suspect flakiness or the environment, not the code'
        : 'what changed since then is the first suspect',
  };
}

/**
 * The facts a job's analysis rests on, GitLab's first: its failure reason, the exit status the
 * runner (or the CI system) printed, allow_failure, the job's other attempts and its last green run.
 */
export function jobFacts(distilled: DistilledLog, context?: JobContext): Fact[] {
  const facts: Fact[] = [];
  const reason = context?.failureReason;
  if (reason) {
    const info = FAILURE_REASONS[reason];
    facts.push({
      source: 'GitLab',
      statement: `failure_reason = \`${reason}\``,
      meaning: info
        ? info.says
        : 'a reason this analyser does not know; GitLab’s job page explains it',
      support: info?.kind === 'time' ? findLine(distilled, RUNNER_TIMEOUT) : undefined,
    });
  }
  const exit = exitFact(distilled);
  if (exit) facts.push(exit);
  if (context?.allowFailure !== undefined) {
    facts.push({
      source: 'GitLab',
      statement: `allow_failure = ${context.allowFailure}`,
      meaning: context.allowFailure
        ? 'this job is allowed to fail: it does not block the pipeline'
        : 'this failure blocks the pipeline',
    });
  }
  if (context) {
    const attempts = attemptsFact(context);
    if (attempts) facts.push(attempts);
    const green = greenFact(context);
    if (green) facts.push(green);
  }
  return facts;
}

/** The facts as Markdown bullets: each with its source, what it means and the line showing it. */
export function describeFacts(facts: readonly Fact[]): string[] {
  return facts.map(
    (f) =>
      `- ${f.source}: ${f.statement} — ${f.meaning}.${f.support ? ` The log: \`${f.support.replace(/`/g, "'")}\`` : ''}`,
  );
}
