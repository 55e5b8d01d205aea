import * as oidc from 'openid-client';
import { DiscoveryCache } from '../discovery-cache.ts';
import { TokenError } from '../errors.ts';
import { isEntraHost, issuerOf } from '../profiles.ts';
import {
  assertionAuth,
  readCertificateKey,
  readFederatedToken,
  signCertificateAssertion,
} from './client-assertion.ts';
import type { FlowContext, GrantedToken } from './flow-context.ts';
import { isTimeoutCode, networkCode } from './network-error.ts';

/**
 * An openid-client Configuration for the profile: discovery from the issuer (or the Entra ID tenant)
 * — reused from the per-issuer cache while fresh — or the explicit endpoints, which also override
 * discovered ones (GitLab does not publish its device endpoint). Every request goes through the
 * context's fetch, waits at most `requestTimeoutMs`, and records which endpoint it went to; plain
 * http is allowed only for loopback issuers (profiles reject other http URLs).
 */
export async function configure(
  ctx: FlowContext,
  publicClient: boolean,
): Promise<oidc.Configuration> {
  const { profile } = ctx;
  const clientId = appClientId(ctx);
  const issuer = issuerOf(profile);
  const timeout = Math.max(1, Math.ceil(ctx.requestTimeoutMs / 1000));
  const insecure = [issuer, profile.tokenEndpoint].some((u) => u?.startsWith('http:'));
  const metadata: Record<string, unknown> = issuer
    ? { ...(await discover(ctx, issuer)) }
    : { issuer: new URL(profile.tokenEndpoint!).origin };
  if (profile.tokenEndpoint) metadata.token_endpoint = profile.tokenEndpoint;
  if (profile.authorizationEndpoint)
    metadata.authorization_endpoint = profile.authorizationEndpoint;
  if (profile.deviceAuthorizationEndpoint) {
    metadata.device_authorization_endpoint = profile.deviceAuthorizationEndpoint;
  }
  const server = metadata as unknown as oidc.ServerMetadata;
  const customFetch = tracingFetch(ctx, server);
  const auth = clientAuth(ctx, publicClient);
  const execute = insecure ? [oidc.allowInsecureRequests] : [];
  if (issuer && String(server.issuer).includes('{tenantid}')) {
    // Entra's shared tenants (common, organizations) publish the issuer as a template; tokens carry
    // the user's tenant in `tid`. openid-client resolves the template for login.microsoftonline.com
    // authorities only, so hand it the metadata we verified (for any Entra host) under that name.
    const tenant = new URL(issuer).pathname.split('/')[1];
    return oidc.discovery(
      new URL(`https://login.microsoftonline.com/${tenant}/v2.0`),
      clientId,
      undefined,
      auth,
      {
        execute,
        timeout,
        [oidc.customFetch]: (url, init) =>
          url.includes('/.well-known/openid-configuration')
            ? Promise.resolve(Response.json(server))
            : customFetch(url, init),
      },
    );
  }
  const config = new oidc.Configuration(server, clientId, undefined, auth);
  config[oidc.customFetch] = customFetch;
  config.timeout = timeout;
  for (const extension of execute) extension(config);
  return config;
}

/**
 * The profile's client id, which every OAuth flow needs; only managed-identity profiles may lack
 * one, and running such a profile through an OAuth flow is a configuration mistake.
 */
function appClientId(ctx: FlowContext): string {
  if (ctx.profile.clientId) return ctx.profile.clientId;
  throw new TokenError(
    'usage',
    `profile '${ctx.profile.name}' has no client id, which the ${ctx.flow} flow needs; add one with 'pipeline-summary profile add ${ctx.profile.name} … --client-id ID', or use --flow managed-identity`,
  );
}

/**
 * The scopes a flow asks for: the profile's, plus, for user sign-ins at Microsoft Entra ID, the
 * scopes MSAL and az always add. Entra issues a refresh token only for offline_access and an ID
 * token only for openid (https://learn.microsoft.com/entra/identity-platform/scopes-oidc). Other
 * providers differ (Google refuses offline_access, Keycloak makes it an offline session), so their
 * profiles ask for what they list.
 */
export function requestScopes(ctx: FlowContext): string[] {
  const { profile } = ctx;
  if (ctx.flow === 'client-credentials' || profile.defaultUserScopes === false) return ctx.scopes;
  const authority = issuerOf(profile) ?? profile.tokenEndpoint;
  if (!authority || !isEntraHost(new URL(authority).hostname)) return ctx.scopes;
  const extra = issuerOf(profile) ? ['openid', 'profile', 'offline_access'] : ['offline_access'];
  return [...ctx.scopes, ...extra.filter((s) => !ctx.scopes.includes(s))];
}

