/**
 * A Microsoft Entra ID look-alike for get-token's tests: the v2.0 protocol as Microsoft documents
 * it, served over real HTTPS under Entra's own host names (through `connect-proxy.ts`), so the
 * spawned CLI runs exactly the code users run against login.microsoftonline.com.
 *
 * What it copies, and from where:
 * - tenant in the path; discovery at /{tenant}/v2.0/.well-known/openid-configuration whose issuer
 *   is https://{host}/{tid}/v2.0, or the `{tenantid}` template for `common` and `organizations`
 *   (https://learn.microsoft.com/entra/identity-platform/v2-protocols-oidc#find-your-apps-openid-configuration-document-uri);
 *   v1 discovery at /{tenant}/.well-known/openid-configuration with issuer https://sts.windows.net/{tid}/;
 * - errors as JSON {error, error_description "AADSTSnnnn: …\r\nTrace ID: …\r\nCorrelation ID: …\r\nTimestamp: …",
 *   error_codes, timestamp, trace_id, correlation_id, error_uri}
 *   (https://learn.microsoft.com/entra/identity-platform/reference-error-codes);
 * - /oauth2/v2.0/devicecode answering user_code, device_code, verification_uri, expires_in 900,
 *   interval 5, message; polling errors authorization_pending, authorization_declined,
 *   expired_token (and slow_down, RFC 8628 §3.5)
 *   (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-device-code);
 * - client credentials needing a `/.default` scope and answering without `scope`
 *   (https://learn.microsoft.com/entra/identity-platform/v2-oauth2-client-creds-grant-flow);
 * - certificate assertions checked by their `x5t#S256` header, signature, aud = the token endpoint
 *   (https://learn.microsoft.com/entra/identity-platform/certificate-credentials);
 * - federated assertions checked against a federated identity credential: issuer, subject,
 *   audience api://AzureADTokenExchange
 *   (https://learn.microsoft.com/entra/workload-id/workload-identity-federation);
 * - authorization code + PKCE where a `http://localhost` redirect URI matches any port but the
 *   exact path, else AADSTS50011
 *   (https://learn.microsoft.com/entra/identity-platform/reply-url#localhost-exceptions);
 * - refresh tokens only when offline_access was asked, ID tokens only for openid
 *   (https://learn.microsoft.com/entra/identity-platform/scopes-oidc).
 */
import { createHash, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { authenticateClient, type ClientCredentials } from './entra-client-auth.ts';
import { ENTRA_APPS, ENTRA_TENANT, ENTRA_TEST_HOSTS } from './entra-tenant.ts';
import { signJwt } from './test-jwt.ts';
import { makeTestPki } from './test-pki.ts';

// The tests import the tenant and the JWT signer from here, beside the IdP they go with.
export { ENTRA_APPS, ENTRA_TENANT, ENTRA_TEST_HOSTS, FEDERATION_AUDIENCE } from './entra-tenant.ts';
export { signJwt } from './test-jwt.ts';

/** A request the IdP saw. */
export interface EntraRequest {
  host: string;
  method: string;
  path: string;
  params: Record<string, string>;
}

interface DeviceCode {
  userCode: string;
  clientId: string;
  scope: string;
  status: 'pending' | 'approved' | 'declined' | 'expired';
  expiresAt: number;
  interval: number;
  lastPoll: number;
  host: string;
}

interface AuthCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  nonce?: string;
  host: string;
}

/** A running test IdP. */
export interface EntraIdp {
  /** Port of the HTTPS listener on 127.0.0.1 (the proxy tunnels every Entra host here). */
  port: number;
  /** The CA the server certificate chains to (for NODE_EXTRA_CA_CERTS). */
  caFile: string;
  requests: EntraRequest[];
  /** Device-code settings for new codes (Entra: 900 s, 5 s). */
  device: { expiresIn: number; interval: number };
  /** Resolves with the user code of the next device authorization request. */
  nextUserCode(): Promise<string>;
  /** The user approves or declines a device code on the sign-in page. */
  approve(userCode: string): void;
  decline(userCode: string): void;
  /** The server forgets a device code early (its `expired_token`). */
  expire(userCode: string): void;
  /**
   * The user opens an authorization URL and signs in: the redirect location on success, or the
   * error page Entra shows (status and text).
   */
  authorize(url: string): { location?: string; status: number; text: string };
  /** Registers the certificate (PEM) the certificate daemon signs with. */
  registerCertificate(certPem: string): void;
  /** Trusts tokens from `issuer` for `subject`, verified with `key`, for the federated app. */
  federate(credential: { issuer: string; subject: string; key: KeyObject }): void;
  close(): Promise<void>;
}

