/**
 * The managed-identity flow: a token for the identity Azure gives the machine, from the token
 * endpoint on the machine itself, as Microsoft documents it and the Azure Identity SDKs call it:
 *
 * - App Service, Functions and Container Apps set IDENTITY_ENDPOINT and IDENTITY_HEADER: `GET
 *   $IDENTITY_ENDPOINT?resource=…&api-version=2019-08-01[&client_id=…]` with `X-IDENTITY-HEADER`
 *   (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference).
 * - Everywhere else (VMs, scale sets, AKS nodes) the Instance Metadata Service: `GET
 *   http://169.254.169.254/metadata/identity/oauth2/token?api-version=2018-02-01&resource=…
 *   [&client_id=…]` with `Metadata: true`
 *   (https://learn.microsoft.com/entra/identity/managed-identities-azure-resources/how-to-use-vm-token#get-a-token-using-http).
 *   AZURE_POD_IDENTITY_AUTHORITY_HOST replaces the host, as azure-identity does for JS
 *   (managedIdentityCredential/imdsMsi.ts) and Python (_credentials/imds.py).
 *
 * Errors follow the same pages' tables: 404, 410, 429 and 5xx are retried with exponential
 * back-off (or the server's Retry-After); 400/401/403 mean the identity or resource is not
 * available; the bodies are IMDS's `{error, error_description}` or App Service's `{statusCode,
 * message, correlationId}` (MSAL's ManagedIdentityErrorResponse reads both).
 */
import { TokenError } from '../errors.ts';
import type { FlowContext, GrantedToken } from './flow-context.ts';
import { isTimeoutCode, networkCode } from './network-error.ts';

/** The IMDS host when AZURE_POD_IDENTITY_AUTHORITY_HOST is unset. */
export const IMDS_HOST = 'http://169.254.169.254';
const IMDS_PATH = '/metadata/identity/oauth2/token';
const IMDS_API_VERSION = '2018-02-01';
const APP_SERVICE_API_VERSION = '2019-08-01';
/** Attempts in all (the first and its retries) for a retryable answer. */
export const MANAGED_IDENTITY_ATTEMPTS = 4;
/** The first back-off; each retry waits twice as long (1 s, 2 s, 4 s), unless Retry-After says. */
const FIRST_BACKOFF_MS = 1000;
/** The longest Retry-After honoured; IMDS's 410 promises an answer within 70 s. */
const MAX_RETRY_AFTER_MS = 70_000;
// The table of https://learn.microsoft.com/entra/identity/managed-identities-azure-resources/how-to-use-vm-token#error-handling
// (404: IMDS updating; 410: updating, back within 70 s; 429: throttled; 5xx: transient).
const RETRYABLE = new Set([404, 408, 410, 429, 500, 502, 503, 504]);

/** Where this machine's managed-identity tokens come from. */
export interface ManagedIdentityEndpoint {
  kind: 'app-service' | 'imds';
  /** The token URL without its query. */
  url: string;
  /** Headers every request carries (the SSRF guards); values are never shown. */
  headers: Record<string, string>;
  apiVersion: string;
}

/**
 * The endpoint the environment points at: App Service (and Functions, Container Apps) when both
 * IDENTITY_ENDPOINT and IDENTITY_HEADER are set, as azure-identity's appServiceMsi2019 decides;
 * else IMDS, at AZURE_POD_IDENTITY_AUTHORITY_HOST when set.
 */
export function managedIdentityEndpoint(env: NodeJS.ProcessEnv): ManagedIdentityEndpoint {
  if (env.IDENTITY_ENDPOINT && env.IDENTITY_HEADER) {
    return {
      kind: 'app-service',
      url: env.IDENTITY_ENDPOINT,
      headers: { accept: 'application/json', 'X-IDENTITY-HEADER': env.IDENTITY_HEADER },
      apiVersion: APP_SERVICE_API_VERSION,
    };
  }
  const host = (env.AZURE_POD_IDENTITY_AUTHORITY_HOST || IMDS_HOST).replace(/\/+$/, '');
  return {
    kind: 'imds',
    url: `${host}${IMDS_PATH}`,
    headers: { accept: 'application/json', Metadata: 'true' },
    apiVersion: IMDS_API_VERSION,
  };
}

