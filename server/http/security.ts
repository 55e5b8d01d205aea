import type { Context, Middleware } from 'koa';
import { AppError } from '../platform/errors.ts';

/** Loopback names and addresses the service always answers to. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Options for the DNS-rebinding, cross-site and CSRF guards. */
export interface SecurityOptions {
  /**
   * Host names (no port) accepted besides loopback: the non-loopback bind address and the
   * `--public-url` names. Any other name is refused, whatever address the service is bound to.
   */
  allowedHosts?: string[];
  /** Origins accepted besides the request's own (`--public-url` origins behind a proxy). */
  allowedOrigins?: string[];
}

/** Lower-cased host name of a Host header without its port: "[::1]:5100" → "[::1]". */
export function hostName(hostHeader: string): string {
  const host = hostHeader.toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** True for API paths, which only the dashboard itself and tools may call. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * DESIGN §5, checked on every request before any route runs:
 * - Host must be loopback or a configured name (DNS rebinding);
 * - an Origin must be the service's own (scheme + Host of this request) or a configured public
 *   origin: a page on `http://localhost:3000` is another origin, not "us" (CSRF, CORS);
 * - `Sec-Fetch-Site: cross-site`/`same-site` is refused on the API, reads included, and on every
 *   state-changing request, so a web page can neither spend the GitLab budget nor change settings
 *   (a link to the dashboard, a top-level navigation, still works).
 * Refusals are 403s in the error shape and, like every answer, carry `nosniff`.
 */
export function securityMiddleware(options: SecurityOptions = {}): Middleware {
  const allowedHosts = new Set([
    ...LOOPBACK_HOSTS,
    ...(options.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase()));

  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    const host = ctx.get('host');
    if (!host || !allowedHosts.has(hostName(host))) {
      throw new AppError(
        'forbidden',
        'Host not allowed: this service answers only on its own names',
      );
    }
    const api = isApiPath(ctx.path);
    const stateChanging = !SAFE_METHODS.has(ctx.method);
    const origin = ctx.get('origin');
    const ownOrigin = origin !== '' && isOwnOrigin(ctx, origin, allowedOrigins);
    if (origin && !ownOrigin && (api || stateChanging || ctx.method === 'OPTIONS')) {
      throw new AppError('forbidden', `Origin not allowed: ${origin}`);
    }
    const site = ctx.get('sec-fetch-site');
    if ((site === 'cross-site' || site === 'same-site') && (api || stateChanging)) {
      throw new AppError('forbidden', `Cross-site request refused (Sec-Fetch-Site: ${site})`);
    }
    if (ownOrigin) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Vary', 'Origin');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
        ctx.set('Access-Control-Allow-Headers', 'Content-Type, Authorization');
        ctx.set('Access-Control-Max-Age', '600');
        ctx.status = 204;
        return;
      }
    }
    await next();
  };
}

function isOwnOrigin(ctx: Context, origin: string, allowed: Set<string>): boolean {
  const lower = origin.toLowerCase();
  if (lower === 'null') return false;
  return lower === `${ctx.protocol}://${ctx.get('host').toLowerCase()}` || allowed.has(lower);
}
