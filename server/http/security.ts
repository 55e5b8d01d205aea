import type { Middleware } from 'koa';
import { AppError } from '../platform/errors.ts';

/** Loopback names and addresses the service answers to by default. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Options for the DNS-rebinding and CSRF guards. */
export interface SecurityOptions {
  /** Extra Host names to accept (e.g. when bound to a LAN address on purpose). */
  allowedHosts?: string[];
  /**
   * Accept any Host (bound to 0.0.0.0 or :: on purpose: the user chose network exposure and was
   * warned, and clients will use names we cannot know). Origin checks still apply.
   */
  anyHost?: boolean;
  /** Extra origins allowed to call state-changing routes and to read responses (CORS). */
  allowedOrigins?: string[];
}

function hostName(hostHeader: string): string {
  // Strip the port: "[::1]:5100" → "[::1]", "localhost:5100" → "localhost".
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  const colon = hostHeader.lastIndexOf(':');
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
    );
  } catch {
    return false;
  }
}

/**
 * DESIGN §5: refuse requests whose Host is not loopback (DNS rebinding), refuse state-changing
 * requests from a foreign Origin (CSRF), and answer CORS only for our own (loopback) origins.
 */
export function securityMiddleware(options: SecurityOptions = {}): Middleware {
  const allowedHosts = new Set([
    ...LOOPBACK_HOSTS,
    ...(options.allowedHosts ?? []).map((h) => h.toLowerCase()),
  ]);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const originAllowed = (origin: string) => isLoopbackOrigin(origin) || allowedOrigins.has(origin);

  return async (ctx, next) => {
    const host = ctx.get('host');
    if (!host || (!options.anyHost && !allowedHosts.has(hostName(host)))) {
      throw new AppError(
        'forbidden',
        'Host not allowed: this service only answers on loopback addresses',
      );
    }
    const origin = ctx.get('origin');
    const stateChanging = !['GET', 'HEAD', 'OPTIONS'].includes(ctx.method);
    if (origin && origin !== 'null' && !originAllowed(origin)) {
      if (stateChanging || ctx.method === 'OPTIONS') {
        throw new AppError('forbidden', `Origin not allowed: ${origin}`);
      }
    } else if (origin === 'null' && stateChanging) {
      throw new AppError('forbidden', 'Origin not allowed: null');
    }
    if (origin && originAllowed(origin)) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Vary', 'Origin');
      if (ctx.method === 'OPTIONS') {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
        ctx.set('Access-Control-Allow-Headers', 'Content-Type');
        ctx.set('Access-Control-Max-Age', '600');
        ctx.status = 204;
        return;
      }
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD_BINDS = new Set(['0.0.0.0', '::']);

/** The Host checks that fit a bind address; a non-loopback bind is warned about. */
export function securityForHost(
  host: string,
  logger: { warn(message: string): void },
): SecurityOptions | undefined {
  if (LOOPBACK_BINDS.has(host)) return undefined;
  logger.warn(
    `Listening on ${host}: the service is reachable from other machines and has no authentication`,
  );
  if (WILDCARD_BINDS.has(host)) return { anyHost: true };
  return { allowedHosts: [host.includes(':') ? `[${host}]` : host] };
}
