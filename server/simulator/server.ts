import Router from '@koa/router';
import Koa from 'koa';
import type { ServerResponse } from 'node:http';
import type { FaultDecision, RewritableReply } from './faults.ts';
import type { SimUser } from './model.ts';
import { avatarRoutes } from './routes/avatars.ts';
import type { HandlerDeps, SimState } from './routes/context.ts';
import { groupRoutes } from './routes/groups.ts';
import { mergeRequestRoutes } from './routes/merge-requests.ts';
import { projectRoutes } from './routes/projects.ts';
import { HttpError, json, statusReply, type Reply } from './routes/reply.ts';
import { executeGraphQL } from './graphql/execute.ts';
import type { RouteKind } from './stats.ts';

export type { HandlerDeps } from './routes/context.ts';

/** The GitLab route kind of a path (for stats), before any auth or lookups. */
export function routeKind(segments: readonly string[]): RouteKind {
  if (segments[0] === 'uploads') return 'avatar';
  if (segments[0] === 'api' && segments[1] === 'graphql' && segments.length === 2) return 'graphql';
  if (segments[0] !== 'api' || segments[1] !== 'v4') return 'other';
  const [, , root, , sub, , leaf] = segments;
  if (root === 'user') return 'user';
  if (root === 'groups') {
    if (segments[4] === 'projects') return 'projects';
    // The client counts the group merge request list as `other` (server/gitlab/request-kind.ts).
    return segments[4] === 'merge_requests' ? 'other' : 'groups';
  }
  if (root !== 'projects') return 'other';
  if (segments.length <= 4) return 'projects';
  if (sub === 'pipelines') {
    if (segments.length === 5) return 'pipelines-list';
    if (segments.length === 6) return 'pipeline';
    if (segments[6] === 'jobs') return 'jobs';
    if (segments[6] === 'test_report') return 'test-report';
    if (segments[6] === 'test_report_summary') return 'test-report-summary';
  }
  if (sub === 'merge_requests') return 'merge-request';
  if (sub === 'jobs') {
    if (segments.length === 5) return 'project-jobs';
    if (segments.length === 6) return 'job';
    if (leaf === 'trace') return 'trace';
  }
  if (sub === 'repository' && segments[5] === 'commits') return 'commit';
  return 'other';
}

type Ctx = Koa.ParameterizedContext<SimState>;

/**
 * doc/api/rest/authentication.md: personal, project and group access tokens go in `PRIVATE-TOKEN`
 * or `Authorization: Bearer`; OAuth 2.0 access tokens only in `Authorization: Bearer`.
 */
function authenticate(ctx: Ctx, deps: HandlerDeps): SimUser | undefined {
  const { tokens, oauthTokens } = deps;
  const privateToken = ctx.req.headers['private-token'];
  if (typeof privateToken === 'string') {
    return oauthTokens.has(privateToken) ? undefined : tokens.get(privateToken);
  }
  const auth = ctx.req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) {
    return tokens.get(auth.replace(/^bearer\s+/i, '').trim());
  }
  return undefined;
}

/** GitLab's per-user request budget over fixed one-minute windows, with its RateLimit-* headers. */
class RateWindow {
  private windowStart = 0;
  private windowCount = 0;

  constructor(private readonly deps: HandlerDeps) {}

  count(): { headers: Record<string, string>; exceeded: boolean; retryAfter: number } {
    const now = this.deps.clock.now();
    const window = Math.floor(now / 60_000) * 60_000;
    if (window !== this.windowStart) {
      this.windowStart = window;
      this.windowCount = 0;
    }
    this.windowCount++;
    const limit = this.deps.rateLimitPerMinute;
    const reset = window + 60_000;
    return {
      exceeded: this.windowCount > limit,
      retryAfter: Math.max(1, Math.ceil((reset - now) / 1000)),
      headers: {
        'ratelimit-limit': String(limit),
        'ratelimit-observed': String(this.windowCount),
        'ratelimit-remaining': String(Math.max(0, limit - this.windowCount)),
        'ratelimit-reset': String(Math.floor(reset / 1000)),
        'ratelimit-resettime': new Date(reset).toUTCString(),
      },
    };
  }
}