/** Starts the IdP with a fresh CA in `dir` (openssl). */
export async function startEntraIdp(dir: string): Promise<EntraIdp> {
  const pki = makeTestPki(dir, ENTRA_TEST_HOSTS);
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key-1';
  const requests: EntraRequest[] = [];
  const devices = new Map<string, DeviceCode>();
  const byUserCode = new Map<string, string>();
  const codes = new Map<string, AuthCode>();
  const refreshTokens = new Map<string, { clientId: string; scope: string; host: string }>();
  const device = { expiresIn: 900, interval: 5 };
  const waiters: ((code: string) => void)[] = [];
  const credentials: ClientCredentials = {};

  const issuerFor = (host: string, tid: string) => `https://${host}/${tid}/v2.0`;
  const jwt = (claims: Record<string, unknown>) => signJwt(claims, signing.privateKey, kid);

  /** `tid` for a path tenant: the GUID, its domain, or 'shared' for common/organizations. */
  const resolveTenant = (segment: string): string | 'shared' | undefined => {
    const t = segment.toLowerCase();
    if (t === ENTRA_TENANT.id || t === ENTRA_TENANT.domain) return ENTRA_TENANT.id;
    if (t === 'common' || t === 'organizations') return 'shared';
    return undefined;
  };

  const server = https.createServer({ cert: pki.serverCert, key: pki.serverKey });
  server.on('request', (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      const url = new URL(req.url ?? '/', `https://${host}`);
      const params: Record<string, string> = Object.fromEntries(
        req.method === 'POST' ? new URLSearchParams(body) : url.searchParams,
      );
      requests.push({ host, method: req.method ?? 'GET', path: url.pathname, params });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(value));
      };
      const fail = (status: number, error: string, code: number, text: string) =>
        json(status, aadError(host, error, code, text));
      const [, tenantSegment = '', ...rest] = url.pathname.split('/');
      const route = '/' + rest.join('/');
      const tid = resolveTenant(tenantSegment);
      if (tid === undefined) {
        // Entra's answer to a tenant typo, at discovery and token endpoints alike.
        return fail(
          400,
          'invalid_tenant',
          90002,
          `Tenant '${tenantSegment}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`,
        );
      }
      const base = `https://${host}/${tenantSegment}`;
      if (route === '/v2.0/.well-known/openid-configuration') {
        return json(200, {
          issuer: issuerFor(host, tid === 'shared' ? '{tenantid}' : tid),
          authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
          token_endpoint: `${base}/oauth2/v2.0/token`,
          device_authorization_endpoint: `${base}/oauth2/v2.0/devicecode`,
          jwks_uri: `https://${host}/${tenantSegment}/discovery/v2.0/keys`,
          response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
          subject_types_supported: ['pairwise'],
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: [
            'client_secret_post',
            'private_key_jwt',
            'client_secret_basic',
          ],
          scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
          tenant_region_scope: 'EU',
        });
      }
      if (route === '/.well-known/openid-configuration') {
        // The v1 endpoint: what an authority without /v2.0 discovers. Tokens differ (sts.windows.net).
        return json(200, {
          issuer: `https://sts.windows.net/${tid === 'shared' ? '{tenantid}' : tid}/`,
          authorization_endpoint: `${base}/oauth2/authorize`,
          token_endpoint: `${base}/oauth2/token`,
        });
      }
      if (route === '/discovery/v2.0/keys') {
        return json(200, {
          keys: [{ ...signing.publicKey.export({ format: 'jwk' }), kid, use: 'sig' }],
        });
      }
      if (route === '/oauth2/v2.0/devicecode' && req.method === 'POST') {
        if (params.client_id !== ENTRA_APPS.cli.id) {
          return fail(
            400,
            'unauthorized_client',
            700016,
            `Application with identifier '${params.client_id}' was not found in the directory '${ENTRA_TENANT.domain}'.`,
          );
        }
        const deviceCode = randomUUID();
        const userCode = randomUserCode();
        devices.set(deviceCode, {
          userCode,
          clientId: params.client_id,
          scope: params.scope ?? '',
          status: 'pending',
          expiresAt: Date.now() + device.expiresIn * 1000,
          interval: device.interval,
          lastPoll: 0,
          host,
        });
        byUserCode.set(userCode, deviceCode);
        waiters.shift()?.(userCode);
        return json(200, {
          user_code: userCode,
          device_code: deviceCode,
          verification_uri: 'https://microsoft.com/devicelogin',
          expires_in: device.expiresIn,
          interval: device.interval,
          message: `To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code ${userCode} to authenticate.`,
        });
      }
      if (route === '/oauth2/v2.0/token' && req.method === 'POST') {
        return token(params, req.headers.authorization, host, tenantSegment, tid, json, fail);
      }
      if (route === '/oauth2/token') {
        return fail(400, 'invalid_request', 900144, 'v1 endpoint: not used by these tests.');
      }
      return fail(404, 'invalid_request', 900561, `The endpoint ${url.pathname} does not exist.`);
    });
  });

  function token(
    params: Record<string, string>,
    authorization: string | undefined,
    host: string,
    tenantSegment: string,
    tid: string,
    json: (status: number, value: unknown) => void,
    fail: (status: number, error: string, code: number, text: string) => void,
  ): void {
    const tokenEndpoint = `https://${host}/${tenantSegment}/oauth2/v2.0/token`;
    const grant = params.grant_type;
    const issue = (clientId: string, scope: string, user: boolean) => {
      const realTid = tid === 'shared' ? ENTRA_TENANT.id : tid;
      const now = Math.floor(Date.now() / 1000);
      const scopes = scope.split(' ').filter(Boolean);
      const out: Record<string, unknown> = {
        token_type: 'Bearer',
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: jwt({
          aud: scopes.find((s) => s.includes('/'))?.replace(/\/[^/]*$/, '') ?? '00000003-0000',
          iss: issuerFor(host, realTid),
          tid: realTid,
          appid: clientId,
          iat: now,
          nbf: now,
          exp: now + 3599,
          ...(user ? { scp: scopes.join(' '), sub: 'alice' } : { roles: ['Pipelines.Read'] }),
        }),
      };
      if (!user) return out; // client credentials: no scope in the answer
      out.scope = scopes.filter((s) => s !== 'offline_access').join(' ');
      if (scopes.includes('offline_access')) {
        const rt = `rt-${randomUUID()}`;
        refreshTokens.set(rt, { clientId, scope, host });
        out.refresh_token = rt;
      }
      return out;
    };
    const idToken = (clientId: string, nonce: string | undefined) =>
      jwt({
        iss: issuerFor(host, ENTRA_TENANT.id),
        aud: clientId,
        tid: ENTRA_TENANT.id,
        sub: 'alice-pairwise',
        name: 'Alice',
        ...(nonce ? { nonce } : {}),
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 3600,
        ver: '2.0',
      });

    if (grant === 'client_credentials') {
      const client = authenticateClient(params, authorization, tokenEndpoint, credentials);
      if ('error' in client) return fail(client.status, client.error, client.code, client.text);
      const scope = params.scope ?? '';
      if (!/^\S+\/\.default$/.test(scope)) {
        return fail(
          400,
          'invalid_scope',
          1002012,
          `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
        );
      }
      return json(200, issue(client.id, scope, false));
    }
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      const entry = devices.get(params.device_code ?? '');
      if (!entry || entry.clientId !== params.client_id) {
        return fail(400, 'invalid_grant', 70000, 'The provided device code is invalid.');
      }
      const now = Date.now();
      if (entry.status === 'expired' || now >= entry.expiresAt) {
        return fail(
          400,
          'expired_token',
          70020,
          'The provided value for the input parameter device_code is not valid. This device code has expired.',
        );
      }
      if (entry.status === 'declined') {
        return fail(
          400,
          'authorization_declined',
          70000,
          'The user declined the sign-in request on the device login page.',
        );
      }
      if (entry.status === 'pending') {
        const early = now - entry.lastPoll < entry.interval * 1000 - 250;
        entry.lastPoll = now;
        return early
          ? fail(400, 'slow_down', 70016, 'Polling too fast; wait longer between requests.')
          : fail(
              400,
              'authorization_pending',
              70016,
              'The provided request has not yet been authorized by the user. The user must input their code.',
            );
      }
      devices.delete(params.device_code!);
      const out = issue(entry.clientId, entry.scope, true);
      if (entry.scope.split(' ').includes('openid'))
        out.id_token = idToken(entry.clientId, undefined);
      return json(200, out);
    }
    if (grant === 'authorization_code') {
      const entry = codes.get(params.code ?? '');
      codes.delete(params.code ?? '');
      if (!entry || entry.clientId !== params.client_id) {
        return fail(400, 'invalid_grant', 70008, 'The provided authorization code has expired.');
      }
      if (params.redirect_uri !== entry.redirectUri) {
        return fail(
          400,
          'invalid_grant',
          50148,
          'The redirect_uri does not match the one used in the authorization request.',
        );
      }
      const challenge = createHash('sha256')
        .update(params.code_verifier ?? '')
        .digest('base64url');
      if (challenge !== entry.challenge) {
        return fail(
          400,
          'invalid_grant',
          501481,
          'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
        );
      }
      const out = issue(entry.clientId, entry.scope, true);
      if (entry.scope.split(' ').includes('openid'))
        out.id_token = idToken(entry.clientId, entry.nonce);
      return json(200, out);
    }
    if (grant === 'refresh_token') {
      const entry = refreshTokens.get(params.refresh_token ?? '');
      if (!entry) {
        return fail(
          400,
          'invalid_grant',
          700082,
          'The refresh token has expired due to inactivity.',
        );
      }
      refreshTokens.delete(params.refresh_token!);
      return json(200, issue(entry.clientId, entry.scope, true));
    }
    return fail(
      400,
      'unsupported_grant_type',
      70003,
      `The app requested an unsupported grant type '${grant}'.`,
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    caFile: pki.caFile,
    requests,
    device,
    nextUserCode: () => new Promise((resolve) => waiters.push(resolve)),
    approve: (userCode) => setStatus(userCode, 'approved'),
    decline: (userCode) => setStatus(userCode, 'declined'),
    expire: (userCode) => setStatus(userCode, 'expired'),
    authorize(raw) {
      const url = new URL(raw);
      const p = Object.fromEntries(url.searchParams);
      const page = (status: number, code: number, text: string) => ({
        status,
        text: `AADSTS${code}: ${text}`,
      });
      if (p.client_id !== ENTRA_APPS.cli.id) {
        return page(400, 700016, `Application with identifier '${p.client_id}' was not found.`);
      }
      if (!redirectMatches(ENTRA_APPS.cli.redirect, p.redirect_uri ?? '')) {
        return page(
          400,
          50011,
          `The redirect URI '${p.redirect_uri}' specified in the request does not match the redirect URIs configured for the application '${p.client_id}'. Make sure the redirect URI sent in the request matches one added to your application in the Azure portal.`,
        );
      }
      if (p.code_challenge_method !== 'S256' || !p.code_challenge) {
        return page(400, 50148, 'PKCE with S256 is required for public clients.');
      }
      const code = `code-${randomUUID()}`;
      codes.set(code, {
        clientId: p.client_id,
        redirectUri: p.redirect_uri!,
        challenge: p.code_challenge,
        scope: p.scope ?? '',
        nonce: p.nonce,
        host: url.hostname,
      });
      const location = new URL(p.redirect_uri!);
      location.searchParams.set('code', code);
      if (p.state) location.searchParams.set('state', p.state);
      return { status: 302, location: location.href, text: '' };
    },
    registerCertificate(certPem) {
      const { X509Certificate } = process.getBuiltinModule('node:crypto');
      const cert = new X509Certificate(certPem);
      credentials.certificate = {
        thumbprint: createHash('sha256').update(cert.raw).digest('base64url'),
        key: cert.publicKey,
      };
    },
    federate(credential) {
      credentials.federation = credential;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function setStatus(userCode: string, status: DeviceCode['status']) {
    const entry = devices.get(byUserCode.get(userCode) ?? '');
    if (!entry) throw new Error(`no device code for user code ${userCode}`);
    entry.status = status;
  }
}

/** Entra's localhost rule: scheme, host and path must match; the port does not count. */
function redirectMatches(registered: string, sent: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(registered);
    b = new URL(sent);
  } catch {
    return false;
  }
  if (a.hostname === 'localhost') {
    return b.protocol === a.protocol && b.hostname === 'localhost' && b.pathname === a.pathname;
  }
  return a.href === b.href;
}

/** An Entra error body; the description carries the ids on extra lines, as Entra sends it. */
export function aadError(host: string, error: string, code: number, text: string) {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return {
    error,
    error_description: `AADSTS${code}: ${text}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `https://${host}/error?code=${code}`,
  };
}

function randomUserCode(): string {
  const letters = 'BCDFGHJKLMNPQRSTVWXZ';
  return Array.from({ length: 9 }, () => letters[Math.floor(Math.random() * letters.length)]).join(
    '',
  );
}
