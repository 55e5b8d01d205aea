import { z } from 'zod';
import type { SseHub } from '../events/sse-hub.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';
import type { PipelineDetailsService } from './pipeline-details.ts';
import type { PipelinePoller } from './poller.ts';

const detailsParamsSchema = z.object({ projectId: idParamSchema, pipelineId: idParamSchema });

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/pipelines/summary',
    tag: 'Pipelines',
    summary: 'The summary per project and overall (pre-serialised, served as is)',
    docs: 'get-apipipelinessummary',
    response: { description: '`{projects, summary, status}`.' },
  },
  {
    method: 'get',
    path: '/pipelines/activity',
    tag: 'Pipelines',
    summary: 'Timeline buckets and contributors over the whole window',
    docs: 'get-apipipelinesactivity',
    additive: true,
    response: { description: '`{since, bucket, buckets, contributors, window_start}`.' },
  },
  {
    method: 'get',
    path: '/events/pipelines',
    tag: 'Pipelines',
    summary:
      'Live updates as Server-Sent Events (summary, activity, failure events, failure signatures, heartbeat)',
    docs: 'get-apieventspipelines',
    response: {
      description: 'An event stream that stays open.',
      contentTypes: ['text/event-stream'],
    },
  },
  {
    method: 'get',
    path: '/pipelines/:projectId/details/:pipelineId',
    tag: 'Pipelines',
    summary: 'One pipeline with its jobs, commit, user and trigger jobs',
    docs: 'get-apipipelinesprojectiddetailspipelineid',
    params: detailsParamsSchema,
    response: { description: 'Pipeline details.' },
  },
];

/** GET /api/pipelines/summary, /api/pipelines/activity, /api/events/pipelines, /api/pipelines/:projectId/details/:pipelineId */
export function pipelineRoutes(deps: {
  poller: PipelinePoller;
  hub: SseHub;
  details: PipelineDetailsService;
}): RouteModule {
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/pipelines/summary', (ctx) => {
      ctx.type = 'application/json';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = deps.poller.snapshotJson;
    });
    // Additive: the dashboard's timeline and contributors over the whole window.
    router.get('/pipelines/activity', (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = deps.poller.activity();
    });
    router.get('/events/pipelines', (ctx) => {
      deps.hub.subscribe(ctx);
    });
    router.get('/pipelines/:projectId/details/:pipelineId', async (ctx) => {
      const { projectId, pipelineId } = parseInput(detailsParamsSchema, ctx.params, 'path');
      const details = await deps.details.get(projectId, pipelineId);
      ctx.body = { ...details, ...deps.poller.refLabel(projectId, details.ref) };
    });
  });
}
