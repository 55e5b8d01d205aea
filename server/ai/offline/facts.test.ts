import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { minimalContext, type JobContext } from '../job-context.ts';
import { loadRealLogs } from '../testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../testing/real-logs/skip-without-corpus.ts';
import { describeFacts, FAILURE_REASONS, jobFacts, reasonVerdict } from './facts.ts';
import { analyseOffline } from './report.ts';

// Failure reasons as GitLab names them: the `failure_reason` enum of
// app/models/concerns/enums/ci/commit_status.rb, with the words GitLab shows for each in
// app/presenters/commit_status_presenter.rb (CALLOUT_FAILURE_MESSAGES).
const GITLAB_REASONS = [
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'missing_dependency_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
  'forward_deployment_failure',
  'user_blocked',
  'project_deleted',
  'ci_quota_exceeded',
  'pipeline_loop_detected',
  'no_matching_runner',
  'trace_size_exceeded',
  'builds_disabled',
  'insufficient_bridge_permissions',
  'downstream_bridge_project_not_found',
  'invalid_bridge_trigger',
  'downstream_pipeline_creation_failed',
  'secrets_provider_not_found',
  'reached_max_descendant_pipelines_depth',
  'reached_max_pipeline_hierarchy_size',
  'protected_environment_failure',
  'environment_creation_failure',
  'deployment_rejected',
  'ip_restriction_failure',
  'failed_outdated_deployment_job',
];

const job = (over: Partial<JobContext> = {}): JobContext => ({
  ...minimalContext({ projectId: 7, pipelineId: 300, jobId: 9001, jobName: 'e2e', stage: 'test' }),
  status: 'failed',
  ref: 'main',
  ...over,
});

// The end of a GitLab job the runner stopped for time (what the runner prints, as in the demo).
const TIMED_OUT = [
  '$ npx playwright test',
  '[chromium] › checkout.spec.ts:12:5 › pays: retrying request 27 after 412ms',
  '[chromium] › checkout.spec.ts:12:5 › pays: retrying request 28 after 391ms',
  'WARNING: step_script could not run to completion because the timeout was exceeded. For more control over job and script timeouts see: https://docs.gitlab.com/ee/ci/runners/configure_runners.html#set-script-and-after_script-timeouts',
  'ERROR: Job failed: execution took longer than 1h0m0s seconds',
].join('\n');

const KILLED = [
  '$ npm run build',
  '<--- Last few GCs --->',
  'Killed',
  'ERROR: Job failed: exit code 137',
].join('\n');

