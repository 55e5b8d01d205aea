import { describe, expect, it } from 'vitest';
import { latestAttempts, orderJobs } from './from-gitlab.ts';
import type { GitLabJob } from '../gitlab/wire.ts';

const job = (id: number, name: string, stage: string): GitLabJob =>
  ({ id, name, stage }) as GitLabJob;

// doc/api/jobs.md: a retried job is a new job with a new (higher) id; `include_retried=true` also
// lists the earlier attempts, which keep the ids GitLab gave them stage by stage.
describe('stage order with retried jobs', () => {
  const attempts = [
    job(10, 'build', 'build'),
    job(11, 'unit', 'test'),
    job(12, 'lint', 'test'),
    job(13, 'deploy', 'deploy'),
    job(20, 'build', 'build'), // build retried after the pipeline failed
  ];

  it('keeps the latest attempt of each job', () => {
    expect(
      latestAttempts(attempts)
        .map((j) => j.id)
        .sort(),
    ).toEqual([11, 12, 13, 20]);
  });

  it('keeps the pipeline stage order although the retried stage now has the highest id', () => {
    const jobs = latestAttempts(attempts);
    expect(orderJobs(jobs, attempts).map((j) => j.stage)).toEqual([
      'build',
      'test',
      'test',
      'deploy',
    ]);
    // Without the earlier attempts the retried stage would sort last: the bug this prevents.
    expect(orderJobs(jobs).map((j) => j.stage)[0]).toBe('test');
  });
});
