/**
 * The GitLab runner's own verdicts on a job: it failed, it ran out of time, its artifacts were
 * refused.
 */
import { defineFamily } from '../rule.ts';

/** The GitLab runner's own verdicts on a job. */
export const gitlabRunnerFamily = defineFamily({
  name: 'gitlab-runner',
  // prettier-ignore
  hints: [
    'err', 'fail', 'timeout', 'time out', 'exceeded', 'entity too large', 'too large archive',
  ],
  rules: {
    // GitLab runner's own verdict.
    'job-failed': { re: /\bERROR: Job failed\b/, score: 92, kind: 'error' },
    'job-timeout': {
      re: /\bERROR: Job failed: execution took longer than|\bjob (?:execution )?timed? ?out\b|\bexceeded the job timeout\b/i,
      score: 96,
      kind: 'error',
      category: 'timeout',
    },
    // GitLab refusing an artifacts archive over the instance's size limit: `artifacts:paths` or the
    // limit need changing (the runner's message:
    // https://gitlab.com/gitlab-org/gitlab/-/issues/472984).
    'artifacts-too-large': {
      re: /\b413 Request Entity Too Large\b|\btoo large archive\b/,
      score: 90,
      kind: 'error',
      category: 'config_yaml',
    },
  },
});
