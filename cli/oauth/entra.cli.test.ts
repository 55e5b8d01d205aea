// get-token against Microsoft Entra ID, through the shipped bundles: the spawned CLI reaches
// login.microsoftonline.com (and .us, .cn, login.windows.net, *.ciamlogin.com) over real TLS via
// an HTTPS proxy that tunnels only those names to the test IdP (testing/entra-idp.ts, which cites
// the Microsoft identity platform docs it follows).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, runCliInteractive } from './testing/cli-bundle.ts';
import { startConnectProxy, type ConnectProxy } from './testing/connect-proxy.ts';
import {
  ENTRA_APPS,
  ENTRA_TENANT,
  ENTRA_TEST_HOSTS,
  FEDERATION_AUDIENCE,
  signJwt,
  startEntraIdp,
  type EntraIdp,
} from './testing/entra-idp.ts';
import { jwtClaims } from './testing/fixtures.ts';
import { makeAppCertificate, makeAppPkcs12 } from './testing/test-pki.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed({ bundle: true });
let pkiDir: string;
let idp: EntraIdp;
let proxy: ConnectProxy;

beforeAll(async () => {
  pkiDir = await mkdtemp(path.join(os.tmpdir(), 'entra-pki-'));
  idp = await startEntraIdp(pkiDir);
  proxy = await startConnectProxy(ENTRA_TEST_HOSTS, idp.port);
});
afterAll(async () => {
  await Promise.all([idp.close(), proxy.close()]);
  await rm(pkiDir, { recursive: true, force: true });
});
beforeEach(() => {
  idp.requests.length = 0;
  idp.device.expiresIn = 900;
  idp.device.interval = 1;
});

/** The CLI's environment: file secrets, and Entra's hosts reached through the test proxy. */
const env = (extra: Record<string, string> = {}) =>
  bed.env({
    NODE_USE_ENV_PROXY: '1',
    HTTPS_PROXY: proxy.url,
    NO_PROXY: '127.0.0.1,localhost,::1',
    NODE_EXTRA_CA_CERTS: idp.caFile,
    ...extra,
  });
const cli = (args: string[], input?: string, extra?: Record<string, string>) =>
  runCli(bed.bundle.pipelineSummary, args, { env: env(extra), input });
const getToken = (args: string[], extra?: Record<string, string>) =>
  runCli(bed.bundle.getToken, args, { env: env(extra) });

async function addProfile(name: string, args: string[], input?: string) {
  const run = await cli(['profile', 'add', name, ...args], input);
  expect(run.code, run.stderr).toBe(0);
  return run;
}

/** The `daemon` profile: client credentials for ENTRA_APPS.daemon in ENTRA_TENANT, secret on stdin. */
function addDaemonProfile(secret: string = ENTRA_APPS.daemon.secret) {
  return addProfile(
    'daemon',
    [
      '--tenant',
      ENTRA_TENANT.id,
      '--client-id',
      ENTRA_APPS.daemon.id,
      '--scope',
      'api://pipelines/.default',
      '--client-secret-stdin',
    ],
    secret,
  );
}

/** A device-code sign-in where the "user" acts on the code the CLI shows. */
function deviceSignIn(args: string[], act: (userCode: string) => void, extra = {}) {
  let acted = false;
  return runCliInteractive(bed.bundle.getToken, args, {
    env: env(extra),
    onStderr: (stderr) => {
      const code = /enter the code: {2}(\S+)/.exec(stderr)?.[1];
      if (code && !acted) {
        acted = true;
        act(code);
      }
    },
  });
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop()!;
}

