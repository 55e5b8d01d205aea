import Router from '@koa/router';
import Koa from 'koa';
import type { LivenessResponse, VersionInfo } from '../contract.ts';
import type { Logger } from '../platform/logger.ts';
import { accessMiddleware, type AccessOptions } from './access.ts';
import { errorMiddleware } from './error-middleware.ts';
import { openApiDocument, type OpenApiDocument, type RouteDoc } from './openapi.ts';
import { securityMiddleware, type SecurityOptions } from './security.ts';
import { dashboardMiddleware } from './static.ts';

/**
 * A domain's routes: registers handlers on the shared /api router, with the docs of each route
 * attached (`describedRoutes`) for `GET /api/openapi.json`; a route without docs is flagged there.
 */
export type RouteModule = ((router: Router) => void) & { docs?: readonly RouteDoc[] };

/** The routes createApp itself serves. */
const CORE_ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/health',
    tag: 'Core',
    summary: 'Liveness: the service is up (the one route open without the access token)',
    docs: 'get-apihealth',
    response: { description: '`{status: "healthy", timestamp}`.' },
  },
  {
    method: 'get',
    path: '/version',
    tag: 'Core',
    summary: 'Version, commit and build date',
    docs: 'get-apiversion',
    response: { description: '`{version, gitCommit, buildDate}`.' },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'Core',
    summary: 'This OpenAPI 3.1 description of every route',
    docs: 'get-apiopenapijson',
    additive: true,
    response: { description: 'An OpenAPI 3.1 document.' },
  },
];

/** What the HTTP app needs from the rest of the service. */
export interface AppDeps {
  logger: Logger;
  version: VersionInfo;
  /** Route modules of each domain (pipelines, settings, groups, AI, …). */
  routes: RouteModule[];
  /** Routes outside /api: the feeds machines poll (`/cc.xml`, `/metrics`). */
  rootRoutes?: RouteModule[];
  security?: SecurityOptions;
  /** LAN mode: the access token every request but /api/health needs (absent on loopback). */
  access?: AccessOptions;
  /** Folder of the built dashboard to serve at `/`, when present. */
  dashboardDir?: string;
  /** Clock for timestamps in responses (tests fix it). */
  now?: () => Date;
}

/**
 * Builds the Koa app (no port bound; see listen.ts). Order matters: errors are mapped outermost so
 * that even security refusals and unknown routes get the `{error, statusCode, timestamp}` body.
 */
export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  // Errors are logged once by errorMiddleware; silence Koa's default stderr printer.
  app.silent = true;
  const now = deps.now ?? (() => new Date());

  const router = new Router({ prefix: '/api' });
  // Liveness: the service answers. The seed route keeps its name; group health (default branches,
  // flaky jobs, trends) is another thing and lives under /api/health/* in server/group-health.
  router.get('/health', (ctx) => {
    const body: LivenessResponse = { status: 'healthy', timestamp: now().toISOString() };
    ctx.body = body;
  });
  router.get('/version', (ctx) => {
    ctx.body = deps.version;
  });
  for (const register of deps.routes) register(router);
  const root = new Router();
  for (const register of deps.rootRoutes ?? []) register(root);
  // Built once, on first request, from the routes registered above and this one.
  let description: OpenApiDocument | undefined;
  router.get('/openapi.json', (ctx) => {
    description ??= openApiDocument({
      layers: router.stack,
      prefix: '/api',
      docs: [...CORE_ROUTE_DOCS, ...deps.routes.flatMap((routes) => routes.docs ?? [])],
      version: deps.version.version,
      more: [
        {
          layers: root.stack,
          prefix: '',
          docs: (deps.rootRoutes ?? []).flatMap((routes) => routes.docs ?? []),
        },
      ],
    });
    ctx.body = description;
  });

  app.use(errorMiddleware(deps.logger));
  app.use(securityMiddleware(deps.security));
  if (deps.access) app.use(accessMiddleware(deps.access));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  app.use(root.routes());
  app.use(root.allowedMethods({ throw: true }));
  if (deps.dashboardDir) app.use(dashboardMiddleware(deps.dashboardDir));
  return app;
}
