// The managed-identity flow against loopback stand-ins of IMDS and the App Service identity
// endpoint (testing/managed-identity-endpoints.ts), which answer as Microsoft documents them:
// https://learn.microsoft.com/entra/identity/managed-identities-azure-resources/how-to-use-vm-token
// and https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getToken } from '../engine.ts';
import type { TokenError } from '../errors.ts';
import { isTokenError } from '../errors.ts';
import { addProfile, fileStore, freePort, jwtClaims, tempHome } from '../testing/fixtures.ts';
import {
  startAppServiceIdentity,
  startImds,
  type IdentityEndpoint,
} from '../testing/managed-identity-endpoints.ts';
import { managedIdentityEndpoint, managedIdentityErrorDetail } from './managed-identity.ts';

let home: string;
let cleanup: () => Promise<void>;
let endpoint: IdentityEndpoint | undefined;
const sleeps: number[] = [];

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  sleeps.length = 0;
});
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
  await cleanup();
});

const ARM = 'https://management.azure.com';

async function miProfile(extra: Record<string, unknown> = {}) {
  await addProfile(home, {
    name: 'mi',
    flow: 'managed-identity',
    scopes: [`${ARM}/.default`],
    ...extra,
  } as Parameters<typeof addProfile>[1]);
}

function token(env: NodeJS.ProcessEnv, options: { scope?: string; clientId?: string } = {}) {
  return getToken(
    {
      profile: 'mi',
      home,
      scope: options.scope,
      managedIdentityClientId: options.clientId,
    },
    {
      secretStore: fileStore(home),
      env,
      sleep: async (ms) => void sleeps.push(ms),
    },
  );
}

async function failure(promise: Promise<unknown>): Promise<TokenError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isTokenError(err)) throw new Error(`expected a TokenError, got ${String(err)}`);
  return err;
}

describe('IMDS (VMs, scale sets, AKS nodes)', () => {
  it('asks for the resource of the one scope with Metadata: true, then serves the cache', async () => {
    endpoint = await startImds();
    await miProfile();
    const env = { AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url };
    const first = await token(env);
    expect(first.source).toBe('issued');
    expect(jwtClaims(first.response.access_token)).toMatchObject({ aud: ARM });
    expect(first.response.expires_in).toBeGreaterThan(86_000);
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0]).toMatchObject({
      path: '/metadata/identity/oauth2/token',
      query: { 'api-version': '2018-02-01', resource: ARM },
      headers: { metadata: 'true' },
    });
    expect(endpoint.requests[0]!.query).not.toHaveProperty('client_id');
    const second = await token(env);
    expect(second).toMatchObject({ source: 'cache', flow: 'managed-identity' });
    expect(second.response.access_token).toBe(first.response.access_token);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('a user-assigned identity is asked for by client_id, from the profile or the flag', async () => {
    endpoint = await startImds({ userAssigned: ['uai-1', 'uai-2'], systemAssigned: false });
    await miProfile({ managedIdentityClientId: 'uai-1', resource: 'api://ci' });
    const env = { AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url };
    expect(jwtClaims((await token(env)).response.access_token)).toMatchObject({
      aud: 'api://ci',
      oid: 'uai-1',
    });
    // Another identity is another cache entry, not the first one's token.
    const other = await token(env, { clientId: 'uai-2' });
    expect(other.source).toBe('issued');
    expect(jwtClaims(other.response.access_token)).toMatchObject({ oid: 'uai-2' });
    expect(endpoint.requests.map((r) => r.query.client_id)).toEqual(['uai-1', 'uai-2']);
  });

  it('400 (no identity assigned) is an authentication failure that quotes IMDS', async () => {
    endpoint = await startImds({ systemAssigned: false });
    await miProfile();
    const err = await failure(token({ AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url }));
    expect(err.code).toBe('auth_failed');
    expect(err.message).toMatch(
      /HTTP 400 \(invalid_request: Identity not found\); check that a system-assigned identity is assigned to this machine/,
    );
    expect(endpoint.requests).toHaveLength(1); // 4xx are design-time errors: not retried
  });

  it('429 is retried after the Retry-After the server gave', async () => {
    endpoint = await startImds();
    endpoint.script.push({
      status: 429,
      body: { error: 'too_many_requests', error_description: 'throttled' },
      headers: { 'retry-after': '2' },
    });
    await miProfile();
    const result = await token({ AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url });
    expect(result.source).toBe('issued');
    expect(sleeps).toEqual([2000]);
    expect(endpoint.requests).toHaveLength(2);
  });

  it('404, 410 and 5xx back off 1 s, 2 s, 4 s; still failing is a network error', async () => {
    endpoint = await startImds();
    for (const status of [404, 410, 503, 500]) {
      endpoint.script.push({ status, body: { error: 'unknown', error_description: 'updating' } });
    }
    await miProfile();
    const err = await failure(token({ AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url }));
    expect(err.code).toBe('network');
    expect(err.message).toMatch(/HTTP 500 \(unknown: updating\) after 4 attempts; .*retry later/);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('a proxy in the way (502) says to bypass it for 169.254.169.254', async () => {
    endpoint = await startImds();
    for (let i = 0; i < 4; i++) endpoint.script.push({ status: 502, body: {} });
    await miProfile();
    const err = await failure(token({ AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url }));
    expect(err).toMatchObject({ code: 'network' });
    expect(err.message).toMatch(/add 169\.254\.169\.254 to NO_PROXY/);
  });

  it('nothing listening is a network error that says where IMDS answers', async () => {
    await miProfile();
    const port = await freePort();
    const err = await failure(
      token({ AZURE_POD_IDENTITY_AUTHORITY_HOST: `http://127.0.0.1:${port}` }),
    );
    expect(err.code).toBe('network');
    expect(err.message).toMatch(
      /cannot reach the Instance Metadata Service http:\/\/127\.0\.0\.1:\d+\/metadata\/identity\/oauth2\/token \(ECONNREFUSED\); is this an Azure VM/,
    );
  });

  it('one resource per token: several scopes are a usage error', async () => {
    endpoint = await startImds();
    await miProfile({ scopes: [] });
    const env = { AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint.url };
    expect(await failure(token(env, { scope: 'a/.default b/.default' }))).toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/one resource, not 2 scopes/),
    });
    expect(await failure(token(env))).toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/names no resource .* --resource URI/),
    });
    expect(endpoint.requests).toHaveLength(0);
  });
});

