import { z } from 'zod';
import type { JobTraceResponse } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { JobLogReader } from '../gitlab/job-log-stream.ts';
import { isSettledStatus } from '../gitlab/pipeline-status.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';
import { errorLineIndices } from './error-lines.ts';
import { toJobResponse } from './job-response.ts';

const traceQuerySchema = z.object({ projectId: idParamSchema, jobId: idParamSchema });
/** Path parameters of GET /api/jobs/{projectId}/{jobId}. */
export const jobParamsSchema = z.object({ projectId: idParamSchema, jobId: idParamSchema });

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/jobs/:projectId/:jobId',
    tag: 'Jobs',
    summary: 'One job with its pipeline id and ref (for clients that know only a job)',
    docs: 'get-apijobsprojectidjobid',
    additive: true,
    params: jobParamsSchema,
    response: {
      description: 'The job as in pipeline details, plus `project_id`, `pipeline_id` and `ref`.',
    },
  },
  {
    method: 'get',
    path: '/jobtrace',
    tag: 'Jobs',
    summary: "A job's log, whether it is final, and where a failed job's errors are",
    docs: 'get-apijobtrace',
    query: traceQuerySchema,
    response: { description: '`{trace, complete, error_lines?, truncated?, bytes?}`.' },
  },
];

/**
 * GET /api/jobtrace?projectId=&jobId= — the log, and whether it is final (`complete`). A log
 * beyond the reader's cap is served as its tail, with `truncated: true` and the whole size in
 * `bytes` (additive fields). GET /api/jobs/:projectId/:jobId (additive) — one job with its
 * pipeline id and ref, so a client that knows only a job (its URL, `explain PROJECT JOB`, an MCP
 * tool) can ask for its analysis, which needs the pipeline.
 */
export function jobRoutes(deps: { gitlab: GitLabApi; logs: JobLogReader }): RouteModule {
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/jobs/:projectId/:jobId', async (ctx) => {
      const { projectId, jobId } = parseInput(jobParamsSchema, ctx.params, 'path');
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = toJobResponse(await deps.gitlab.getJob(projectId, jobId));
    });
    router.get('/jobtrace', async (ctx) => {
      const { projectId, jobId } = parseInput(traceQuerySchema, ctx.query, 'query');
      // Status first: a log read after the job finished is complete, never the other way round.
      const job = await deps.gitlab.getJob(projectId, jobId);
      // A caller that goes away stops the download too.
      const gone = new AbortController();
      ctx.req.once('close', () => gone.abort());
      const log = await deps.logs.tail(projectId, jobId, gone.signal);
      const body: JobTraceResponse = {
        trace: log.trace,
        complete: isSettledStatus(job.status),
        ...(log.truncated ? { truncated: true, bytes: log.bytes } : {}),
      };
      // Additive: a failed job's log opens at its first error (running logs are not scanned).
      if (job.status === 'failed') body.error_lines = errorLineIndices(log.trace);
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = body;
    });
  });
}
