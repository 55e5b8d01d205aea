import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { CachedToken } from './token-cache.ts';
import { formatTokenResponse, parseOutputFormat, toTokenResponse } from './token-response.ts';

const now = Date.parse('2026-11-21T12:00:00Z');
const entry: CachedToken = {
  accessToken: 'at.x.y',
  tokenType: 'Bearer',
  scope: 'api:read openid',
  refreshToken: 'rt: "quoted"',
  expiresAt: now + 3599_500,
  obtainedAt: now - 500,
  flow: 'interactive',
  client: '[]',
};

describe('token response', () => {
  it('counts expires_in down from the cached expiry and prints expires_at in UTC seconds', () => {
    expect(toTokenResponse(entry, now)).toEqual({
      token_type: 'Bearer',
      scope: 'api:read openid',
      expires_in: 3599,
      access_token: 'at.x.y',
      refresh_token: 'rt: "quoted"',
      expires_at: '2026-11-21T12:59:59Z',
    });
    expect(toTokenResponse({ ...entry, expiresAt: now - 1 }, now).expires_in).toBe(0);
    expect(toTokenResponse({ ...entry, refreshToken: undefined }, now).refresh_token).toBe('');
  });

  it('prints the token alone, JSON, or YAML that parses back to the same values', () => {
    const response = toTokenResponse(entry, now);
    expect(formatTokenResponse(response, 'token')).toBe('at.x.y\n');
    expect(JSON.parse(formatTokenResponse(response, 'json'))).toEqual(response);
    expect(parse(formatTokenResponse(response, 'yaml'))).toEqual(response);
  });

  it('rejects unknown formats', () => {
    expect(parseOutputFormat(undefined)).toBe('token');
    expect(() => parseOutputFormat('xml')).toThrow(/--output must be one of token, json, yaml/);
  });
});
