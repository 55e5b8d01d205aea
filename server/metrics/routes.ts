import type { RouteModule } from '../http/app.ts';
import type { ServiceMetrics } from './service-metrics.ts';

/** Where Prometheus scrapes (outside /api: the path every exporter uses). */
export const METRICS_PATH = '/metrics';

/** GET /metrics: the Prometheus text exposition (takes no query). */
export function metricsRoutes(metrics: ServiceMetrics): RouteModule {
  return (router) => {
    router.get(METRICS_PATH, async (ctx) => {
      const body = await metrics.scrape();
      ctx.type = metrics.contentType;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    });
  };
}
