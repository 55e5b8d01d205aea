import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** Where Prometheus scrapes (outside /api: the path every exporter uses). */
export const METRICS_PATH = '/metrics';

const METRICS_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: METRICS_PATH,
    tag: 'Feeds',
    summary: 'Prometheus metrics of the group, the service and its GitLab use',
    docs: 'get-metrics',
    additive: true,
    response: {
      description: 'The Prometheus text exposition format 0.0.4.',
      contentTypes: ['text/plain'],
    },
  },
];

/** GET /metrics: the Prometheus text exposition (takes no query). */
export function metricsRoutes(metrics: ServiceMetrics): RouteModule {
  return describedRoutes(METRICS_DOCS, (router) => {
    router.get(METRICS_PATH, async (ctx) => {
      const body = await metrics.scrape();
      ctx.type = metrics.contentType;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    });
  });
}
