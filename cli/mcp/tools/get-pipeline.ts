import { z } from 'zod';
import type { JobDetails, PipelineDetails } from '../../../server/contract.ts';
import { capped, duration, minute, pipelineTool, READ_ONLY } from '../pipeline-tool.ts';

/** Most jobs listed; a pipeline with more is rare, and failed jobs come first. */
const MAX_JOBS = 60;
const MARK: Record<string, string> = { failed: '✗', success: '✓', running: '▶', canceled: '⊘' };

function jobLine(job: JobDetails): string {
  const reason = job.failure_reason ? ` (${job.failure_reason})` : '';
  const allowed = job.allow_failure && job.status === 'failed' ? ', allowed to fail' : '';
  return `${MARK[job.status] ?? '·'} ${job.stage}/${job.name} · job ${job.id} · ${job.status}${reason}${allowed} · ${duration(job.duration)}`;
}

/** get_pipeline: GET /api/pipelines/{projectId}/details/{pipelineId}. */
export const getPipelineTool = pipelineTool({
  name: 'get_pipeline',
  title: 'Get a pipeline',
  description:
    'One pipeline: status, ref, trigger, commit, author, duration and its jobs (failed first, with job ids and failure reasons), plus trigger jobs and the downstream pipelines they started.',
  input: {
    projectId: z.number().int().positive().describe('The numeric project id'),
    pipelineId: z.number().int().positive().describe('The pipeline id'),
  },
  annotations: READ_ONLY,
  async run({ projectId, pipelineId }, client) {
    const p = await client.get<PipelineDetails>(
      `/api/pipelines/${projectId}/details/${pipelineId}`,
    );
    const lines = [
      `Pipeline ${p.pipeline_id} of ${p.project_name ?? `project ${p.project_id}`} (project ${p.project_id}): ${p.status}`,
      `ref ${p.ref} · ${p.source} · created ${minute(p.created_at)} · finished ${minute(p.finished_at)} · ${duration(p.duration)}`,
    ];
    if (p.commit) {
      lines.push(
        `commit ${p.commit.short_id} "${p.commit.title.slice(0, 120)}" by ${p.commit.author_name}`,
      );
    }
    if (p.user) lines.push(`triggered by ${p.user.name} (@${p.user.username})`);
    const failing = p.jobs.find((j) => j.id === p.failing_job_id);
    if (failing) lines.push(`the job to look at: ${failing.name} (job ${failing.id})`);
    if (p.web_url) lines.push(p.web_url);
    // Failed jobs first; otherwise the service's stage order.
    const jobs = [
      ...p.jobs.filter((j) => j.status === 'failed'),
      ...p.jobs.filter((j) => j.status !== 'failed'),
    ];
    lines.push('', `Jobs (${p.jobs.length}):`, ...capped(jobs, MAX_JOBS, jobLine));
    if (p.bridges && p.bridges.length > 0) {
      lines.push('', 'Trigger jobs:');
      for (const b of p.bridges) {
        const down = b.downstream_pipeline
          ? ` → pipeline ${b.downstream_pipeline.id} (${b.downstream_pipeline.status}) ${b.downstream_pipeline.web_url}`
          : '';
        lines.push(`${MARK[b.status] ?? '·'} ${b.stage}/${b.name} · ${b.status}${down}`);
      }
    }
    return lines.join('\n');
  },
});
