import { describe, expect, it } from 'vitest';
import { decodeJwt, formatSeconds, relativeTime } from './jwt.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('decodeJwt', () => {
  it('decodes header and claims without verifying', () => {
    const token = `${b64({ alg: 'RS256', kid: 'k1' })}.${b64({ sub: 'alice', exp: 1 })}.not-a-signature`;
    expect(decodeJwt(token)).toEqual({
      header: { alg: 'RS256', kid: 'k1' },
      claims: { sub: 'alice', exp: 1 },
    });
  });

  it('says what an opaque token, a JWE or garbage is', () => {
    expect(() => decodeJwt('opaque-token')).toThrow(/opaque token/);
    expect(() => decodeJwt('a.b.c.d.e')).toThrow(/encrypted JWT/);
    expect(() => decodeJwt('x.y.z')).toThrow(/header is not base64url JSON/);
  });
});

describe('times', () => {
  it('formats durations and relative times', () => {
    expect(formatSeconds(0)).toBe('0s');
    expect(formatSeconds(3725)).toBe('1h 2m 5s');
    expect(formatSeconds(90_000)).toBe('1d 1h');
    expect(relativeTime(10_000, 0)).toBe('in 10s');
    expect(relativeTime(0, 125_000)).toBe('2m 5s ago');
  });
});