/** Writes a reply the way GitLab's Rails stack does, or half of it and a dead socket (`truncate`). */
function writeReply(res: ServerResponse, reply: Reply, requestId: string, truncate: boolean): void {
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  const headers: Record<string, string> = {
    'cache-control': 'max-age=0, private, must-revalidate',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
    'x-request-id': requestId,
    vary: 'Origin, Accept-Encoding',
    ...reply.headers,
    'content-length': String(body.length),
  };
  res.writeHead(reply.status, headers);
  if (!truncate) {
    res.end(body);
    return;
  }
  // Half the body, then a dead socket: the client sees a premature close mid-body.
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
}

/** Applies `rewrite` faults to a JSON reply (other replies pass through untouched). */
function rewritten(reply: Reply, rewrites: FaultDecision['rewrites'], url: string): Reply {
  if (!reply.headers['content-type']?.startsWith('application/json')) return reply;
  const target: RewritableReply = {
    status: reply.status,
    headers: { ...reply.headers },
    body: JSON.parse(reply.body.toString()) as unknown,
    url,
  };
  for (const fault of rewrites) fault.rewrite(target);
  return { status: target.status, headers: target.headers, body: JSON.stringify(target.body) };
}

function parseUrl(raw: string): URL {
  try {
    return new URL(raw, 'http://simulator.invalid');
  } catch {
    return new URL('/', 'http://simulator.invalid');
  }
}

/** Method, API prefix, token and rate checks in GitLab's order; then the routers fill `state.reply`. */
async function route(
  ctx: Ctx,
  deps: HandlerDeps,
  segments: readonly string[],
  window: ReturnType<RateWindow['count']> | null,
  next: Koa.Next,
): Promise<Reply> {
  if (segments[0] === 'api' && segments[1] === 'graphql' && segments.length === 2) {
    return graphql(ctx, deps, window);
  }
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    return json(405, { error: '405 Method Not Allowed' });
  }
  if (segments[0] !== 'uploads') {
    if (segments[0] !== 'api' || segments[1] !== 'v4') return json(404, { error: '404 Not Found' });
    const admitted = admit(ctx, deps, window);
    if ('reply' in admitted) return admitted.reply;
    ctx.state.user = admitted.user;
  }
  await next();
  return ctx.state.reply ?? json(404, { error: '404 Not Found' });
}

/**
 * The token check and rate limit REST and GraphQL share: 401 without a valid token, 429 with
 * `Retry-After` once the window is spent (doc/security/rate_limits.md).
 */
function admit(
  ctx: Ctx,
  deps: HandlerDeps,
  window: ReturnType<RateWindow['count']> | null,
): { user: SimUser } | { reply: Reply } {
  const user = authenticate(ctx, deps);
  if (!user) return { reply: json(401, { message: '401 Unauthorized' }) };
  if (window?.exceeded) {
    return {
      reply: {
        ...statusReply(429),
        headers: { 'content-type': 'text/plain', 'retry-after': String(window.retryAfter) },
      },
    };
  }
  return { user };
}

const MAX_GRAPHQL_BODY = 256 * 1024;

/** GitLab's GraphQL error shape for a refused request (GraphqlController#render_error). */
function graphqlError(status: number, message: string): Reply {
  return json(status, { errors: [{ message }] });
}

function readBody(ctx: Ctx): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_GRAPHQL_BODY) resolve(null);
      else chunks.push(chunk);
    });
    ctx.req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    ctx.req.on('error', reject);
  });
}

/**
 * POST /api/graphql (doc/api/graphql/index.md): same tokens and rate limit as REST. GitLab answers
 * query errors (complexity, depth, unknown fields) with HTTP 200 and an `errors` list, and refuses
 * the request itself in the same shape (gitlabhq app/controllers/graphql_controller.rb): 401
 * "Invalid token" for a token it does not take (`authorize_access_api!`), 422 "Query too large"
 * past MAX_QUERY_SIZE (10,000) characters (`limit_query_size`, ArgumentError → 422 in ERROR_STATUS_MAP).
 */
