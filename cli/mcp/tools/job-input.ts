import { z } from 'zod';
import type { JobResponse } from '../../../server/contract.ts';
import { serviceJobSource } from '../../explain/service-source.ts';
import type { JobSource } from '../../explain/job-source.ts';
import type { ServiceClient } from '../../service/service-client.ts';
import { duration } from '../pipeline-tool.ts';

/** The input naming one job: its project (id or path, as a job URL gives it) and its id. */
export const JOB_INPUT = {
  projectId: z
    .union([z.number().int().positive(), z.string().min(3).max(1000)])
    .describe(
      "The project: numeric id, or full path as in the job's URL (https://gitlab.example.com/<path>/-/jobs/<jobId>)",
    ),
  jobId: z.number().int().positive().describe('The job id'),
};

/** The job a tool was asked about, read through the service (as `explain` reads it). */
export async function findJob(
  client: ServiceClient,
  args: { projectId: number | string; jobId: number },
): Promise<{ source: JobSource; job: JobResponse }> {
  const source = await serviceJobSource(client);
  const projectId = await source.projectId(String(args.projectId).replace(/^\/+|\/+$/g, ''));
  return { source, job: await source.job(projectId, args.jobId) };
}

/** One line saying which job this is and how it ended. */
export function jobHeadline(job: JobResponse): string {
  const reason = job.failure_reason ? ` (${job.failure_reason})` : '';
  return `Job ${job.id} ${job.name} [stage ${job.stage}] of project ${job.project_id}: ${job.status}${reason} · pipeline ${job.pipeline_id} · ${job.ref} · ${duration(job.duration)}`;
}
