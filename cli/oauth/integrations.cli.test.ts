// get-token where tokens are used, through the shipped bundle: as kubectl's exec credential
// plugin (its output checked against the Kubernetes ExecCredential type,
// testing/exec-credential-schema.ts) and with Azure managed identities (loopback stand-ins of IMDS
// and the App Service endpoint that follow Microsoft's documented requests and error bodies,
// testing/managed-identity-endpoints.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { getToken } from './engine.ts';
import { runCli } from './testing/cli-bundle.ts';
import { execCredentialSchema } from './testing/exec-credential-schema.ts';
import { addProfile, fileStore, freePort, jwtClaims, startBlackhole } from './testing/fixtures.ts';
import {
  startAppServiceIdentity,
  startImds,
  type IdentityEndpoint,
} from './testing/managed-identity-endpoints.ts';
import { ScriptedBrowser } from './testing/scripted-browser.ts';
import { TEST_CLIENTS } from './testing/test-provider.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';
import { cacheKey, TokenCache } from './token-cache.ts';
import { getProfile } from './profiles.ts';

const bed = useTokenTestBed({ provider: true, bundle: true });
let endpoint: IdentityEndpoint | undefined;

afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
/** The Azure Kubernetes Service AAD Server app, the audience of AKS tokens (kubelogin's --server-id). */
const AKS_SERVER = '6dae42f8-4368-4678-94ff-3960e28e3630';

const getTokenCli = (args: string[], env: Record<string, string> = {}) =>
  runCli(bed.bundle.getToken, args, {
    env: bed.env(env),
  });

/** KUBERNETES_EXEC_INFO as client-go sets it (without cluster info: provideClusterInfo false). */
const execInfo = (apiVersion: string, interactive: boolean) =>
  JSON.stringify({ apiVersion, kind: 'ExecCredential', spec: { interactive } });

describe('kubectl exec credential plugin (-o exec-credential)', () => {
  it('answers in the version kubectl asks for, fresh and from the cache, nothing on stderr', async () => {
    await bed.serviceProfile('k8s');
    const before = bed.provider.count('client_credentials');
    const fresh = await getTokenCli(['-p', 'k8s', '-o', 'exec-credential']);
    expect(fresh).toMatchObject({ code: 0, stderr: '' });
    const v1 = execCredentialSchema(V1).parse(JSON.parse(fresh.stdout));
    expect(jwtClaims(v1.status.token!)).toMatchObject({ client_id: 'service' });
    const expiry = Date.parse(v1.status.expirationTimestamp!);
    expect(expiry).toBeGreaterThan(Date.now() + 3500_000);

    // The cached path (what kubectl gets on most runs) answers v1beta1 when asked for it.
    const cached = await getTokenCli(['-p', 'k8s', '-o', 'exec-credential'], {
      KUBERNETES_EXEC_INFO: execInfo(V1BETA1, false),
    });
    expect(cached).toMatchObject({ code: 0, stderr: '' });
    const beta = execCredentialSchema(V1BETA1).parse(JSON.parse(cached.stdout));
    expect(beta.status).toEqual(v1.status);
    expect(beta.spec).toEqual({ interactive: false });
    expect(bed.provider.count('client_credentials')).toBe(before + 1);
  });

  it('interactive: false refuses a sign-in (exit 3, one line) but still refreshes a cached token', async () => {
    await addProfile(bed.home, {
      name: 'user',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.cli.id,
      scopes: ['openid', 'offline_access', 'api:read'],
      flow: 'interactive',
    });
    const noTerminal = { KUBERNETES_EXEC_INFO: execInfo(V1, false) };
    const refused = await getTokenCli(['-p', 'user', '-o', 'exec-credential'], noTerminal);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /^get-token: profile 'user' needs a sign-in \(interactive\), but nobody can answer one here .*run 'get-token -p user' in a terminal first/,
    );

    // Signed in once (in a terminal), then expired: the refresh token needs nobody.
    const store = fileStore(bed.home);
    const browser = new ScriptedBrowser();
    await getToken(
      { profile: 'user', home: bed.home },
      { secretStore: store, openBrowser: async (url) => void browser.signIn(url) },
    );
    const key = cacheKey(await getProfile(bed.home, 'user'), [
      'api:read',
      'offline_access',
      'openid',
    ]);
    await new TokenCache(bed.home, store).transaction(
      async (tx) => tx.set(key, { ...tx.get(key)!, expiresAt: Date.now() - 1000 }),
      { deadline: Date.now() + 5000 },
    );
    const before = bed.provider.count('refresh_token');
    const refreshed = await getTokenCli(['-p', 'user', '-o', 'exec-credential'], noTerminal);
    expect(refreshed).toMatchObject({ code: 0, stderr: '' });
    const credential = execCredentialSchema(V1).parse(JSON.parse(refreshed.stdout));
    expect(jwtClaims(credential.status.token!)).toMatchObject({ sub: 'alice' });
    expect(bed.provider.count('refresh_token')).toBe(before + 1);
  });

  it('a KUBERNETES_EXEC_INFO it cannot answer is a usage error (exit 1) naming the versions', async () => {
    await addProfile(
      bed.home,
      { name: 'default', issuer: bed.provider.issuer, clientId: 'x' },
      's',
    );
    const run = await getTokenCli(['-o', 'exec-credential'], {
      KUBERNETES_EXEC_INFO: execInfo('client.authentication.k8s.io/v1alpha1', true),
    });
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^get-token: KUBERNETES_EXEC_INFO asks for .*v1alpha1; .*\/v1 or/);
  });
});

