import * as oidc from 'openid-client';
import { TokenError } from '../errors.ts';
import { issuerOf } from '../profiles.ts';
import type { FlowContext, GrantedToken } from './flow-context.ts';

/**
 * An openid-client Configuration for the profile: discovery from the issuer (or the Entra ID tenant),
 * or the explicit endpoints. Every request goes through the context's fetch and stops at its
 * deadline; plain http is allowed only for loopback issuers (profiles reject other http URLs).
 */
export async function configure(
  ctx: FlowContext,
  publicClient: boolean,
): Promise<oidc.Configuration> {
  const { profile } = ctx;
  const secret = publicClient ? undefined : ctx.clientSecret;
  const auth =
    secret === undefined
      ? oidc.None()
      : profile.clientAuth === 'client_secret_post'
        ? oidc.ClientSecretPost(secret)
        : oidc.ClientSecretBasic(secret);
  const issuer = issuerOf(profile);
  const timeout = Math.max(1, Math.ceil((ctx.deadline - ctx.clock.now()) / 1000));
  const customFetch: oidc.CustomFetch = (url, init) =>
    ctx.fetch(url, {
      ...init,
      signal: init.signal ? AbortSignal.any([init.signal, ctx.signal]) : ctx.signal,
    } as RequestInit);
  const insecure = [issuer, profile.tokenEndpoint].some((u) => u?.startsWith('http:'));
  if (!profile.tokenEndpoint) {
    return oidc.discovery(new URL(issuer!), profile.clientId, undefined, auth, {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
      timeout,
      [oidc.customFetch]: customFetch,
    });
  }
  const server: oidc.ServerMetadata = {
    issuer: issuer ?? new URL(profile.tokenEndpoint).origin,
    token_endpoint: profile.tokenEndpoint,
    authorization_endpoint: profile.authorizationEndpoint,
    device_authorization_endpoint: profile.deviceAuthorizationEndpoint,
  };
  const config = new oidc.Configuration(server, profile.clientId, undefined, auth);
  config[oidc.customFetch] = customFetch;
  config.timeout = timeout;
  if (insecure) oidc.allowInsecureRequests(config);
  return config;
}

/** Extra parameters every request of the profile carries (resource indicator, audience). */
export function audienceParameters(ctx: FlowContext): Record<string, string> {
  const params: Record<string, string> = {};
  if (ctx.profile.resource) params.resource = ctx.profile.resource;
  if (ctx.profile.audience) params.audience = ctx.profile.audience;
  return params;
}

/** Converts openid-client's token response to what the cache keeps. */
export function granted(response: oidc.TokenEndpointResponse): GrantedToken {
  return {
    accessToken: response.access_token,
    tokenType: response.token_type ?? 'Bearer',
    scope: response.scope,
    refreshToken: response.refresh_token,
    idToken: response.id_token,
    expiresIn: response.expires_in,
  };
}

// OAuth error codes that mean "these credentials or this grant are not accepted".
const AUTH_ERRORS = new Set([
  'invalid_client',
  'unauthorized_client',
  'invalid_grant',
  'access_denied',
  'expired_token',
  'invalid_token',
  'login_required',
  'consent_required',
  'interaction_required',
  'account_selection_required',
]);

/**
 * Turns whatever a flow threw into a TokenError with a code and a message that says what failed and
 * what to do. Secrets never reach the message: only OAuth error codes, descriptions and URLs.
 */
export function classify(err: unknown, ctx: FlowContext): TokenError {
  if (err instanceof TokenError) return err;
  if (ctx.signal.aborted && ctx.signal.reason instanceof TokenError) return ctx.signal.reason;
  const where = endpointLabel(ctx);
  const name = ctx.profile.name;
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
    return oauthError(err.error, err.error_description, ctx, err);
  }
  if (err instanceof oidc.WWWAuthenticateChallengeError) {
    const challenge = err.cause[0]?.parameters;
    return oauthError(challenge?.error ?? 'invalid_client', challenge?.error_description, ctx, err);
  }
  const code = (err as { code?: unknown }).code;
  if (code === 'OAUTH_TIMEOUT') {
    return new TokenError(
      'timeout',
      `${where} did not answer in time; retry later or raise --timeout`,
      {
        cause: err,
      },
    );
  }
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    const status = ((err as Error).cause as { status?: number } | undefined)?.status;
    if (status !== undefined && status >= 500) {
      return new TokenError('network', `${where} is failing (HTTP ${status}); retry later`, {
        cause: err,
      });
    }
    return new TokenError(
      'general',
      `${where} answered with an unexpected HTTP ${status ?? 'status'}; check the profile's issuer or endpoints ('pipeline-summary profile show ${name}')`,
      { cause: err },
    );
  }
  const net = networkCode(err);
  if (net) {
    if (
      net === 'UND_ERR_CONNECT_TIMEOUT' ||
      net === 'ETIMEDOUT' ||
      net === 'UND_ERR_HEADERS_TIMEOUT'
    ) {
      return new TokenError(
        'timeout',
        `${where} did not answer in time (${net}); retry later or raise --timeout`,
        {
          cause: err,
        },
      );
    }
    const what =
      net === 'ENOTFOUND' || net === 'EAI_AGAIN'
        ? 'cannot resolve the issuer host'
        : net === 'ECONNREFUSED'
          ? 'connection refused'
          : /CERT|SSL|TLS/i.test(net)
            ? 'TLS handshake failed'
            : 'network error';
    return new TokenError(
      'network',
      `cannot reach ${where}: ${what} (${net}); check the URL, your network and proxy settings`,
      { cause: err },
    );
  }
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
    return new TokenError(
      'general',
      `${where} is not the OpenID provider this profile expects (${(err as Error).message}); check --issuer`,
      { cause: err },
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new TokenError('general', `token request to ${where} failed: ${message}`, { cause: err });
}

function oauthError(
  error: string,
  description: string | undefined,
  ctx: FlowContext,
  cause: unknown,
): TokenError {
  const detail = description ? `${error}: ${description}` : error;
  const name = ctx.profile.name;
  if (!AUTH_ERRORS.has(error)) {
    return new TokenError(
      'general',
      `the issuer refused the request (${detail}); check the profile's scopes, flow and client settings ('pipeline-summary profile show ${name}')`,
      { cause },
    );
  }
  const hint =
    error === 'invalid_client' || error === 'unauthorized_client'
      ? `check the client id and secret: 'pipeline-summary profile add ${name} … --client-secret-stdin'`
      : error === 'access_denied'
        ? 'sign-in was denied; run again and approve the request'
        : error === 'expired_token'
          ? 'the code expired before it was approved; run again'
          : `sign in again: 'get-token -p ${name} --force'`;
  return new TokenError(
    'auth_failed',
    `authentication failed for profile '${name}' (${detail}); ${hint}`,
    {
      cause,
    },
  );
}

/** The first system or undici error code in an error's cause chain. */
function networkCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^(E[A-Z]+|UND_ERR_\w+|ERR_TLS\w*|\w*CERT\w*|ERR_SSL\w*)$/.test(code)
    ) {
      return code;
    }
    const errors = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = networkCode(errors[0]);
      if (inner) return inner;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** "the issuer https://…" or "the token endpoint https://…", for messages. */
export function endpointLabel(ctx: FlowContext): string {
  const issuer = issuerOf(ctx.profile);
  return ctx.profile.tokenEndpoint
    ? `the token endpoint ${ctx.profile.tokenEndpoint}`
    : `the issuer ${issuer}`;
}