function clientAuth(ctx: FlowContext, publicClient: boolean): oidc.ClientAuth {
  const { profile } = ctx;
  const federated = ctx.federatedTokenFile;
  if (!publicClient && federated) {
    return assertionAuth(() => readFederatedToken(federated));
  }
  if (!publicClient && profile.clientAuth === 'private_key_jwt') {
    if (ctx.clientCertificate === undefined) {
      throw new TokenError(
        'auth_failed',
        `profile '${profile.name}' signs in with a certificate, but none is stored; add it with 'pipeline-summary profile add ${profile.name} … --certificate PATH'`,
      );
    }
    const cert = readCertificateKey(ctx.clientCertificate, `the certificate of '${profile.name}'`);
    return assertionAuth((audience) =>
      signCertificateAssertion(cert, appClientId(ctx), audience, ctx.clock.now()),
    );
  }
  const secret = publicClient ? undefined : ctx.clientSecret;
  if (secret === undefined) return oidc.None();
  return profile.clientAuth === 'client_secret_post'
    ? oidc.ClientSecretPost(secret)
    : oidc.ClientSecretBasic(secret);
}

/**
 * The provider's metadata: from the discovery cache while fresh, else GET
 * `<issuer>/.well-known/openid-configuration`, checked to name this issuer — or, on an Entra host,
 * the `{tenantid}` template Entra's shared tenants publish — and cached. A refusal shows the body
 * (Entra says which tenant it does not know).
 */
async function discover(ctx: FlowContext, issuer: string): Promise<Record<string, unknown>> {
  const cache = new DiscoveryCache(ctx.home);
  const cached = await cache.get(issuer, ctx.clock.now());
  if (cached) return cached;
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  ctx.trace.endpoint = `the issuer ${issuer}`;
  const response = await ctx.fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'manual',
    signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.requestTimeoutMs)]),
  });
  const text = await response.text();
  if (!response.ok) {
    const detail = errorBodyDetail(text);
    const what = `discovery at ${url} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
    if (response.status >= 500) {
      throw new TokenError('network', `${what}; retry later`);
    }
    throw new TokenError(
      'general',
      `${what}; check the profile's issuer or tenant ('pipeline-summary profile show ${ctx.profile.name}')`,
    );
  }
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new TokenError(
      'general',
      `the issuer ${issuer} is not the OpenID provider this profile expects (its discovery document is not JSON); check --issuer`,
      { cause: err },
    );
  }
  if (!issuerMatches(String(metadata.issuer), issuer)) {
    throw new TokenError(
      'general',
      `the issuer ${issuer} is not the OpenID provider this profile expects (its discovery document names '${String(metadata.issuer)}'); check --issuer`,
    );
  }
  await cache.set(issuer, metadata, ctx.clock.now());
  return metadata;
}

/**
 * Exact match; or, on an Entra host, the issuer Entra publishes for the tenant asked for: the
 * `{tenantid}` template for the shared tenants (common, organizations), the tenant's GUID for a
 * domain name.
 */
function issuerMatches(published: string, expected: string): boolean {
  const strip = (u: string) => u.replace(/\/$/, '');
  if (strip(published) === strip(expected)) return true;
  let want: URL;
  let got: URL;
  try {
    want = new URL(expected);
    got = new URL(published.replace('{tenantid}', 'TENANTID'));
  } catch {
    return false;
  }
  if (!isEntraHost(want.hostname) || got.origin !== want.origin) return false;
  const [asked, version] = want.pathname.split('/').slice(1);
  const [named, namedVersion] = got.pathname.split('/').slice(1);
  if (version !== 'v2.0' || namedVersion !== 'v2.0' || !asked || !named) return false;
  const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (named === 'TENANTID') return ['common', 'organizations'].includes(asked.toLowerCase());
  return guid.test(named) && !guid.test(asked) && asked.includes('.');
}

/**
 * The context's fetch, bound to its signal, noting which endpoint each request goes to (for
 * messages), the token_type the server really sent, and accepting Google's `verification_url`
 * for RFC 8628's `verification_uri` (https://developers.google.com/identity/protocols/oauth2/limited-input-device).
 */