describe('client credentials (v2.0 client-creds doc)', () => {
  it('prints the requested scope when Entra omits it, and token_type as sent', async () => {
    await addProfile(
      'daemon',
      [
        '--tenant',
        ENTRA_TENANT.domain,
        '--client-id',
        ENTRA_APPS.daemon.id,
        '--scope',
        'api://pipelines/.default',
        '--client-secret-stdin',
      ],
      ENTRA_APPS.daemon.secret,
    );
    const run = await getToken(['-p', 'daemon', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const response = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(response.scope).toBe('api://pipelines/.default');
    expect(response.token_type).toBe('Bearer');
    expect(jwtClaims(response.access_token as string)).toMatchObject({ tid: ENTRA_TENANT.id });
  });

  it('a wrong secret: exit 3, AADSTS7000215 on one line with the trace and correlation ids', async () => {
    await addDaemonProfile('not-the-secret');
    const run = await getToken(['-p', 'daemon']);
    expect(run.code).toBe(3);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).toMatch(
      /invalid_client: AADSTS7000215: Invalid client secret provided\..* \(trace ID [0-9a-f-]{36}, correlation ID [0-9a-f-]{36}\)/,
    );
    expect(run.stderr).not.toMatch(/Timestamp/);
  });

  it('a tenant typo: discovery shows Entra’s AADSTS90002 body, exit 1', async () => {
    await addProfile(
      'typo',
      ['--tenant', 'contoso-typo.onmicrosoft.com', '--client-id', ENTRA_APPS.daemon.id],
      undefined,
    );
    const run = await getToken(['-p', 'typo', '-s', 'api://pipelines/.default']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /discovery at https:\/\/login\.microsoftonline\.com\/contoso-typo\.onmicrosoft\.com\/v2\.0\/\.well-known\/openid-configuration answered HTTP 400: invalid_tenant: AADSTS90002: Tenant 'contoso-typo\.onmicrosoft\.com' not found\..*\(trace ID /,
    );
    expect(run.stderr).not.toMatch(/unexpected HTTP 400/);
  });

  it('an MSAL/az authority (no /v2.0) is normalised to v2.0: the v1 endpoints are never called', async () => {
    const add = await addProfile(
      'msal',
      [
        '--issuer',
        `https://login.microsoftonline.com/${ENTRA_TENANT.id}`,
        '--client-id',
        ENTRA_APPS.daemon.id,
        '--scope',
        'api://pipelines/.default',
        '--client-secret-stdin',
      ],
      ENTRA_APPS.daemon.secret,
    );
    expect(add.stderr).toContain(
      `using the v2.0 issuer https://login.microsoftonline.com/${ENTRA_TENANT.id}/v2.0`,
    );
    const run = await getToken(['-p', 'msal']);
    expect(run.code, run.stderr).toBe(0);
    expect(idp.requests.map((r) => r.path)).toEqual([
      `/${ENTRA_TENANT.id}/v2.0/.well-known/openid-configuration`,
      `/${ENTRA_TENANT.id}/oauth2/v2.0/token`,
    ]);
    const bad = await cli([
      'profile',
      'add',
      'v1',
      '--issuer',
      `https://login.microsoftonline.com/${ENTRA_TENANT.id}/oauth2/token`,
      '--client-id',
      'x',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/is not a Microsoft Entra authority: use https:\/\/login/);
  });

  it('reuses discovery metadata per issuer: a second fresh token makes one request', async () => {
    await addDaemonProfile();
    expect((await getToken(['-p', 'daemon', '--no-cache'])).code).toBe(0);
    expect((await getToken(['-p', 'daemon', '--no-cache'])).code).toBe(0);
    const paths = idp.requests.map((r) => r.path);
    expect(paths.filter((p) => p.endsWith('openid-configuration'))).toHaveLength(1);
    expect(paths.filter((p) => p.endsWith('/oauth2/v2.0/token'))).toHaveLength(2);
  });
});

describe('certificate credentials (x5t#S256) and workload identity federation', () => {
  it('profile add --certificate (PEM, encrypted PEM, PKCS#12, legacy PKCS#12) signs assertions Entra validates by x5t#S256', async () => {
    const plain = makeAppCertificate(pkiDir, 'daemon-cert');
    idp.registerCertificate(plain.certPem);
    const base = [
      '--tenant',
      ENTRA_TENANT.domain,
      '--client-id',
      ENTRA_APPS.certDaemon.id,
      '--scope',
      'api://pipelines/.default',
    ];
    const add = await addProfile('cert', [...base, '--certificate', plain.bundleFile]);
    expect(add.stderr).toMatch(/certificate and key stored in file/);
    const secrets = await readFile(path.join(bed.home, 'secrets', 'secrets.json'), 'utf8');
    expect(secrets).toContain('client-certificate:cert');
    const show = await cli(['profile', 'show', 'cert']);
    expect(show.stdout).toMatch(/certificate: +CN=daemon-cert, x5t#S256 [\w-]{43}, valid to /);
    const run = await getToken(['-p', 'cert']);
    expect(run.code, run.stderr).toBe(0);
    const assertion = idp.requests.find((r) => r.params.client_assertion)!.params;
    expect(assertion.client_assertion_type).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    const header = JSON.parse(
      Buffer.from(assertion.client_assertion!.split('.')[0]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(header).toMatchObject({ alg: 'PS256', typ: 'JWT' });
    expect(header['x5t#S256']).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const encrypted = makeAppCertificate(pkiDir, 'daemon-cert-enc', 'correct horse');
    idp.registerCertificate(encrypted.certPem);
    const wrongPassword = await cli(
      ['profile', 'add', 'enc', ...base, '--certificate', encrypted.bundleFile],
      '',
    );
    expect(wrongPassword.code).toBe(1);
    expect(wrongPassword.stderr).toMatch(/--certificate-password-stdin/);
    await addProfile(
      'enc',
      [...base, '--certificate', encrypted.bundleFile, '--certificate-password-stdin'],
      'correct horse\n',
    );
    expect((await getToken(['-p', 'enc'])).code).toBe(0);

    const pfxCert = makeAppCertificate(pkiDir, 'daemon-pfx');
    const pfx = makeAppPkcs12(pkiDir, 'daemon-pfx', 'pfx pass');
    idp.registerCertificate(pfxCert.certPem);
    await addProfile(
      'pfx',
      [...base, '--certificate', pfx, '--certificate-password-stdin'],
      'pfx pass',
    );
    const viaPfx = await getToken(['-p', 'pfx']);
    expect(viaPfx.code, viaPfx.stderr).toBe(0);

    // A legacy .pfx (`openssl pkcs12 -export -legacy`: RC2-40 certificates, 3DES key, SHA-1 MAC,
    // as OpenSSL 1.x and older Windows exports write them) with a non-ASCII password.
    const legacyCert = makeAppCertificate(pkiDir, 'daemon-legacy');
    const legacyPfx = makeAppPkcs12(pkiDir, 'daemon-legacy', 'pfx päss', ['-legacy']);
    const legacyArgs = [...base, '--certificate', legacyPfx, '--certificate-password-stdin'];
    const wrongLegacy = await cli(['profile', 'add', 'legacy', ...legacyArgs], 'pfx pass');
    expect(wrongLegacy.code).toBe(1);
    expect(wrongLegacy.stderr).toMatch(/wrong password, or a damaged file/);
    idp.registerCertificate(legacyCert.certPem);
    await addProfile('legacy', legacyArgs, 'pfx päss');
    const viaLegacy = await getToken(['-p', 'legacy']);
    expect(viaLegacy.code, viaLegacy.stderr).toBe(0);
    // The earlier certificates are no longer registered: Entra refuses them by their thumbprint.
    const refused = await getToken(['-p', 'cert', '--force']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(
      /AADSTS700027: The certificate with identifier .* not registered/,
    );
  });

  it('--federated-token-file and AZURE_FEDERATED_TOKEN_FILE send a CI token as the assertion', async () => {
    const ci = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const issuer = 'https://token.actions.githubusercontent.com';
    idp.federate({ issuer, subject: 'repo:acme/api:ref:refs/heads/main', key: ci.publicKey });
    const now = Math.floor(Date.now() / 1000);
    const ciToken = (subject: string) =>
      signJwt(
        { iss: issuer, sub: subject, aud: FEDERATION_AUDIENCE, iat: now, exp: now + 600 },
        ci.privateKey,
        'ci-1',
      );
    const file = path.join(bed.home, 'ci-token.jwt');
    await writeFile(file, ciToken('repo:acme/api:ref:refs/heads/main') + '\n');
    await addProfile('wif', [
      '--tenant',
      ENTRA_TENANT.id,
      '--client-id',
      ENTRA_APPS.federated.id,
      '--scope',
      'api://pipelines/.default',
      '--flow',
      'client-credentials',
    ]);
    const viaFlag = await getToken(['-p', 'wif', '--federated-token-file', file, '--no-cache']);
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    const viaEnv = await getToken(['-p', 'wif', '--no-cache'], {
      AZURE_FEDERATED_TOKEN_FILE: file,
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(jwtClaims(lastLine(viaEnv.stdout))).toMatchObject({ appid: ENTRA_APPS.federated.id });
    await writeFile(file, ciToken('repo:evil/fork:ref:refs/heads/main'));
    const refused = await getToken(['-p', 'wif', '--no-cache'], {
      AZURE_FEDERATED_TOKEN_FILE: file,
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/AADSTS70021: No matching federated identity record/);
  });
});

describe('device code (v2-oauth2-device-code doc)', () => {
  async function deviceProfile(tenant: string) {
    await addProfile('tv', [
      '--tenant',
      tenant,
      '--client-id',
      ENTRA_APPS.cli.id,
      '--scope',
      'api://pipelines/Pipelines.Read',
      '--flow',
      'device-code',
    ]);
  }

  it('asks for offline_access openid profile, waits for approval, and gets a refresh token', async () => {
    await deviceProfile(ENTRA_TENANT.domain);
    const run = await deviceSignIn(['-p', 'tv', '-o', 'json'], (code) =>
      setTimeout(() => idp.approve(code), 2500),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Waiting for approval; the code expires in 15 minutes/);
    const asked = idp.requests.find((r) => r.path.endsWith('/devicecode'))!.params.scope;
    expect(asked!.split(' ').sort()).toEqual(
      ['api://pipelines/Pipelines.Read', 'offline_access', 'openid', 'profile'].sort(),
    );
    const polls = idp.requests.filter((r) => r.params.device_code);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    const response = JSON.parse(run.stdout) as Record<string, string>;
    expect(response.refresh_token).toMatch(/^rt-/);
  });

  it.each(ENTRA_TEST_HOSTS)(
    'accepts the {tenantid} issuer of organizations on %s',
    async (host) => {
      await deviceProfile(`${host}/organizations`);
      const run = await deviceSignIn(['-p', 'tv'], (code) => idp.approve(code));
      expect(run.code, run.stderr).toBe(0);
      expect(jwtClaims(lastLine(run.stdout))).toMatchObject({
        iss: `https://${host}/${ENTRA_TENANT.id}/v2.0`,
      });
      expect(idp.requests.every((r) => r.host === host)).toBe(true);
    },
  );

  it('authorization_declined: exit 3 with Entra’s description', async () => {
    await deviceProfile(ENTRA_TENANT.id);
    const run = await deviceSignIn(['-p', 'tv'], (code) => idp.decline(code));
    expect(run.code).toBe(3);
    expect(lastLine(run.stderr)).toMatch(
      /^get-token: authentication failed for profile 'tv' \(authorization_declined: AADSTS70000: The user declined .*\(trace ID .*\); sign-in was denied/,
    );
  });

  it('every expiry exits 5: the server’s expired_token, and the code’s own lifetime', async () => {
    await deviceProfile(ENTRA_TENANT.id);
    const server = await deviceSignIn(['-p', 'tv'], (code) => idp.expire(code));
    expect(server.code).toBe(5);
    expect(lastLine(server.stderr)).toMatch(
      /device code expired before it was approved.*AADSTS70020/,
    );
    idp.device.expiresIn = 2;
    const ours = await deviceSignIn(['-p', 'tv'], () => undefined);
    expect(ours.code).toBe(5);
    expect(lastLine(ours.stderr)).toMatch(/approval did not arrive in 2 s/);
    expect(ours.stderr).not.toMatch(/did not answer/);
  });

  it('an explicit --timeout bounds the wait for the user and says so', async () => {
    await deviceProfile(ENTRA_TENANT.id);
    const run = await deviceSignIn(['-p', 'tv', '--timeout', '2s'], () => undefined);
    expect(run.code).toBe(5);
    expect(lastLine(run.stderr)).toMatch(/within 2s \(--timeout\)|within --timeout 2 s/);
    expect(run.stderr).not.toMatch(/did not answer/);
  });
});

describe('browser sign-in (auth code + PKCE, reply-url doc)', () => {
  it('--redirect-uri http://localhost: any port, exact path, as Entra registrations want', async () => {
    await addProfile('me', [
      '--tenant',
      ENTRA_TENANT.domain,
      '--client-id',
      ENTRA_APPS.cli.id,
      '--scope',
      'api://pipelines/Pipelines.Read',
      '--flow',
      'interactive',
    ]);
    // The default loopback redirect is what Entra refuses with AADSTS50011.
    let refused: string | undefined;
    const failing = runCliInteractive(bed.bundle.getToken, ['-p', 'me', '--timeout', '3s'], {
      env: env({ PATH: '/nonexistent' }),
      onStderr: (stderr) => {
        const url = /visit this URL:\n {2}(\S+)/.exec(stderr)?.[1];
        if (url && refused === undefined) refused = idp.authorize(url).text;
      },
    });
    expect((await failing).code).toBe(5);
    expect(refused).toMatch(/^AADSTS50011: The redirect URI 'http:\/\/127\.0\.0\.1:\d+\/callback'/);

    let signedIn: Promise<Response> | undefined;
    const run = await runCliInteractive(
      bed.bundle.getToken,
      ['-p', 'me', '--redirect-uri', 'http://localhost', '-o', 'json'],
      {
        env: env({ PATH: '/nonexistent' }),
        onStderr: (stderr) => {
          const url = /visit this URL:\n {2}(\S+)/.exec(stderr)?.[1];
          if (url && !signedIn) {
            const answer = idp.authorize(url);
            expect(answer.status).toBe(302);
            expect(answer.location).toMatch(/^http:\/\/localhost:\d+\/\?code=/);
            signedIn = fetch(answer.location!);
          }
        },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect((await signedIn!).status).toBe(200);
    expect(run.stderr).toMatch(/Waiting for you to sign in \(up to 10 min\)/);
    const response = JSON.parse(run.stdout) as Record<string, string>;
    expect(response.refresh_token).toMatch(/^rt-/);
    expect(response.scope).toContain('api://pipelines/Pipelines.Read');
  });
});
