import { formatSeconds as formatSecondsIn } from '../../renderer/lib/format.ts';
import { TokenError } from './errors.ts';

/** Token lifetimes are shown to the second: all four units. */
const UNITS_ALL = 4;

/** A JWT's decoded parts. Nothing here verifies a signature. */
export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

/** Decodes a compact JWS (header.payload.signature) without verifying it. */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.trim().split('.');
  if (parts.length !== 3) {
    throw new TokenError(
      'usage',
      parts.length === 5
        ? 'this is an encrypted JWT (JWE); only its audience can read it'
        : 'this is not a JWT (an opaque token: only the issuer can read it)',
    );
  }
  const part = (text: string, what: string): Record<string, unknown> => {
    try {
      const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        return value as Record<string, unknown>;
      }
    } catch {
      // reported below
    }
    throw new TokenError('usage', `this is not a JWT: its ${what} is not base64url JSON`);
  };
  return { header: part(parts[0]!, 'header'), claims: part(parts[1]!, 'payload') };
}

/** "in 47m 12s" / "3m 5s ago", for times relative to now. */
export function relativeTime(atMs: number, nowMs: number): string {
  const delta = Math.round((atMs - nowMs) / 1000);
  const text = formatSeconds(Math.abs(delta));
  return delta >= 0 ? `in ${text}` : `${text} ago`;
}

/** 3725 → "1h 2m 5s": every unit, by the dashboard's one seconds formatter. */
export function formatSeconds(total: number): string {
  return formatSecondsIn(total, UNITS_ALL);
}
