import { z } from 'zod';
import type { SseHub } from '../events/sse-hub.ts';
import type { RouteModule } from '../http/app.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';
import type { PipelineDetailsService } from './pipeline-details.ts';
import type { PipelinePoller } from './poller.ts';

const detailsParamsSchema = z.object({ projectId: idParamSchema, pipelineId: idParamSchema });

/** GET /api/pipelines/summary, /api/pipelines/activity, /api/events/pipelines, /api/pipelines/:projectId/details/:pipelineId */
export function pipelineRoutes(deps: {
  poller: PipelinePoller;
  hub: SseHub;
  details: PipelineDetailsService;
}): RouteModule {
  return (router) => {
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
      ctx.body = await deps.details.get(projectId, pipelineId);
    });
  };
}