/**
 * The `resource` a managed-identity token is asked for: the profile's resource, else its one
 * scope without `/.default` (azure-identity's mapScopesToResource): these endpoints issue a token
 * for one resource, not for a list of scopes.
 */
export function managedIdentityResource(profile: FlowContext['profile'], scopes: string[]): string {
  if (profile.resource) return profile.resource;
  if (scopes.length === 1) return scopes[0]!.replace(/\/\.default$/, '');
  throw new TokenError(
    'usage',
    scopes.length === 0
      ? `profile '${profile.name}' names no resource for its managed identity; give one with --resource URI (e.g. https://management.azure.com) or -s URI/.default`
      : `a managed identity gets a token for one resource, not ${scopes.length} scopes ('${scopes.join(' ')}'); give one with -s URI/.default or the profile's --resource`,
  );
}

/** A token for the machine's managed identity; failures are TokenErrors with an exit code. */
export async function managedIdentityToken(ctx: FlowContext): Promise<GrantedToken> {
  const endpoint = managedIdentityEndpoint(ctx.env);
  const query = new URLSearchParams({
    'api-version': endpoint.apiVersion,
    resource: managedIdentityResource(ctx.profile, ctx.scopes),
  });
  if (ctx.profile.managedIdentityClientId) {
    query.set('client_id', ctx.profile.managedIdentityClientId);
  }
  const where = `the ${endpoint.kind === 'imds' ? 'Instance Metadata Service' : 'App Service identity endpoint'} ${endpoint.url}`;
  ctx.trace.endpoint = where;
  let url: URL;
  try {
    url = new URL(`${endpoint.url}?${query}`);
  } catch (err) {
    throw new TokenError('general', `${where} is not a URL; check IDENTITY_ENDPOINT`, {
      cause: err,
    });
  }
  for (let attempt = 1; ; attempt++) {
    const response = await send(ctx, url, endpoint, where);
    const text = await response.text().catch(() => '');
    if (response.ok) return parseToken(text, ctx, where);
    const retry = attempt < MANAGED_IDENTITY_ATTEMPTS && RETRYABLE.has(response.status);
    const waitMs = retry ? backoff(response, attempt, ctx.clock.now()) : undefined;
    if (waitMs === undefined || ctx.clock.now() + waitMs >= ctx.deadline) {
      throw refusal(response.status, text, ctx, endpoint, where, attempt);
    }
    await ctx.sleep(waitMs, ctx.signal);
  }
}

async function send(
  ctx: FlowContext,
  url: URL,
  endpoint: ManagedIdentityEndpoint,
  where: string,
): Promise<Response> {
  try {
    return await ctx.fetch(url, {
      headers: endpoint.headers,
      redirect: 'manual',
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.requestTimeoutMs)]),
    });
  } catch (err) {
    if (ctx.signal.aborted && ctx.signal.reason instanceof TokenError) throw ctx.signal.reason;
    const code = networkCode(err);
    if ((err as Error).name === 'TimeoutError' || (code && isTimeoutCode(code))) {
      throw new TokenError(
        'timeout',
        `${where} did not answer in time${code ? ` (${code})` : ''}; ${notHere(endpoint)}, or raise --timeout`,
        { cause: err },
      );
    }
    throw new TokenError(
      'network',
      `cannot reach ${where}${code ? ` (${code})` : ''}; ${notHere(endpoint)}`,
      { cause: err },
    );
  }
}

/** What an unreachable endpoint most likely means. */
function notHere(endpoint: ManagedIdentityEndpoint): string {
  return endpoint.kind === 'imds'
    ? 'is this an Azure VM, scale set or AKS node with a managed identity? (IMDS answers nowhere else)'
    : "is the app's managed identity turned on? (IDENTITY_ENDPOINT is set by the platform)";
}

