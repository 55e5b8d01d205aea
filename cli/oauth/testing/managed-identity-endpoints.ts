/**
 * Loopback stand-ins for Azure's two managed-identity token endpoints, answering as Microsoft
 * documents them:
 *
 * - IMDS (https://learn.microsoft.com/entra/identity/managed-identities-azure-resources/how-to-use-vm-token):
 *   `GET /metadata/identity/oauth2/token?api-version=2018-02-01&resource=…[&client_id=…]`, header
 *   `Metadata: true` (else 400 `bad_request_102` "Required metadata header not specified"); the
 *   answer carries `expires_in`/`expires_on` as strings; errors are `{error, error_description}`
 *   (an unassigned identity: 400 `invalid_request` "Identity not found").
 * - App Service / Functions / Container Apps
 *   (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference):
 *   `GET $IDENTITY_ENDPOINT?resource=…&api-version=2019-08-01[&client_id=…]`, header
 *   `X-IDENTITY-HEADER: $IDENTITY_HEADER`; the answer has `expires_on` in epoch seconds and a
 *   `client_id`; errors are `{statusCode, message, correlationId}` (MSAL's
 *   ManagedIdentityErrorResponse reads `message` and `correlationId`).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signJwt } from './test-jwt.ts';

/** A request the stand-in received. */
export interface IdentityRequest {
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

/** A scripted answer: status, JSON body, headers. */
export interface ScriptedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A running stand-in. */
export interface IdentityEndpoint {
  /** IMDS: the host for AZURE_POD_IDENTITY_AUTHORITY_HOST; App Service: IDENTITY_ENDPOINT. */
  url: string;
  /** App Service only: the IDENTITY_HEADER value it expects. */
  header?: string;
  requests: IdentityRequest[];
  /** Answers to give next, before the documented behaviour resumes. */
  script: ScriptedAnswer[];
  close(): Promise<void>;
}

/** Options of both stand-ins. */
export interface IdentityEndpointOptions {
  /** Client ids of the user-assigned identities assigned to the machine/app. */
  userAssigned?: string[];
  /** False: no system-assigned identity. */
  systemAssigned?: boolean;
  /** Token lifetime in seconds (default 86399, IMDS's usual). */
  lifetime?: number;
}

/** An IMDS stand-in on loopback. */
export function startImds(options: IdentityEndpointOptions = {}): Promise<IdentityEndpoint> {
  return start('imds', options);
}

/** An App Service identity endpoint stand-in on loopback. */
export function startAppServiceIdentity(
  options: IdentityEndpointOptions = {},
): Promise<IdentityEndpoint> {
  return start('app-service', options);
}

async function start(
  kind: 'imds' | 'app-service',
  options: IdentityEndpointOptions,
): Promise<IdentityEndpoint> {
  const requests: IdentityRequest[] = [];
  const script: ScriptedAnswer[] = [];
  const header = kind === 'app-service' ? 'c0ffee00-5bfa-4b22-a3f3-0b9a43d9ad8a' : undefined;
  const path = kind === 'imds' ? '/metadata/identity/oauth2/token' : '/msi/token';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const query = Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, query, headers: req.headers });
    const send = (answer: ScriptedAnswer) => {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    };
    const scripted = script.shift();
    if (scripted) return send(scripted);
    send(
      kind === 'imds'
        ? imdsAnswer(url, req, query, options)
        : appServiceAnswer(url, req, query, header!, options),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url: kind === 'imds' ? origin : `${origin}${path}`,
        header,
        requests,
        script,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function imdsAnswer(
  url: URL,
  req: http.IncomingMessage,
  query: Record<string, string>,
  options: IdentityEndpointOptions,
): ScriptedAnswer {
  if (url.pathname !== '/metadata/identity/oauth2/token') {
    return { status: 404, body: { error: 'not_found', error_description: 'Not found' } };
  }
  if (req.headers.metadata !== 'true') {
    return imdsError(400, 'bad_request_102', 'Required metadata header not specified');
  }
  if (query['api-version'] !== '2018-02-01') {
    return imdsError(400, 'invalid_request', 'Invalid api-version');
  }
  if (!query.resource) {
    return imdsError(400, 'invalid_request', 'Required audience parameter not specified');
  }
  if (!assigned(query.client_id, options)) {
    return imdsError(400, 'invalid_request', 'Identity not found');
  }
  const token = tokenFor(query, options);
  return {
    status: 200,
    body: {
      access_token: token.jwt,
      client_id: query.client_id ?? 'system-assigned-client',
      expires_in: String(token.lifetime),
      expires_on: String(token.exp),
      ext_expires_in: String(token.lifetime),
      not_before: String(token.iat),
      resource: query.resource,
      token_type: 'Bearer',
    },
  };
}

function appServiceAnswer(
  url: URL,
  req: http.IncomingMessage,
  query: Record<string, string>,
  header: string,
  options: IdentityEndpointOptions,
): ScriptedAnswer {
  const correlationId = '7f3e1a2b-0000-4000-8000-000000000001';
  const fail = (status: number, message: string): ScriptedAnswer => ({
    status,
    body: { statusCode: status, message, correlationId },
  });
  if (url.pathname !== '/msi/token') return fail(404, 'Not found');
  if (req.headers['x-identity-header'] !== header) {
    return fail(400, 'The request is missing or has an invalid X-IDENTITY-HEADER.');
  }
  if (query['api-version'] !== '2019-08-01') return fail(400, 'Invalid api-version.');
  if (!query.resource) return fail(400, 'The resource parameter is required.');
  if (!assigned(query.client_id, options)) {
    return fail(400, 'Unable to load the proper Managed Identity.');
  }
  const token = tokenFor(query, options);
  return {
    status: 200,
    body: {
      access_token: token.jwt,
      expires_on: String(token.exp),
      resource: query.resource,
      token_type: 'Bearer',
      client_id: query.client_id ?? 'system-assigned-client',
    },
  };
}

function imdsError(status: number, error: string, description: string): ScriptedAnswer {
  return { status, body: { error, error_description: description } };
}

function assigned(clientId: string | undefined, options: IdentityEndpointOptions): boolean {
  if (clientId === undefined) return options.systemAssigned !== false;
  return (options.userAssigned ?? []).includes(clientId);
}

function tokenFor(query: Record<string, string>, options: IdentityEndpointOptions) {
  const lifetime = options.lifetime ?? 86_399;
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + lifetime;
  const jwt = signJwt(
    {
      aud: query.resource,
      iss: 'https://sts.windows.net/00000000-0000-0000-0000-000000000001/',
      iat,
      nbf: iat,
      exp,
      oid: query.client_id ?? 'system-assigned-object',
      xms_mirid:
        '/subscriptions/0/resourcegroups/rg/providers/Microsoft.Compute/virtualMachines/vm',
    },
    signingKey(),
    'managed-identity-test',
  );
  return { jwt, lifetime, iat, exp };
}

let key: KeyObject | undefined;
/** One signing key per process (the tokens are decoded by tests, never verified). */
function signingKey(): KeyObject {
  key ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return key;
}
