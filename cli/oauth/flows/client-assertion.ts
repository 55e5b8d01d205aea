/**
 * Client assertions (RFC 7523 §2.2): a JWT in place of a client secret. Two kinds: one we sign
 * with the profile's certificate key — Entra's certificate credentials want `x5t#S256`, the
 * base64url SHA-256 thumbprint of the certificate's DER, in the header
 * (https://learn.microsoft.com/entra/identity-platform/certificate-credentials) — and one another
 * issuer signed (GitHub Actions, GitLab CI, Kubernetes), read from a file each time because those
 * tokens rotate (workload identity federation,
 * https://learn.microsoft.com/entra/workload-id/workload-identity-federation).
 */
import type * as oidc from 'openid-client';
import { nodeCrypto, nodeFs } from '../../../server/platform/builtins.ts';
import { TokenError } from '../errors.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** openid-client client authentication sending `assertion()` as a jwt-bearer client assertion. */
export function assertionAuth(assertion: (audience: string) => string): oidc.ClientAuth {
  return (as, client, body) => {
    body.set('client_id', client.client_id);
    body.set('client_assertion_type', JWT_BEARER);
    body.set('client_assertion', assertion(as.token_endpoint ?? as.issuer));
  };
}

/** Certificate and key read from PEM text (both blocks in one text, any order). */
export interface CertificateKey {
  key: ReturnType<ReturnType<typeof nodeCrypto>['createPrivateKey']>;
  /** base64url SHA-256 of the certificate's DER (the `x5t#S256` header). */
  thumbprintS256: string;
  /** Subject and expiry, for messages. */
  subject: string;
  validTo: string;
}

/** Parses a PEM bundle holding one certificate and its private key; throws a usage error if not. */
export function readCertificateKey(pem: string, where: string): CertificateKey {
  const crypto = nodeCrypto();
  const certPem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
  if (!certPem) throw new TokenError('usage', `${where} holds no PEM certificate`);
  let cert: InstanceType<typeof crypto.X509Certificate>;
  let key: CertificateKey['key'];
  try {
    cert = new crypto.X509Certificate(certPem);
    key = crypto.createPrivateKey(pem);
  } catch (err) {
    throw new TokenError(
      'usage',
      `${where} must hold a PEM certificate and its unencrypted private key: ${(err as Error).message}`,
      { cause: err },
    );
  }
  if (!cert.checkPrivateKey(key)) {
    throw new TokenError('usage', `${where}: the private key does not belong to the certificate`);
  }
  return {
    key,
    thumbprintS256: crypto.createHash('sha256').update(cert.raw).digest('base64url'),
    subject: cert.subject.replace(/\n/g, ', '),
    validTo: cert.validTo,
  };
}

/**
 * A client assertion signed with the certificate's key: PS256 for RSA (Entra's current
 * recommendation), ES256 for P-256 keys; iss = sub = client id, aud = the token endpoint, valid
 * for 5 minutes from `nowMs`, a fresh jti each time.
 */
export function signCertificateAssertion(
  cert: CertificateKey,
  clientId: string,
  audience: string,
  nowMs: number,
): string {
  const crypto = nodeCrypto();
  const rsa = cert.key.asymmetricKeyType === 'rsa';
  const header = { alg: rsa ? 'PS256' : 'ES256', typ: 'JWT', 'x5t#S256': cert.thumbprintS256 };
  const now = Math.floor(nowMs / 1000);
  const claims = {
    aud: audience,
    iss: clientId,
    sub: clientId,
    jti: crypto.randomUUID(),
    nbf: now,
    iat: now,
    exp: now + 300,
  };
  const input = `${b64(header)}.${b64(claims)}`;
  const signature = crypto.sign(
    'sha256',
    Buffer.from(input),
    rsa
      ? {
          key: cert.key,
          padding: crypto.constants.RSA_PKCS1_PSS_PADDING,
          saltLength: 32,
        }
      : { key: cert.key, dsaEncoding: 'ieee-p1363' },
  );
  return `${input}.${signature.toString('base64url')}`;
}

/** The federated token in `file`, trimmed; a clear error when it is missing or not a JWT. */
export function readFederatedToken(file: string): string {
  let text: string;
  try {
    text = nodeFs().readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new TokenError(
      'auth_failed',
      `cannot read the federated token file ${file}: ${(err as Error).message.split('\n')[0]}`,
      { cause: err },
    );
  }
  if (text.split('.').length !== 3) {
    throw new TokenError('auth_failed', `the federated token file ${file} does not hold a JWT`);
  }
  return text;
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