describe('App Service, Functions, Container Apps (IDENTITY_ENDPOINT + IDENTITY_HEADER)', () => {
  it('sends X-IDENTITY-HEADER and api-version 2019-08-01; expires_on is epoch seconds', async () => {
    endpoint = await startAppServiceIdentity();
    await miProfile();
    const env = {
      IDENTITY_ENDPOINT: endpoint.url,
      IDENTITY_HEADER: endpoint.header!,
      // App Service wins over IMDS when both could answer, as in azure-identity.
      AZURE_POD_IDENTITY_AUTHORITY_HOST: 'http://127.0.0.1:1',
    };
    const result = await token(env);
    expect(result.response.expires_in).toBeGreaterThan(86_000);
    expect(endpoint.requests[0]).toMatchObject({
      path: '/msi/token',
      query: { 'api-version': '2019-08-01', resource: ARM },
      headers: { 'x-identity-header': endpoint.header },
    });
    expect(endpoint.requests[0]!.headers).not.toHaveProperty('metadata');
  });

  it("an identity the app lacks is an authentication failure with App Service's message and correlation id", async () => {
    endpoint = await startAppServiceIdentity({ userAssigned: ['uai-1'] });
    await miProfile({ managedIdentityClientId: 'uai-9' });
    const err = await failure(
      token({ IDENTITY_ENDPOINT: endpoint.url, IDENTITY_HEADER: endpoint.header! }),
    );
    expect(err.code).toBe('auth_failed');
    expect(err.message).toMatch(
      /HTTP 400 \(Unable to load the proper Managed Identity\. \(correlation ID [0-9a-f-]+\)\); check that the user-assigned identity with client id uai-9 is assigned to this app/,
    );
    expect(err.message).not.toContain(endpoint.header);
  });
});

describe('endpoint choice and error bodies', () => {
  it('IMDS by default, at AZURE_POD_IDENTITY_AUTHORITY_HOST when set; App Service needs both variables', () => {
    expect(managedIdentityEndpoint({}).url).toBe(
      'http://169.254.169.254/metadata/identity/oauth2/token',
    );
    expect(
      managedIdentityEndpoint({ AZURE_POD_IDENTITY_AUTHORITY_HOST: 'http://10.0.0.5:2579/' }).url,
    ).toBe('http://10.0.0.5:2579/metadata/identity/oauth2/token');
    expect(
      managedIdentityEndpoint({ IDENTITY_ENDPOINT: 'http://localhost:8081/msi/token' }).kind,
    ).toBe('imds');
  });

  it('reads both documented error shapes', () => {
    expect(
      managedIdentityErrorDetail(
        '{"error":"invalid_resource","error_description":"AADSTS50001: The application named x was not found"}',
      ),
    ).toBe('invalid_resource: AADSTS50001: The application named x was not found');
    expect(
      managedIdentityErrorDetail('{"statusCode":500,"message":"boom","correlationId":"c-1"}'),
    ).toBe('boom (correlation ID c-1)');
    expect(managedIdentityErrorDetail('upstream connect error')).toBe('upstream connect error');
  });
});
