import { z } from 'zod';
import type { JobTraceResponse } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { RouteModule } from '../http/app.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';
import { FINISHED_JOB_STATUSES } from '../summary/model.ts';
import { errorLineIndices } from './error-lines.ts';

const traceQuerySchema = z.object({ projectId: idParamSchema, jobId: idParamSchema });

/** GET /api/jobtrace?projectId=&jobId= — the log, and whether it is final (`complete`). */
export function jobRoutes(deps: { gitlab: GitLabApi }): RouteModule {
  return (router) => {
    router.get('/jobtrace', async (ctx) => {
      const { projectId, jobId } = parseInput(traceQuerySchema, ctx.query, 'query');
      // Status first: a log read after the job finished is complete, never the other way round.
      const job = await deps.gitlab.getJob(projectId, jobId);
      const trace = await deps.gitlab.getJobTrace(projectId, jobId);
      const body: JobTraceResponse = { trace, complete: FINISHED_JOB_STATUSES.has(job.status) };
      // Additive: a failed job's log opens at its first error (running logs are not scanned).
      if (job.status === 'failed') body.error_lines = errorLineIndices(trace);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = body;
    });
  };
}