async function graphql(
  ctx: Ctx,
  deps: HandlerDeps,
  window: ReturnType<RateWindow['count']> | null,
): Promise<Reply> {
  if (ctx.method !== 'POST') return json(405, { error: '405 Method Not Allowed' });
  const admitted = admit(ctx, deps, window);
  if ('reply' in admitted) {
    return admitted.reply.status === 401 ? graphqlError(401, 'Invalid token') : admitted.reply;
  }
  const user = admitted.user;
  const raw = await readBody(ctx);
  if (raw === null) return json(413, { message: '413 Request Entity Too Large' });
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return json(400, { errors: [{ message: 'Unexpected end of JSON input' }] });
  }
  const query = (body as { query?: unknown } | null)?.query;
  if (typeof query === 'string' && query.length > deps.graphqlLimits.querySize)
    return graphqlError(422, 'Query too large');
  return json(
    200,
    executeGraphQL(body, {
      data: deps.data,
      views: deps.views,
      user,
      limits: deps.graphqlLimits,
    }),
  );
}

/**
 * The simulator's Koa app. Outermost: count the request, apply latency and faults, and write the
 * reply ourselves (faults truncate bodies and reset sockets). Inside: uploads without a token, then
 * `/api/v4` behind authentication and the rate limit, routed by @koa/router.
 */
export function createSimulatorApp(deps: HandlerDeps): Koa<SimState> {
  const app = new Koa<SimState>();
  app.silent = true;
  const rate = new RateWindow(deps);
  let requestSeq = 0;

  app.use(async (ctx, next) => {
    ctx.respond = false;
    const { req, res } = ctx;
    const url = parseUrl(req.url ?? '/');
    ctx.state.url = url;
    const segments = url.pathname.split('/').slice(1);
    const pathAndQuery = url.pathname + url.search;
    const record = deps.stats.record(req.method ?? 'GET', pathAndQuery, routeKind(segments));
    const window = segments[0] === 'api' ? rate.count() : null;
    const decision = deps.faults.decide(pathAndQuery);
    const delay = deps.latencyMs + decision.delayMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    if (res.destroyed || req.destroyed) return;
    const terminal = decision.terminal;
    if (terminal?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    let reply: Reply;
    if (terminal?.kind === 'status') {
      reply = statusReply(terminal.status, terminal.retryAfterSec);
    } else {
      try {
        reply = await route(ctx, deps, segments, window, next);
      } catch (error) {
        reply =
          error instanceof HttpError
            ? json(error.status, error.body)
            : json(500, { message: '500 Internal Server Error' });
      }
    }
    if (decision.rewrites.length > 0) reply = rewritten(reply, decision.rewrites, pathAndQuery);
    if (window) Object.assign(reply.headers, window.headers);
    const requestId = `01SIM${(++requestSeq).toString(36).toUpperCase().padStart(8, '0')}`;
    writeReply(res, reply, requestId, terminal?.kind === 'truncate');
    record.status = terminal?.kind === 'truncate' ? 0 : reply.status;
  });

  const uploads = new Router<SimState>({ strict: true });
  avatarRoutes(uploads, deps);
  app.use(uploads.routes());

  const api = new Router<SimState>({ prefix: '/api/v4', strict: true });
  api.get('/user', (ctx) => {
    ctx.state.reply = json(200, deps.views.currentUser(ctx.state.user!));
  });
  api.get('/version', (ctx) => {
    ctx.state.reply = json(200, {
      version: '17.2.1-ee',
      revision: '9882d9c7',
      kas: { enabled: false },
    });
  });
  groupRoutes(api, deps);
  mergeRequestRoutes(api, deps);
  projectRoutes(api, deps);
  app.use(api.routes());
  return app;
}
