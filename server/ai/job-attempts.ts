// The other attempts of a failed job in its pipeline (GitLab keeps a retried job's earlier attempt
// under its own id), read best effort for the analysis's facts.
import type { GitLabApi } from '../gitlab/api.ts';

/** One attempt of the same job in the same pipeline, as GitLab lists it. */
export interface JobAttempt {
  jobId: number;
  status: string;
  failureReason: string | undefined;
  finishedAt: string | null;
}

/**
 * The other attempts of the job named `jobName` in the pipeline, oldest first (job ids grow with
 * each retry). GitLab lists earlier attempts only with `include_retried=true` (doc/api/jobs.md,
 * "List pipeline jobs"); the analysed job itself is left out.
 */
export async function loadJobAttempts(
  gitlab: Pick<GitLabApi, 'listPipelineJobs'>,
  projectId: number,
  pipelineId: number,
  job: { jobId: number; jobName: string },
): Promise<JobAttempt[]> {
  const jobs = await gitlab.listPipelineJobs(projectId, pipelineId, undefined, {
    includeRetried: true,
  });
  return jobs
    .filter((j) => j.name === job.jobName && j.id !== job.jobId)
    .sort((a, b) => a.id - b.id)
    .map((j) => ({
      jobId: j.id,
      status: j.status,
      failureReason: j.failure_reason,
      finishedAt: j.finished_at,
    }));
}
