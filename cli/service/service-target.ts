/**
 * Which running service the CLI's tools talk to, and with which access token: `--url`, else
 * PIPELINE_SUMMARY_URL, else this machine's own service on loopback (`serve`'s default port, or
 * PORT when that is how it was started). The token of a shared service comes from
 * PIPELINE_SUMMARY_ACCESS_TOKEN, else — for this machine's own service — from the secret store
 * that `serve` keeps it in (server/http/access.ts).
 */
import { openSecretStore } from '../../server/platform/os-secret-store.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { CliError } from '../errors.ts';
import { ServiceClient } from './service-client.ts';

/** The environment variable naming the service (like `--url`). */
export const SERVICE_URL_ENV = 'PIPELINE_SUMMARY_URL';
/** The environment variable holding a shared service's access token. */
export const ACCESS_TOKEN_ENV = 'PIPELINE_SUMMARY_ACCESS_TOKEN';

/** The service to ask; `explicit` when the user named it (then it must answer). */
export interface ServiceTarget {
  url: string;
  explicit: boolean;
}

/** Resolves the service URL from `--url`, the environment, or loopback; a bad URL is a usage error. */
export function serviceTarget(flagUrl: string | undefined, env: NodeJS.ProcessEnv): ServiceTarget {
  const named = flagUrl ?? (env[SERVICE_URL_ENV]?.trim() || undefined);
  if (named === undefined) {
    const port = /^[0-9]{1,5}$/.test(env.PORT ?? '') ? env.PORT : '5100';
    return { url: `http://127.0.0.1:${port}`, explicit: false };
  }
  let url: URL;
  try {
    url = new URL(named);
  } catch {
    throw new CliError(
      'usage',
      `--url '${named}' is not a URL: give the service's http(s) address`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError('usage', `--url '${named}' is not an http(s) URL`);
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, explicit: true };
}

/** True for a URL on this machine, whose service keeps its access token in our secret store. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/**
 * A client for `target`: the token from the environment, else (loopback only) the one in the
 * secret store, looked up only if the service asks for it.
 */
export function serviceClient(
  target: ServiceTarget,
  env: NodeJS.ProcessEnv,
  options: { warn?: (line: string) => void; fetch?: typeof fetch } = {},
): ServiceClient {
  const token = env[ACCESS_TOKEN_ENV]?.trim() || undefined;
  return new ServiceClient({
    baseUrl: target.url,
    token,
    fetch: options.fetch,
    lookupToken: isLoopback(target.url)
      ? async () =>
          (await openSecretStore({ env, warn: options.warn })).get(
            SECRET_ACCOUNTS.serviceAccessToken,
          )
      : undefined,
  });
}
