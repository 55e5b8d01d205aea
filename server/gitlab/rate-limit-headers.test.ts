import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRetryAfter, serverNow } from './rate-limit-headers.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('reads an HTTP date relative to the given now, never negative', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:09 GMT', NOW)).toBe(9_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:59:00 GMT', NOW)).toBe(0);
  });

  it('ignores absent or garbage values', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
  });
});

describe('parseRateLimit', () => {
  it("reads GitLab's Unix-timestamp reset", () => {
    const headers = {
      'ratelimit-remaining': '12',
      'ratelimit-reset': String(NOW / 1000 + 30),
      'ratelimit-limit': '2000',
    };
    expect(parseRateLimit(headers, NOW)).toEqual({ remaining: 12, resetInMs: 30_000, limit: 2000 });
  });

  it('reads delta-seconds and RateLimit-ResetTime', () => {
    expect(
      parseRateLimit({ 'ratelimit-remaining': '3', 'ratelimit-reset': '20' }, NOW)?.resetInMs,
    ).toBe(20_000);
    expect(
      parseRateLimit(
        { 'ratelimit-remaining': '3', 'ratelimit-resettime': 'Sat, 21 Nov 2026 12:00:45 GMT' },
        NOW,
      )?.resetInMs,
    ).toBe(45_000);
  });

  it('needs both a remaining count and a reset', () => {
    expect(parseRateLimit({ 'ratelimit-remaining': '3' }, NOW)).toBeUndefined();
    expect(parseRateLimit({ 'ratelimit-reset': '20' }, NOW)).toBeUndefined();
  });
});

describe('serverNow', () => {
  it("prefers the server's Date header so clock skew does not change waits", () => {
    expect(serverNow({ date: 'Sat, 21 Nov 2026 13:00:00 GMT' }, NOW)).toBe(NOW + 3_600_000);
    expect(serverNow({}, NOW)).toBe(NOW);
    expect(serverNow({ date: 'nonsense' }, NOW)).toBe(NOW);
  });
});
