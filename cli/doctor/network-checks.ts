/**
 * The identity provider from here: its discovery document (or token endpoint, or the managed
 * identity endpoint) answers, through which proxy the request went, and how far this machine's
 * clock is from the provider's `Date` header (RFC 9110 §6.6.1) — a clock off by minutes makes
 * tokens look expired early or "not yet valid" to the APIs that check them.
 */
import { managedIdentityEndpoint } from '../oauth/flows/managed-identity.ts';
import { networkCode } from '../oauth/flows/network-error.ts';
import { issuerOf } from '../oauth/profiles.ts';
import { fail, pass, skip, type CheckResult, type DoctorContext } from './check.ts';
import { describeRoute, proxyRoute, type ProxyRoute } from './proxy.ts';

/** Clocks further apart than this fail the clock check. */
export const MAX_CLOCK_SKEW_MS = 60_000;

/** The provider answers, and by which route. */
export async function reachabilityCheck(ctx: DoctorContext): Promise<CheckResult> {
  const p = ctx.profile;
  if (!p) return skip('discovery', 'discovery: no profile to check');
  const issuer = issuerOf(p);
  const target =
    p.flow === 'managed-identity'
      ? { what: 'managed identity endpoint', url: managedIdentityEndpoint(ctx.edges.env).url }
      : issuer
        ? {
            what: 'issuer discovery',
            url: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
          }
        : { what: 'token endpoint', url: p.tokenEndpoint! };
  const url = new URL(target.url);
  const route = proxyRoute(url, ctx.edges.env, ctx.edges.usesEnvProxy);
  const how = describeRoute(route);
  const clock = ctx.edges.clock;
  const sentAt = clock.now();
  let response: Response;
  try {
    response = await ctx.edges.fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(ctx.options.timeoutMs),
    });
  } catch (err) {
    const code = networkCode(err) ?? ((err as Error).name === 'TimeoutError' ? 'timeout' : '');
    return fail(
      'discovery',
      `${target.what} ${target.url}: no answer${code ? ` (${code})` : ''}, ${how}`,
      unreachableFix(route, p.flow === 'managed-identity'),
    );
  }
  const receivedAt = clock.now();
  const date = Date.parse(response.headers.get('date') ?? '');
  if (Number.isFinite(date)) ctx.serverDate = { date, sentAt, receivedAt, url: url.origin };
  const text = await response.text().catch(() => '');
  const answered = `${target.what} ${target.url}: HTTP ${response.status} in ${receivedAt - sentAt} ms, ${how}`;
  if (target.what !== 'issuer discovery') {
    // Any HTTP answer proves the endpoint is there; a token request without credentials is
    // refused by design (IMDS: 400 without `Metadata: true`).
    return response.status < 500
      ? pass('discovery', answered)
      : fail('discovery', answered, 'the endpoint is failing; retry later');
  }
  if (response.status >= 500)
    return fail('discovery', answered, 'the identity provider is failing; retry later');
  if (!response.ok) {
    return fail(
      'discovery',
      answered,
      `check the profile's issuer or tenant: pipeline-summary profile show ${p.name}`,
    );
  }
  try {
    const metadata = JSON.parse(text) as { token_endpoint?: unknown };
    if (typeof metadata.token_endpoint !== 'string') throw new Error('no token_endpoint');
  } catch {
    return fail(
      'discovery',
      `${answered}, but it is not an OpenID discovery document`,
      `check the profile's issuer: pipeline-summary profile show ${p.name}`,
    );
  }
  return pass('discovery', answered);
}

/** What to do when the provider does not answer, given the route the request took. */
function unreachableFix(route: ProxyRoute, managedIdentity: boolean): string {
  if (managedIdentity) {
    return route.proxy
      ? 'IMDS does not work through a proxy: add 169.254.169.254 to NO_PROXY'
      : 'run this on the Azure VM, AKS node or app the identity is assigned to';
  }
  if (route.ignored) {
    return `set NODE_USE_ENV_PROXY=1 so Node sends requests through ${route.ignored}`;
  }
  if (route.proxy) return `check that the proxy ${route.variable} can reach the host`;
  return 'check the issuer URL and your network; behind a proxy set HTTPS_PROXY and NODE_USE_ENV_PROXY=1';
}

/** This clock against the provider's `Date`, from the discovery answer. */
export async function clockCheck(ctx: DoctorContext): Promise<CheckResult> {
  const seen = ctx.serverDate;
  if (!seen)
    return skip('clock', 'clock: no Date header from the identity provider to compare with');
  // `Date` has whole seconds: the server's time was somewhere in the second it names.
  const serverNow = seen.date + 500;
  const localNow = (seen.sentAt + seen.receivedAt) / 2;
  const skew = localNow - serverNow;
  const seconds = Math.round(Math.abs(skew) / 1000);
  const direction = skew > 0 ? 'ahead of' : 'behind';
  if (Math.abs(skew) <= MAX_CLOCK_SKEW_MS) {
    return pass(
      'clock',
      `clock: within ${Math.max(1, seconds)} s of ${seen.url} (its Date header)`,
    );
  }
  return fail(
    'clock',
    `clock: ${seconds} s ${direction} ${seen.url} (its Date header); tokens will look expired early or not yet valid`,
    'turn on time sync (timedatectl set-ntp true; macOS: Date & Time > Set automatically; Windows: w32tm /resync; WSL: wsl --shutdown)',
  );
}
