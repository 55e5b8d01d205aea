// The JWT work of the test issuers (the Entra look-alike, a CI system's federated token): just
// enough of RFC 7515/7519 to sign and check the compact form, so the tests depend on no JOSE library.
import { verify, type KeyObject } from 'node:crypto';

/** Signs claims as an RS256 JWT (test issuers: the IdP itself, a CI system). */
export function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const { sign } = process.getBuiltinModule('node:crypto');
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** Splits a compact JWT into its header, claims, signed input and signature; undefined when malformed. */
export function parseJwt(token: string) {
  const [h, c, s] = token.split('.');
  if (!h || !c || !s) return undefined;
  try {
    return {
      header: JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>,
      claims: JSON.parse(Buffer.from(c, 'base64url').toString()) as Record<string, unknown>,
      input: `${h}.${c}`,
      signature: Buffer.from(s, 'base64url'),
    };
  } catch {
    return undefined;
  }
}

/** Checks a JWT's RS256 or PS256 signature with `key`; any other `alg` fails. */
export function verifyJwt(
  header: Record<string, unknown>,
  input: string,
  signature: Buffer,
  key: KeyObject,
): boolean {
  const { constants } = process.getBuiltinModule('node:crypto');
  if (header.alg === 'RS256') return verify('sha256', Buffer.from(input), key, signature);
  if (header.alg === 'PS256') {
    return verify(
      'sha256',
      Buffer.from(input),
      { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
      signature,
    );
  }
  return false;
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