describe('the facts an analysis rests on', () => {
  it('knows every failure reason GitLab defines', () => {
    expect(GITLAB_REASONS.filter((r) => FAILURE_REASONS[r] === undefined)).toEqual([]);
  });

  it("states GitLab's failure reason with the runner's line that shows it", () => {
    const facts = jobFacts(
      distillLog(TIMED_OUT),
      job({ failureReason: 'job_execution_timeout', allowFailure: false }),
    );
    expect(describeFacts(facts)).toEqual([
      '- GitLab: failure_reason = `job_execution_timeout` — the script ran longer than the maximum execution time set for the job. The log: `ERROR: Job failed: execution took longer than 1h0m0s seconds`',
      '- GitLab: allow_failure = false — this failure blocks the pipeline.',
    ]);
  });

  it("reads the runner's exit code and says what a kill means", () => {
    const facts = jobFacts(distillLog(KILLED), job({ failureReason: 'script_failure' }));
    expect(facts.map((f) => `${f.source}: ${f.statement}`)).toEqual([
      'GitLab: failure_reason = `script_failure`',
      'runner: exit code 137',
    ]);
    expect(facts[1]!.meaning).toMatch(/^the process was killed with SIGKILL \(128 \+ 9\)/);
  });

  it('says a retry that passed makes the failure intermittent, and one that failed alike does not', () => {
    const log = distillLog('$ npm test\nERROR: Job failed: exit code 1');
    const passedLater = jobFacts(
      log,
      job({
        failureReason: 'script_failure',
        attempts: [{ jobId: 9050, status: 'success', failureReason: undefined, finishedAt: null }],
      }),
    );
    expect(passedLater.at(-1)).toEqual({
      source: 'GitLab',
      statement: 'attempt 1 of 2 of this job in pipeline #300 (retried since: #9050 success)',
      meaning:
        'a retry of the same commit passed: this failure is intermittent (flaky test, shared service or runner), not a code change',
    });
    const failedBefore = jobFacts(
      log,
      job({
        failureReason: 'script_failure',
        attempts: [
          { jobId: 8990, status: 'failed', failureReason: 'script_failure', finishedAt: null },
        ],
      }),
    );
    expect(failedBefore.at(-1)!.statement).toBe(
      'attempt 2 of 2 of this job in pipeline #300 (earlier: #8990 failed (`script_failure`))',
    );
    expect(failedBefore.at(-1)!.meaning).toBe(
      'it failed the same way before: retrying alone will not fix it',
    );
  });

  it('puts a runner failure first: the verdict, then what to do, even with an empty log', () => {
    const context = job({ failureReason: 'runner_system_failure' });
    expect(reasonVerdict(context)?.sentence).toBe(
      'This is a failure around the job, not of its script: GitLab says the runner’s system failed (the executor, its container or VM), not the job’s script.',
    );
    const empty = analyseOffline(distillLog(''), context);
    expect(empty).toContain(
      '- GitLab: failure_reason = `runner_system_failure` — the runner’s system failed',
    );
    expect(empty).toContain('**Next step:** Retry the job; if it recurs on the same runner');
    const report = analyseOffline(
      distillLog(
        'Preparing the "docker" executor\nERROR: Job failed (system failure): Error response from daemon: no space left on device',
      ),
      context,
    );
    expect(report).toContain('**GitLab’s verdict:** This is a failure around the job');
    expect(report).toMatch(
      /\*\*Next steps:\*\*\n1\. Retry the job; if it recurs on the same runner/,
    );
  });

  it('does not call a script failure anything but the script’s', () => {
    expect(reasonVerdict(job({ failureReason: 'script_failure' }))).toBeUndefined();
    expect(reasonVerdict(job({ failureReason: 'job_execution_timeout' }))).toBeUndefined();
    expect(reasonVerdict(job({ failureReason: 'a_reason_from_a_newer_gitlab' }))).toBeUndefined();
  });

  it('says a stuck job needs a runner, not a fix of its script', () => {
    const answer = analyseOffline(
      distillLog(''),
      job({ failureReason: 'stuck_or_timeout_failure' }),
    );
    expect(answer).toContain(
      'Time ran out before or while the job ran: GitLab says the job got stuck (no runner picked it up in time) or timed out.',
    );
    expect(answer).toContain(
      '**Next step:** Check that a runner with the job’s tags is online and not saturated',
    );
  });

  it('reads exit codes from real GitLab and GitHub Actions logs, with the right source', () => {
    skipWithoutRealLogs();
    const logs = new Map(loadRealLogs().map((l) => [l.id, l.text]));
    const factsOf = (id: string) => describeFacts(jobFacts(distillLog(logs.get(id)!)));
    // GitLab's Docker executor: the runner's own verdict.
    expect(factsOf('gitlab-greedys-api-docker-maven-cannot-find-symbol')).toEqual([
      '- runner: exit code 1 — the failing command exited non-zero.',
    ]);
    // A Kubernetes executor words it `command terminated with exit code 1`.
    expect(factsOf('gitlab-ionic-appflow-missing-gradle-script')).toEqual([
      '- runner: exit code 1 — the failing command exited non-zero.',
    ]);
    // GitHub Actions: the log's word, and the line it is in; 124 is GNU timeout stopping a command.
    const [gha] = factsOf('gha-synapse-compose-smoke-spring-missing-bean');
    expect(gha).toMatch(
      /^- log: exit code 124 — the `timeout` command stopped the command when its time limit ran out \(GNU timeout exits 124\)\. The log: `.*##\[error\]Process completed with exit code 124\.`$/,
    );
  });
});
