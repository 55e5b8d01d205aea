import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { AppError } from '../platform/errors.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../platform/secret-store.ts';
import { clientAddress, parseTrustedProxies, type ProxyHeader } from './client-address.ts';
import { isApiPath } from './security.ts';

/** What a LAN-mode service checks every request against. */
export interface AccessOptions {
  /** The access token (the secret store holds it). */
  token: string;
  /** Mark the session cookie `Secure` (served over TLS directly or behind an https proxy). */
  secureCookies: boolean;
  now?: () => number;
  /** Wrong tokens one client may send per window before it is refused for the rest of it. */
  maxFailures?: number;
  failureWindowMs?: number;
  sessionTtlMs?: number;
  /**
   * Reverse proxies (`--trusted-proxy`: addresses or CIDR ranges) whose `Forwarded` or
   * `X-Forwarded-For` names the client, so each client behind them has its own wrong-token budget.
   */
  trustedProxies?: string[];
  /** The one header those proxies maintain (`--trusted-proxy-header`); both when absent. */
  trustedProxyHeader?: ProxyHeader;
  /**
   * Paths machine clients poll (`/cc.xml`, `/metrics`): there the token also works as the
   * Basic-auth password (cctray monitors send user and password), and a request without it gets a
   * 401 with `WWW-Authenticate` instead of the sign-in page (cctray.org/v1, "Notes": "respond with
   * 401 Not Authorized and a WWW-Authenticate header … do not redirect to HTML forms").
   */
  feedPaths?: readonly string[];
}

/** The session cookie's name. */
export const SESSION_COOKIE = 'ps_session';
const MAX_SESSIONS = 1_000;
/** The challenge a feed's 401 carries (RFC 7617 §2, with the UTF-8 charset of §2.1). */
const BASIC_CHALLENGE = 'Basic realm="Pipeline Summary", charset="UTF-8"';
const SIGN_IN_BODY_LIMIT = 4 * 1024;

/**
 * Returns the service's access token from the secret store, generating and storing one on first
 * use; `created` tells the caller to print it (once).
 */
export async function ensureAccessToken(
  store: SecretStore,
): Promise<{ token: string; created: boolean }> {
  const existing = await store.get(SECRET_ACCOUNTS.serviceAccessToken);
  if (existing) return { token: existing, created: false };
  const token = randomBytes(32).toString('base64url');
  await store.set(SECRET_ACCOUNTS.serviceAccessToken, token);
  return { token, created: true };
}

/**
 * LAN mode (DESIGN §5): every request except `/api/health` and the sign-in page needs the access
 * token, as `Authorization: Bearer` (tools) or the session cookie the sign-in page sets (the
 * dashboard: HttpOnly, SameSite=Strict, Secure behind TLS). A client sending wrong tokens is
 * refused with 429 once it reaches `maxFailures` within `failureWindowMs`; a client is its address,
 * read through `trustedProxies` (see client-address.ts). Unauthenticated
 * navigations are sent to the sign-in page; API calls get a 401 in the error shape, and so do the
 * `feedPaths`, with a Basic challenge (there the token is also the Basic-auth password).
 */
