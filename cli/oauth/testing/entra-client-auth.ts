// How Entra's token endpoint tells which confidential app is asking: a client secret (in the body
// or HTTP Basic), a certificate assertion (https://learn.microsoft.com/entra/identity-platform/certificate-credentials)
// or a federated one (https://learn.microsoft.com/entra/workload-id/workload-identity-federation).
import type { KeyObject } from 'node:crypto';
import { ENTRA_APPS, ENTRA_TENANT, FEDERATION_AUDIENCE } from './entra-tenant.ts';
import { parseJwt, verifyJwt } from './test-jwt.ts';

/** What the tenant's confidential apps trust, as the tests registered it. */
export interface ClientCredentials {
  /** The certificate daemon's certificate: its SHA-256 thumbprint (`x5t#S256`) and public key. */
  certificate?: { thumbprint: string; key: KeyObject };
  /** The federated app's trusted issuer and subject, and the key their tokens are signed with. */
  federation?: { issuer: string; subject: string; key: KeyObject };
}

/** The app that authenticated, or the error Entra answers with (AADSTS code and text). */
export type ClientAuthentication =
  { id: string } | { error: string; status: number; code: number; text: string };

/** Client authentication of a confidential app: secret, certificate or federated assertion. */
export function authenticateClient(
  params: Record<string, string>,
  authorization: string | undefined,
  tokenEndpoint: string,
  credentials: ClientCredentials,
): ClientAuthentication {
  const { certificate, federation } = credentials;
  const invalid = (code: number, text: string) => ({
    error: 'invalid_client',
    status: 401,
    code,
    text,
  });
  let clientId = params.client_id;
  let secret = params.client_secret;
  if (authorization?.startsWith('Basic ')) {
    const [id, pass] = Buffer.from(authorization.slice(6), 'base64')
      .toString()
      .split(':')
      .map((p) => decodeURIComponent(p));
    clientId = id;
    secret = pass;
  }
  if (params.client_assertion) {
    const parsed = parseJwt(params.client_assertion);
    if (!parsed) return invalid(50027, 'Invalid JWT token. The token is malformed.');
    const { header, claims, input, signature } = parsed;
    if (clientId === ENTRA_APPS.certDaemon.id) {
      if (!certificate || header['x5t#S256'] !== certificate.thumbprint) {
        return invalid(
          700027,
          `The certificate with identifier used to sign the client assertion is not registered on application. [Reason - The key was not found., Thumbprint of key used by client: '${String(header['x5t#S256'] ?? header.x5t)}']`,
        );
      }
      if (!verifyJwt(header, input, signature, certificate.key)) {
        return invalid(7000274, 'Client assertion failed signature validation.');
      }
      if (claims.aud !== tokenEndpoint) {
        return invalid(
          700212,
          `The audience claim '${String(claims.aud)}' in the client assertion is not the token endpoint '${tokenEndpoint}'.`,
        );
      }
      if (claims.iss !== clientId || claims.sub !== clientId || !claims.jti) {
        return invalid(50012, 'Client assertion contains an invalid iss, sub or jti claim.');
      }
      if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) {
        return invalid(700024, 'Client assertion is not within its valid time range.');
      }
      return { id: clientId };
    }
    if (clientId === ENTRA_APPS.federated.id) {
      const match =
        federation &&
        claims.iss === federation.issuer &&
        claims.sub === federation.subject &&
        claims.aud === FEDERATION_AUDIENCE;
      if (!match || !verifyJwt(header, input, signature, federation!.key)) {
        return invalid(
          70021,
          `No matching federated identity record found for presented assertion. Assertion Issuer: '${String(claims.iss)}'. Assertion Subject: '${String(claims.sub)}'. Assertion Audience: '${String(claims.aud)}'.`,
        );
      }
      if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) {
        return invalid(700024, 'Client assertion is not within its valid time range.');
      }
      return { id: clientId };
    }
    return invalid(700016, `Application with identifier '${clientId}' was not found.`);
  }
  if (clientId !== ENTRA_APPS.daemon.id) {
    return invalid(
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${ENTRA_TENANT.domain}'.`,
    );
  }
  if (secret !== ENTRA_APPS.daemon.secret) {
    return invalid(
      7000215,
      `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
    );
  }
  return { id: clientId };
}
