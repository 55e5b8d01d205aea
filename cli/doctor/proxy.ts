/**
 * Which proxy a request from this process goes through, by the rules Node's fetch applies: Node
 * reads HTTP_PROXY, HTTPS_PROXY and NO_PROXY only with NODE_USE_ENV_PROXY=1 or --use-env-proxy
 * (https://nodejs.org/api/cli.html#node_use_env_proxy1), and then routes as undici's
 * EnvHttpProxyAgent does (lib/dispatcher/env-http-proxy-agent.js): lower-case variables before
 * upper-case ones, HTTPS_PROXY falling back to HTTP_PROXY for https, NO_PROXY entries split on
 * commas or spaces, `*` for everything, a leading `.` or `*.` for a domain and its subdomains,
 * `host:port` for one port.
 */

/** How a request to one URL would travel. */
export interface ProxyRoute {
  /** The proxy URL the request goes through; undefined: straight to the server. */
  proxy: string | undefined;
  /** The variable that named the proxy (HTTPS_PROXY, http_proxy, …). */
  variable: string | undefined;
  /** The NO_PROXY entry that sent it direct, when one did. */
  bypassedBy: string | undefined;
  /**
   * A proxy variable applies to the URL, but this Node ignores it (no NODE_USE_ENV_PROXY): the
   * request goes direct, which is what fails behind a corporate proxy.
   */
  ignored: string | undefined;
}

/** True when Node itself routes fetch through the proxy variables. */
export function nodeUsesEnvProxy(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[] = process.execArgv,
): boolean {
  if (execArgv.includes('--use-env-proxy')) return true;
  if (/(^|\s)--use-env-proxy(\s|$)/.test(env.NODE_OPTIONS ?? '')) return true;
  return env.NODE_USE_ENV_PROXY === '1';
}

/** The route a request to `url` takes from a process with `env`. */
export function proxyRoute(url: URL, env: NodeJS.ProcessEnv, usesEnvProxy: boolean): ProxyRoute {
  // `lower ?? UPPER`, then empty means none: undici's reading, so an empty https_proxy hides
  // HTTPS_PROXY and falls back to the http proxy.
  const pick = (lower: string, upper: string) => {
    const name = env[lower] !== undefined ? lower : upper;
    return env[name] ? { name, value: env[name] } : undefined;
  };
  const http = pick('http_proxy', 'HTTP_PROXY');
  const chosen = url.protocol === 'https:' ? (pick('https_proxy', 'HTTPS_PROXY') ?? http) : http;
  const none: ProxyRoute = {
    proxy: undefined,
    variable: undefined,
    bypassedBy: undefined,
    ignored: undefined,
  };
  if (!chosen) return none;
  const bypass = noProxyMatch(url, env.no_proxy ?? env.NO_PROXY ?? '');
  if (bypass !== undefined) return { ...none, bypassedBy: bypass };
  if (!usesEnvProxy) return { ...none, ignored: chosen.name };
  return { ...none, proxy: chosen.value, variable: chosen.name };
}

/** The NO_PROXY entry that matches `url`, if any. */
function noProxyMatch(url: URL, noProxy: string): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  if (noProxy.trim() === '*') return '*';
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const name = (parsed ? parsed[1]! : entry).toLowerCase();
    if (parsed && Number(parsed[2]) !== port) continue;
    const matches = /^[.*]/.test(name) ? host.endsWith(name.replace(/^\*/, '')) : host === name;
    if (matches) return entry;
  }
  return undefined;
}

/** The route in words, for a doctor line: "through http://proxy:3128 (HTTPS_PROXY)". */
export function describeRoute(route: ProxyRoute): string {
  if (route.proxy) return `through the proxy ${redactUserinfo(route.proxy)} (${route.variable})`;
  if (route.bypassedBy) return `direct (NO_PROXY '${route.bypassedBy}')`;
  if (route.ignored) {
    return `direct: ${route.ignored} is set but Node ignores it without NODE_USE_ENV_PROXY=1`;
  }
  return 'direct (no proxy set)';
}

/** A proxy URL without its password. */
function redactUserinfo(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return proxy;
  }
}
