import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** Client ids and secrets the test provider knows. */
export const TEST_CLIENTS = {
  /** Confidential service client: client-credentials only. */
  service: { id: 'service', secret: 'service-secret' },
  /** Confidential web client: authorization code (fixed redirect port) + refresh. */
  web: { id: 'web', secret: 'web-secret' },
  /** Public native client: interactive (any loopback port), device code, refresh. */
  cli: { id: 'cli' },
} as const;

/** The resource (audience) of the JWT access tokens the provider issues. */
export const TEST_RESOURCE = 'urn:pipeline-summary:test-api';

/** A token-endpoint call the provider saw. */
export interface GrantRecord {
  grantType: string;
  clientId: string | undefined;
  ok: boolean;
  error?: string;
}

/** A running oidc-provider on loopback. */
export interface TestProvider {
  issuer: string;
  /** Every token-endpoint grant, in order. */
  grants: GrantRecord[];
  /** How many token requests used this grant type. */
  count(grantType: string): number;
  close(): Promise<void>;
}

/** Options of `startTestProvider`. */
export interface TestProviderOptions {
  /** Redirect port registered for the confidential `web` client. */
  webRedirectPort?: number;
  /** Access-token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
}

/**
 * Starts a real OpenID provider (oidc-provider 9) on 127.0.0.1 with a free port: discovery, client
 * credentials, authorization code + PKCE with its built-in login/consent pages, device flow,
 * rotating refresh tokens, JWT access tokens for `TEST_RESOURCE`. Any login/password signs in.
 */
export async function startTestProvider(options: TestProviderOptions = {}): Promise<TestProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ttl = options.accessTokenTtl ?? 3600;
  const webRedirects = options.webRedirectPort
    ? [`http://127.0.0.1:${options.webRedirectPort}/callback`]
    : ['http://127.0.0.1:1/callback'];

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENTS.service.id,
        client_secret: TEST_CLIENTS.service.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      },
      {
        client_id: TEST_CLIENTS.web.id,
        client_secret: TEST_CLIENTS.web.secret,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: webRedirects,
      },
      {
        client_id: TEST_CLIENTS.cli.id,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: [
          'authorization_code',
          'refresh_token',
          'urn:ietf:params:oauth:grant-type:device_code',
        ],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1/callback'],
      },
    ],
    scopes: ['openid', 'offline_access', 'api:read', 'api:write'],
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      deviceFlow: { enabled: true },
      revocation: { enabled: true, allowedPolicy: async () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => TEST_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'api:read api:write',
          audience: TEST_RESOURCE,
          accessTokenTTL: ttl,
          accessTokenFormat: 'jwt',
        }),
      },
    },
    // Every refresh rotates the refresh token; a replayed one is refused (and revokes the grant).
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: Provider.Client) =>
      client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: ttl,
      ClientCredentials: ttl,
      DeviceCode: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 86_400,
      RefreshToken: 86_400,
      IdToken: 3600,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub }),
    }),
    cookies: { keys: ['test-cookie-key'] },
  });
  // Server errors show up as failed grants in `grants`; keep them off the test output.
  provider.on('server_error', () => undefined);

  const grants: GrantRecord[] = [];
  const record = (ok: boolean) => (ctx: Provider.KoaContextWithOIDC, err?: Error) => {
    const params = ctx.oidc?.params as Record<string, string | undefined> | undefined;
    grants.push({
      grantType: params?.grant_type ?? '?',
      clientId: ctx.oidc?.client?.clientId,
      ok,
      error: (err as { error?: string } | undefined)?.error,
    });
  };
  provider.on('grant.success', record(true));
  provider.on('grant.error', record(false));

  server.on('request', provider.callback());
  return {
    issuer,
    grants,
    count: (grantType) => grants.filter((g) => g.grantType === grantType).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