describe('Azure managed identity (--flow managed-identity)', () => {
  const imdsEnv = () => ({ AZURE_POD_IDENTITY_AUTHORITY_HOST: endpoint!.url });

  it('an AKS node: IMDS token for the AKS server app as an ExecCredential, then from the cache', async () => {
    endpoint = await startImds({ userAssigned: ['kubelet-identity'], systemAssigned: false });
    const add = await runCli(
      bed.bundle.pipelineSummary,
      [
        'profile',
        'add',
        'aks',
        '--flow',
        'managed-identity',
        '--resource',
        AKS_SERVER,
        '--managed-identity-client-id',
        'kubelet-identity',
      ],
      { env: bed.env() },
    );
    expect(add).toMatchObject({ code: 0, stdout: '' });
    const args = ['-p', 'aks', '-o', 'exec-credential'];
    const kubectl = { ...imdsEnv(), KUBERNETES_EXEC_INFO: execInfo(V1BETA1, false) };
    const first = await getTokenCli(args, kubectl);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const credential = execCredentialSchema(V1BETA1).parse(JSON.parse(first.stdout));
    expect(jwtClaims(credential.status.token!)).toMatchObject({
      aud: AKS_SERVER,
      oid: 'kubelet-identity',
    });
    expect(endpoint.requests[0]).toMatchObject({
      query: { 'api-version': '2018-02-01', resource: AKS_SERVER, client_id: 'kubelet-identity' },
      headers: { metadata: 'true' },
    });
    const second = await getTokenCli(args, kubectl);
    expect(second.stdout).toBe(first.stdout);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('--flow managed-identity on the command line, -s URI/.default as the resource', async () => {
    endpoint = await startImds();
    await addProfile(bed.home, { name: 'default', issuer: bed.provider.issuer, clientId: 'app' });
    const run = await getTokenCli(
      ['--flow', 'managed-identity', '-s', 'https://vault.azure.net/.default', '-o', 'json'],
      imdsEnv(),
    );
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const response = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(jwtClaims(response.access_token as string)).toMatchObject({
      aud: 'https://vault.azure.net',
    });
    expect(response).toMatchObject({ token_type: 'Bearer', refresh_token: '' });
  });

  it('exit codes: 3 without the identity, 4 when IMDS stays busy or is absent, 5 when it hangs', async () => {
    endpoint = await startImds({ systemAssigned: false });
    await addProfile(bed.home, {
      name: 'mi',
      flow: 'managed-identity',
      resource: 'https://management.azure.com',
    } as Parameters<typeof addProfile>[1]);
    const denied = await getTokenCli(['-p', 'mi'], imdsEnv());
    expect(denied).toMatchObject({ code: 3, stdout: '' });
    expect(denied.stderr).toMatch(/Identity not found/);

    for (let i = 0; i < 4; i++) {
      endpoint.script.push({ status: 429, body: {}, headers: { 'retry-after': '0' } });
    }
    const busy = await getTokenCli(['-p', 'mi'], imdsEnv());
    expect(busy.code).toBe(4);
    expect(busy.stderr).toMatch(/HTTP 429 after 4 attempts/);

    const port = await freePort();
    const absent = await getTokenCli(['-p', 'mi'], {
      AZURE_POD_IDENTITY_AUTHORITY_HOST: `http://127.0.0.1:${port}`,
    });
    expect(absent.code).toBe(4);

    const hole = await startBlackhole();
    try {
      const hangs = await getTokenCli(['-p', 'mi', '--timeout', '2s'], {
        AZURE_POD_IDENTITY_AUTHORITY_HOST: hole.url,
      });
      expect(hangs.code).toBe(5);
    } finally {
      await hole.close();
    }
  });

  it('a throttled IMDS answers after its Retry-After', async () => {
    endpoint = await startImds();
    endpoint.script.push({ status: 429, body: {}, headers: { 'retry-after': '0' } });
    await addProfile(bed.home, {
      name: 'mi',
      flow: 'managed-identity',
      scopes: ['https://management.azure.com/.default'],
    } as Parameters<typeof addProfile>[1]);
    const run = await getTokenCli(['-p', 'mi'], imdsEnv());
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(endpoint.requests).toHaveLength(2);
  });

  it('App Service: IDENTITY_ENDPOINT + IDENTITY_HEADER; a wrong header is refused (exit 3)', async () => {
    endpoint = await startAppServiceIdentity();
    await addProfile(bed.home, {
      name: 'app',
      flow: 'managed-identity',
      resource: 'https://vault.azure.net',
    } as Parameters<typeof addProfile>[1]);
    const ok = await getTokenCli(['-p', 'app'], {
      IDENTITY_ENDPOINT: endpoint.url,
      IDENTITY_HEADER: endpoint.header!,
    });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(jwtClaims(ok.stdout.trim())).toMatchObject({ aud: 'https://vault.azure.net' });
    expect(endpoint.requests[0]).toMatchObject({
      query: { 'api-version': '2019-08-01' },
      headers: { 'x-identity-header': endpoint.header },
    });

    const wrong = await getTokenCli(['-p', 'app', '--force'], {
      IDENTITY_ENDPOINT: endpoint.url,
      IDENTITY_HEADER: 'not-the-header',
    });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/X-IDENTITY-HEADER.*correlation ID/);
    expect(wrong.stderr).not.toContain('not-the-header');
  });
});
