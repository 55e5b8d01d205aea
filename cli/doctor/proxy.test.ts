// The proxy a request takes, by undici's EnvHttpProxyAgent rules (what Node's fetch uses with
// NODE_USE_ENV_PROXY=1: https://nodejs.org/api/cli.html#node_use_env_proxy1).
import { describe, expect, it } from 'vitest';
import { describeRoute, nodeUsesEnvProxy, proxyRoute } from './proxy.ts';

const route = (url: string, env: NodeJS.ProcessEnv) => proxyRoute(new URL(url), env, true);

describe('proxyRoute', () => {
  it('https uses HTTPS_PROXY, else falls back to HTTP_PROXY; lower case wins', () => {
    expect(route('https://idp.example.com', { HTTPS_PROXY: 'http://a:1' }).proxy).toBe(
      'http://a:1',
    );
    expect(route('https://idp.example.com', { HTTP_PROXY: 'http://b:2' })).toMatchObject({
      proxy: 'http://b:2',
      variable: 'HTTP_PROXY',
    });
    expect(
      route('https://idp.example.com', { https_proxy: 'http://c:3', HTTPS_PROXY: 'http://a:1' }),
    ).toMatchObject({ proxy: 'http://c:3', variable: 'https_proxy' });
    expect(route('http://169.254.169.254/x', { HTTPS_PROXY: 'http://a:1' }).proxy).toBeUndefined();
  });

  it('NO_PROXY: exact hosts, .domain and *.domain suffixes, host:port, and *', () => {
    const env = {
      HTTPS_PROXY: 'http://p:1',
      NO_PROXY: 'localhost, .corp.example,*.internal idp:8443',
    };
    expect(route('https://localhost/', env).bypassedBy).toBe('localhost');
    expect(route('https://login.corp.example/', env).bypassedBy).toBe('.corp.example');
    expect(route('https://a.b.internal/', env).bypassedBy).toBe('*.internal');
    expect(route('https://idp:8443/', env).bypassedBy).toBe('idp:8443');
    expect(route('https://idp/', env).proxy).toBe('http://p:1'); // port 443 ≠ 8443
    expect(route('https://anything/', { ...env, no_proxy: '*' }).bypassedBy).toBe('*');
  });

  it('without NODE_USE_ENV_PROXY Node ignores the variables, and the line says so', () => {
    const ignored = proxyRoute(new URL('https://idp/'), { HTTPS_PROXY: 'http://p:1' }, false);
    expect(ignored).toMatchObject({ proxy: undefined, ignored: 'HTTPS_PROXY' });
    expect(describeRoute(ignored)).toBe(
      'direct: HTTPS_PROXY is set but Node ignores it without NODE_USE_ENV_PROXY=1',
    );
    expect(nodeUsesEnvProxy({ NODE_USE_ENV_PROXY: '1' }, [])).toBe(true);
    expect(nodeUsesEnvProxy({ NODE_OPTIONS: '--max-old-space-size=512 --use-env-proxy' }, [])).toBe(
      true,
    );
    expect(nodeUsesEnvProxy({}, ['--use-env-proxy'])).toBe(true);
    expect(nodeUsesEnvProxy({ NODE_USE_ENV_PROXY: '0' }, [])).toBe(false);
  });
});
