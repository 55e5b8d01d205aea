import type { JobResponse } from '../contract.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import { toJobDetails } from '../summary/from-gitlab.ts';

/** A GitLab job as GET /api/jobs/{projectId}/{jobId} serves it (and `explain --direct` reads it). */
export function toJobResponse(job: GitLabJob): JobResponse {
  return {
    ...toJobDetails(job),
    project_id: job.pipeline.project_id,
    pipeline_id: job.pipeline.id,
    ref: job.ref,
  };
}
