import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { TokenError } from '../errors.ts';
import type { FlowContext, GrantedToken } from './flow-context.ts';
import { audienceParameters, classify, granted, requestScopes } from './oidc-client.ts';
import { formatWait } from './device-code.ts';

/** How long the browser sign-in may take when --timeout is not given: MFA and SSO pages included. */
export const BROWSER_WAIT_MS = 10 * 60_000;

// Answers to prompt=none that mean "the user has to see a page": retry the same tab interactively.
const NEEDS_INTERACTION = new Set([
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
]);

interface Attempt {
  state: string;
  verifier: string;
  nonce?: string;
  prompt?: string;
}

/**
 * Authorization code + PKCE (RFC 7636) through a loopback redirect (RFC 8252 §7.3): the profile's
 * redirect URI — Entra registrations use `http://localhost`, any port, exact path
 * (https://learn.microsoft.com/entra/identity-platform/reply-url#localhost-exceptions) — else
 * `http://127.0.0.1:<port>/callback`, on the profile's fixed port or a free one. Opens the browser
 * and always prints the URL too. The
 * callback must carry the state of the current attempt; anything else gets a 400 page and is
 * ignored, so a stray or forged request cannot end the sign-in. A prompt=none attempt that the
 * server answers with login_required (or similar) is retried in the same tab without prompt.
 */
export async function runBrowserFlow(
  ctx: FlowContext,
  config: oidc.Configuration,
): Promise<GrantedToken> {
  const server = http.createServer();
  const registered = ctx.profile.redirectUri;
  const wanted = registered ? new URL(registered) : undefined;
  const host = wanted ? wanted.hostname : '127.0.0.1';
  const requestedPort = wanted?.port ? Number(wanted.port) : (ctx.profile.redirectPort ?? 0);
  // `localhost` may resolve to ::1 or 127.0.0.1 in the browser: answer on both.
  const port = await listen(server, requestedPort, host === 'localhost' ? '127.0.0.1' : host, ctx);
  const extraServer = host === 'localhost' ? await alsoListen(server, port, '::1') : undefined;
  const redirectUri = registered
    ? registered.replace(/^(http:\/\/[^/:?#]+|http:\/\/\[[^\]]+\])(:\d+)?/, `$1:${port}`)
    : `http://127.0.0.1:${port}/callback`;
  const callbackPath = wanted ? wanted.pathname : '/callback';
  ctx.trace.redirectUri = redirectUri;
  const scopes = requestScopes(ctx);
  const openid = scopes.includes('openid');
  const extra = audienceParameters(ctx);

  const newAttempt = (prompt: string | undefined): Attempt => ({
    state: oidc.randomState(),
    verifier: oidc.randomPKCECodeVerifier(),
    nonce: openid ? oidc.randomNonce() : undefined,
    prompt,
  });
  const authorizationUrl = async (attempt: Attempt): Promise<string> => {
    const params: Record<string, string> = {
      redirect_uri: redirectUri,
      code_challenge: await oidc.calculatePKCECodeChallenge(attempt.verifier),
      code_challenge_method: 'S256',
      state: attempt.state,
      ...extra,
    };
    if (scopes.length > 0) params.scope = scopes.join(' ');
    if (attempt.nonce) params.nonce = attempt.nonce;
    if (attempt.prompt) params.prompt = attempt.prompt;
    return oidc.buildAuthorizationUrl(config, params).href;
  };

  let attempt = newAttempt(ctx.profile.prompt);
  let onAbort = () => undefined as void;
  try {
    const url = await authorizationUrl(attempt);
    ctx.notify(
      `Sign in with your browser. If it does not open, visit this URL:\n  ${url}`,
      'action',
    );
    const waitMs =
      ctx.explicitTimeoutMs === undefined
        ? BROWSER_WAIT_MS
        : Math.max(0, ctx.deadline - ctx.clock.now());
    ctx.notify(`Waiting for you to sign in (up to ${formatWait(waitMs)})…`, 'info');
    ctx.openBrowser(url).catch((err: unknown) => {
      ctx.notify(
        `could not open a browser (${err instanceof Error ? err.message : String(err)}); open the URL above yourself`,
        'action',
      );
    });

    return await new Promise<GrantedToken>((resolve, reject) => {
      onAbort = () => reject(ctx.signal.reason);
      if (ctx.signal.aborted) return onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      let done = false;
      if (ctx.explicitTimeoutMs === undefined) {
        // Without --timeout the user gets minutes, measured on the injected clock.
        const cancel = (ctx.clock.after?.bind(ctx.clock) ?? systemAfter)(waitMs, () => {
          if (done) return;
          done = true;
          reject(
            new TokenError(
              'timeout',
              `sign-in did not complete in ${formatWait(waitMs)}; run get-token -p ${ctx.profile.name} again and finish signing in in the browser`,
            ),
          );
        });
        server.once('close', cancel);
      }
      server.on('request', (req, res) => {
        void (async () => {
          const current = new URL(req.url ?? '/', redirectUri);
          if (current.pathname !== callbackPath || req.method !== 'GET') {
            return page(res, 404, 'Not found', 'This address only receives the sign-in redirect.');
          }
          if (done || current.searchParams.get('state') !== attempt.state) {
            return page(
              res,
              400,
              'Unexpected sign-in response',
              'This response does not belong to the sign-in in progress and was ignored. Return to your terminal.',
            );
          }
          const error = current.searchParams.get('error');
          if (error && attempt.prompt === 'none' && NEEDS_INTERACTION.has(error)) {
            attempt = newAttempt(undefined);
            res.writeHead(302, {
              location: await authorizationUrl(attempt),
              'cache-control': 'no-store',
            });
            return res.end();
          }
          done = true;
          try {
            const tokens = await oidc.authorizationCodeGrant(
              config,
              current,
              {
                pkceCodeVerifier: attempt.verifier,
                expectedState: attempt.state,
                expectedNonce: attempt.nonce,
                idTokenExpected: openid,
              },
              extra,
            );
            page(res, 200, 'Signed in', 'You can close this tab and return to your terminal.');
            resolve(granted(tokens, ctx));
          } catch (err) {
            const failure = classify(err, ctx);
            page(res, 400, 'Sign-in failed', failure.message);
            reject(failure);
          }
        })().catch(reject);
      });
    });
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    server.close();
    server.closeAllConnections();
    extraServer?.close();
    extraServer?.closeAllConnections();
  }
}

const systemAfter = (ms: number, fn: () => void) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/** A second listener with the same handler (IPv6 loopback for `localhost`); none if it fails. */
async function alsoListen(
  server: http.Server,
  port: number,
  host: string,
): Promise<http.Server | undefined> {
  const other = http.createServer((req, res) => server.emit('request', req, res));
  return new Promise((resolve) => {
    other.once('error', () => resolve(undefined));
    other.listen(port, host, () => resolve(other));
  });
}

function listen(
  server: http.Server,
  port: number,
  host: string,
  ctx: FlowContext,
): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new TokenError(
          'general',
          err.code === 'EADDRINUSE'
            ? `the redirect port ${port} of profile '${ctx.profile.name}' is in use; close what holds it or change the profile's --redirect-port`
            : `cannot listen on ${host}:${port} for the sign-in redirect: ${err.message}`,
          { cause: err },
        ),
      );
    });
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

function page(res: http.ServerResponse, status: number, title: string, text: string): void {
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)} — get-token</title>
<style>body{font:16px system-ui,sans-serif;margin:15vh auto;max-width:32em;padding:0 1em;color:#222}
h1{font-size:1.4em}</style></head>
<body><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>\n`);
}