export function accessMiddleware(options: AccessOptions): Middleware {
  const now = options.now ?? Date.now;
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.failureWindowMs ?? 60_000;
  const ttlMs = options.sessionTtlMs ?? 12 * 3_600_000;
  const expected = digest(options.token);
  const trusted = options.trustedProxies?.length
    ? parseTrustedProxies(options.trustedProxies)
    : undefined;
  const feedPaths = new Set(options.feedPaths ?? []);
  const sessions = new Map<string, number>();
  const failures = new Map<string, { count: number; since: number }>();

  const refuseIfLimited = (client: string) => {
    const entry = failures.get(client);
    if (!entry || now() - entry.since > windowMs) return;
    if (entry.count >= maxFailures) {
      const retryAfterMs = entry.since + windowMs - now();
      throw new AppError('rate_limited', 'Too many wrong access tokens; wait and try again', {
        retryAfterMs,
      });
    }
  };
  const check = (client: string, candidate: string): boolean => {
    refuseIfLimited(client);
    if (timingSafeEqual(digest(candidate), expected)) return true;
    const entry = failures.get(client);
    if (!entry || now() - entry.since > windowMs) failures.set(client, { count: 1, since: now() });
    else entry.count++;
    if (failures.size > 10_000) failures.delete(failures.keys().next().value!);
    return false;
  };
  const validSession = (id: string | undefined) => {
    const expires = id === undefined ? undefined : sessions.get(id);
    if (expires === undefined) return false;
    if (expires > now()) return true;
    sessions.delete(id!);
    return false;
  };
  const startSession = (ctx: Context) => {
    const id = randomBytes(32).toString('base64url');
    sessions.set(id, now() + ttlMs);
    if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
    ctx.set(
      'Set-Cookie',
      `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(ttlMs / 1000)}${options.secureCookies ? '; Secure' : ''}`,
    );
  };

  return async (ctx, next) => {
    if (ctx.path === '/api/health') return next();
    // Koa's app.proxy stays off: only this limit believes forwarding headers, and only from a proxy.
    const client = clientAddress(
      ctx.socket.remoteAddress ?? ctx.ip,
      {
        forwarded: ctx.get('forwarded') || undefined,
        forwardedFor: ctx.get('x-forwarded-for') || undefined,
      },
      trusted,
      options.trustedProxyHeader,
    );
    if (ctx.path === '/signin') {
      if (ctx.method === 'POST') {
        const token = new URLSearchParams(await readFormBody(ctx)).get('token') ?? '';
        if (check(client, token.trim())) {
          startSession(ctx);
          ctx.status = 303;
          ctx.set('Location', '/');
          return;
        }
        signInPage(ctx, 401, 'That is not the access token. Try again.');
        return;
      }
      if (ctx.method === 'GET' || ctx.method === 'HEAD') {
        signInPage(ctx, 200, '');
        return;
      }
    }
    const feed = feedPaths.has(ctx.path);
    const authorization = ctx.get('authorization');
    if (authorization) {
      const candidate =
        /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] ??
        (feed ? basicPassword(authorization) : undefined);
      if (candidate === undefined || !check(client, candidate)) {
        if (feed) ctx.set('WWW-Authenticate', BASIC_CHALLENGE);
        throw new AppError('unauthorized', 'Wrong access token');
      }
      return next();
    }
    if (validSession(readCookie(ctx.get('cookie'), SESSION_COOKIE))) return next();
    if (feed) {
      ctx.set('WWW-Authenticate', BASIC_CHALLENGE);
      throw new AppError(
        'unauthorized',
        "This feed needs the service's access token: send Authorization: Bearer <token>, or the token as the Basic-auth password",
      );
    }
    if (!isApiPath(ctx.path) && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.status = 303;
      ctx.set('Location', '/signin');
      return;
    }
    throw new AppError(
      'unauthorized',
      'This service needs its access token: send Authorization: Bearer <token>, or sign in at /signin',
    );
  };
}

/** The password of `Authorization: Basic base64(user:password)` (RFC 7617 §2), else undefined. */
function basicPassword(authorization: string): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/]+={0,2})$/i.exec(authorization);
  if (!match) return undefined;
  const credentials = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  return colon === -1 ? undefined : credentials.slice(colon + 1);
}

function digest(text: string): Buffer {
  // Equal-length inputs for timingSafeEqual, whatever the candidate's length.
  return createHash('sha256').update(text).digest();
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

async function readFormBody(ctx: Context): Promise<string> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new AppError(
      'unsupported_media_type',
      'Sign in with the form (application/x-www-form-urlencoded)',
    );
  }
  let text = '';
  for await (const chunk of ctx.req) {
    text += String(chunk);
    if (text.length > SIGN_IN_BODY_LIMIT) {
      throw new AppError(
        'payload_too_large',
        `Request body is larger than ${SIGN_IN_BODY_LIMIT} bytes`,
      );
    }
  }
  return text;
}

/** A page with no script at all, so the dashboard's CSP (script-src 'self') holds here too. */
function signInPage(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  ctx.body =
    ctx.method === 'HEAD'
      ? null
      : `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Pipeline Summary</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:15vh auto;padding:0 1rem}input,button{font:inherit;padding:.5rem;width:100%;box-sizing:border-box;margin:.5rem 0}p.error{color:#b00020}</style>
</head><body>
<h1>Pipeline Summary</h1>
<p>This service is shared on the network. Enter the access token printed when it first started.</p>
${message ? `<p class="error" role="alert">${message}</p>` : ''}
<form method="post" action="/signin">
<label for="token">Access token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
</form>
</body></html>
`;
}