function tracingFetch(ctx: FlowContext, server: oidc.ServerMetadata): oidc.CustomFetch {
  const names: [string | undefined, string][] = [
    [server.token_endpoint, 'the token endpoint'],
    [server.device_authorization_endpoint, 'the device authorization endpoint'],
    [server.jwks_uri, 'the key set'],
    [server.userinfo_endpoint, 'the userinfo endpoint'],
  ];
  return async (url, init) => {
    const name = names.find(([u]) => u === url)?.[1] ?? 'the endpoint';
    ctx.trace.endpoint = `${name} ${url}`;
    let body = init.body;
    if (body instanceof URLSearchParams && body.has('code_verifier') && ctx.trace.redirectUri) {
      body = new URLSearchParams(body);
      body.set('redirect_uri', ctx.trace.redirectUri);
    }
    const response = await ctx.fetch(url, {
      ...init,
      body,
      signal: init.signal ? AbortSignal.any([init.signal, ctx.signal]) : ctx.signal,
    } as RequestInit);
    if (!response.ok) return response;
    if (url === server.token_endpoint) {
      const answer = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { token_type?: unknown } | undefined;
      if (typeof answer?.token_type === 'string') ctx.trace.tokenType = answer.token_type;
    } else if (url === server.device_authorization_endpoint) {
      const answer = (await response
        .clone()
        .json()
        .catch(() => undefined)) as Record<string, unknown> | undefined;
      if (
        answer &&
        answer.verification_uri === undefined &&
        answer.verification_url !== undefined
      ) {
        return Response.json(
          { ...answer, verification_uri: answer.verification_url },
          { status: response.status, headers: response.headers },
        );
      }
    }
    return response;
  };
}

/** An OAuth error body as one line: `error: description` with Entra's ids kept, else nothing. */
function errorBodyDetail(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error !== 'string') return undefined;
    return typeof body.error_description === 'string'
      ? `${body.error}: ${oneLine(body.error_description)}`
      : body.error;
  } catch {
    const line = text.trim().split('\n')[0]?.slice(0, 200);
    return line || undefined;
  }
}

/**
 * Entra's error_description on one line: "AADSTS7000215: Invalid client secret provided. … (trace
 * ID …, correlation ID …)" — the ids are what Microsoft support asks for; the timestamp is dropped
 * (https://learn.microsoft.com/entra/identity-platform/reference-error-codes).
 */
export function oneLine(description: string): string {
  const lines = description
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const ids: string[] = [];
  const text: string[] = [];
  for (const line of lines) {
    const id = /^(Trace|Correlation) ID:\s*(\S+)/i.exec(line);
    if (id) ids.push(`${id[1]!.toLowerCase()} ID ${id[2]}`);
    else if (!/^Timestamp:/i.test(line)) text.push(line);
  }
  return text.join(' ') + (ids.length ? ` (${ids.join(', ')})` : '');
}

/** Extra parameters every request of the profile carries (resource indicator, audience). */
export function audienceParameters(ctx: FlowContext): Record<string, string> {
  const params: Record<string, string> = {};
  if (ctx.profile.resource) params.resource = ctx.profile.resource;
  if (ctx.profile.audience) params.audience = ctx.profile.audience;
  return params;
}

/** Converts openid-client's token response to what the cache keeps (token_type as sent). */
export function granted(response: oidc.TokenEndpointResponse, ctx: FlowContext): GrantedToken {
  const sent = ctx.trace.tokenType;
  return {
    accessToken: response.access_token,
    tokenType:
      sent && sent.toLowerCase() === response.token_type?.toLowerCase()
        ? sent
        : (response.token_type ?? 'Bearer'),
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
  'authorization_declined', // Entra's device flow: the user declined on the sign-in page
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
  if (code === 'OAUTH_TIMEOUT' || (err as Error | undefined)?.name === 'TimeoutError') {
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
    if (isTimeoutCode(net)) {
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
  const detail = description ? `${error}: ${oneLine(description)}` : error;
  const name = ctx.profile.name;
  if (error === 'expired_token') {
    // RFC 8628 §3.5: the device code expired: a timeout like our own clock's, not a refusal.
    return new TokenError(
      'timeout',
      `the device code expired before it was approved (${detail}); run get-token -p ${name} again and approve sooner`,
      { cause },
    );
  }
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
      : error === 'access_denied' || error === 'authorization_declined'
        ? 'sign-in was denied; run again and approve the request'
        : `sign in again: 'get-token -p ${name} --force'`;
  return new TokenError(
    'auth_failed',
    `authentication failed for profile '${name}' (${detail}); ${hint}`,
    {
      cause,
    },
  );
}

/** The endpoint the failing request went to ("the token endpoint https://…"), for messages. */
export function endpointLabel(ctx: FlowContext): string {
  if (ctx.trace.endpoint) return ctx.trace.endpoint;
  const issuer = issuerOf(ctx.profile);
  return ctx.profile.tokenEndpoint
    ? `the token endpoint ${ctx.profile.tokenEndpoint}`
    : `the issuer ${issuer}`;
}
