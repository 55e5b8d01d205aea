import os from 'node:os';
import { AppError } from '../platform/errors.ts';
import type { SecretStore } from '../platform/secret-store.ts';
import { ensureAccessToken, type AccessOptions } from './access.ts';
import type { SecurityOptions } from './security.ts';
import type { ProxyHeader } from './client-address.ts';

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD_BINDS = new Set(['0.0.0.0', '::']);

/** How the service is reached: bind address, public URLs (`--public-url`) and direct TLS. */
export interface ExposureConfig {
  host: string;
  publicUrls: string[];
  tls: boolean;
  /** Reverse proxies whose `Forwarded`/`X-Forwarded-For` names the client (`--trusted-proxy`). */
  trustedProxies?: string[];
  /** The one header those proxies maintain (`--trusted-proxy-header`). */
  trustedProxyHeader?: ProxyHeader | undefined;
}

/** The checks that fit an exposure, and the access token when one is needed. */
export interface Exposure {
  /** True when others can reach the service (non-loopback bind or public URLs). */
  shared: boolean;
  security: SecurityOptions;
  access?: AccessOptions;
  /** The access token and whether it was generated now (then it is printed once). */
  accessToken?: { token: string; created: boolean };
}

/** True when others can reach the service: a non-loopback bind, or public URLs (a proxy in front). */
export function isShared(host: string, publicUrls: string[]): boolean {
  return !LOOPBACK_BINDS.has(host) || publicUrls.length > 0;
}

/**
 * Loopback without public URLs stays as it always was: no token, loopback Host names only. A
 * non-loopback bind, or public URLs (a reverse proxy in front), make the service shared: Host must
 * be the bind address, a public name or (on a wildcard bind) one of this machine's addresses, and
 * every request needs the access token from the secret store (generated on first use).
 */
export async function planExposure(
  config: ExposureConfig,
  secretStore: SecretStore | undefined,
): Promise<Exposure> {
  const publicHosts = config.publicUrls.map((u) => new URL(u).hostname);
  const publicOrigins = config.publicUrls.map((u) => new URL(u).origin);
  if (!isShared(config.host, config.publicUrls)) {
    return { shared: false, security: {} };
  }
  if (!secretStore) {
    throw new AppError(
      'not_configured',
      'Sharing the service on the network needs the secret store for its access token',
    );
  }
  const bindHosts = WILDCARD_BINDS.has(config.host)
    ? localAddresses()
    : [config.host.includes(':') ? `[${config.host}]` : config.host];
  const accessToken = await ensureAccessToken(secretStore);
  return {
    shared: true,
    security: { allowedHosts: [...bindHosts, ...publicHosts], allowedOrigins: publicOrigins },
    access: {
      token: accessToken.token,
      secureCookies: config.tls || config.publicUrls.some((u) => u.startsWith('https:')),
      ...(config.trustedProxies?.length ? { trustedProxies: config.trustedProxies } : {}),
      ...(config.trustedProxyHeader ? { trustedProxyHeader: config.trustedProxyHeader } : {}),
    },
    accessToken,
  };
}

/** IP literals cannot be DNS-rebound, so a wildcard bind accepts this machine's own addresses. */
function localAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i !== undefined)
    .map((i) => (i.family === 'IPv6' ? `[${i.address.split('%')[0]}]` : i.address));
}