/** Milliseconds before the next attempt: the server's Retry-After, else 1 s, 2 s, 4 s. */
function backoff(response: Response, attempt: number, now: number): number {
  const header = response.headers.get('retry-after');
  if (header !== null) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
    if (Number.isFinite(ms)) return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
  }
  return FIRST_BACKOFF_MS * 2 ** (attempt - 1);
}

/** The endpoint's error body as one line (IMDS: error + description; App Service: message + id). */
export function managedIdentityErrorDetail(text: string): string | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text.trim().split('\n')[0]?.slice(0, 200) || undefined;
  }
  const str = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  // Some hosts nest IMDS's shape: {"error": {"code": …, "message": …}}.
  const nested = typeof body.error === 'object' && body.error !== null ? body.error : undefined;
  const error = str('error') ?? str('code') ?? (nested as { code?: string } | undefined)?.code;
  const description =
    str('error_description') ?? str('message') ?? (nested as { message?: string })?.message;
  const correlation = str('correlationId') ?? str('correlation_id');
  const parts = [error, description].filter(Boolean).join(': ');
  if (!parts) return undefined;
  return correlation ? `${parts} (correlation ID ${correlation})` : parts;
}

function refusal(
  status: number,
  text: string,
  ctx: FlowContext,
  endpoint: ManagedIdentityEndpoint,
  where: string,
  attempts: number,
): TokenError {
  const detail = managedIdentityErrorDetail(text);
  const said = `${where} answered HTTP ${status}${detail ? ` (${detail})` : ''}`;
  const identity = ctx.profile.managedIdentityClientId
    ? `the user-assigned identity with client id ${ctx.profile.managedIdentityClientId}`
    : 'a system-assigned identity';
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  if (
    status === 400 ||
    status === 401 ||
    status === 403 ||
    (status === 404 && /identity/i.test(detail ?? ''))
  ) {
    // azure-identity: "400 in response to a token request indicates managed identity is disabled,
    // or the identity with the specified client_id is not available" (_credentials/imds.py).
    return new TokenError(
      'auth_failed',
      `authentication failed for profile '${ctx.profile.name}': ${said}; check that ${identity} is assigned to this ${endpoint.kind === 'imds' ? 'machine' : 'app'} and that the resource is right`,
    );
  }
  if (status === 502 || status === 504) {
    return new TokenError(
      'network',
      `${said}${tries}; IMDS does not work through a proxy: add 169.254.169.254 to NO_PROXY`,
    );
  }
  if (RETRYABLE.has(status)) {
    return new TokenError(
      'network',
      `${said}${tries}; the endpoint is busy or updating, retry later`,
    );
  }
  return new TokenError(
    'general',
    `${said}; check the profile's resource ('pipeline-summary profile show ${ctx.profile.name}')`,
  );
}

/**
 * The token from a 200 answer. IMDS sends `expires_in` and `expires_on` as strings of seconds;
 * App Service's 2019-08-01 answer has only `expires_on` (seconds since the epoch); azure-identity
 * reads both, and a date string, the same way (managedIdentityCredential/utils.ts).
 */
function parseToken(text: string, ctx: FlowContext, where: string): GrantedToken {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new TokenError('general', `${where} answered something that is not JSON`, {
      cause: err,
    });
  }
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw new TokenError('general', `${where} answered without an access_token`);
  }
  const nowSeconds = ctx.clock.now() / 1000;
  let expiresIn: number | undefined;
  const on = body.expires_on;
  if (on !== undefined && on !== '') {
    const seconds = Number(on);
    const at = Number.isFinite(seconds) ? seconds : Date.parse(String(on)) / 1000;
    if (Number.isFinite(at)) expiresIn = Math.max(0, Math.floor(at - nowSeconds));
  }
  if (expiresIn === undefined && body.expires_in !== undefined) {
    const seconds = Number(body.expires_in);
    if (Number.isFinite(seconds)) expiresIn = seconds;
  }
  return {
    accessToken: body.access_token,
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
    expiresIn,
  };
}
