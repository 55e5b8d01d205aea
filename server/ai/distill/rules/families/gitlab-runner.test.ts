import { describe } from 'vitest';
import { itClassifiesFamilyLines, type RuleCase } from '../rule-tester.ts';
import { gitlabRunnerFamily } from './gitlab-runner.ts';

/** Lines as the tools' documentation or source prints them (`from`), and what they mean. */
const DOCUMENTED: RuleCase[] = [
  {
    what: 'the runner stopping a job at its timeout',
    from: 'https://docs.gitlab.com/ci/pipelines/settings/#set-a-limit-for-how-long-jobs-can-run',
    line: 'ERROR: Job failed: execution took longer than 1h0m0s seconds',
    rule: 'gitlab-runner/job-timeout',
    category: 'timeout',
  },
];

/** Lines quoted from public CI logs (`from`), prefixes included. */
const QUOTED: RuleCase[] = [
  {
    what: 'GitLab refusing an artifacts archive over the size limit',
    from: 'https://gitlab.com/gitlab-org/gitlab/-/issues/472984 (the runner message)',
    line: 'ERROR: Uploading artifacts as "archive" to coordinator... 413 Request Entity Too Large  id=4242 responseStatus=413 Request Entity Too Large status=413',
    rule: 'gitlab-runner/artifacts-too-large',
    category: 'config_yaml',
  },
  {
    what: "the runner's verdict after the script failed (its category is the generic error's)",
    from: 'https://github.com/ascovale/greedys-api/blob/ba5f1bdfe8a0d76d436c2b265fe6947440fdc11d/greedys_api/pipeline.md',
    line: 'ERROR: Job failed: exit code 1',
    rule: 'gitlab-runner/job-failed',
    categoryRule: 'script/generic-error',
    category: 'script_error',
  },
];

describe('gitlab-runner rules', () => {
  itClassifiesFamilyLines(gitlabRunnerFamily, { documented: DOCUMENTED, quoted: QUOTED });
});
