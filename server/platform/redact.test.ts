import { describe, expect, it } from 'vitest';
import { redactSecret } from './redact.ts';

const KEY = 'sk-Live_AbCdEf0123456789+/=xyz';

describe('redactSecret (issue 9, item 6)', () => {
  it.each([
    ['as is', KEY],
    ['upper case', KEY.toUpperCase()],
    ['lower case', KEY.toLowerCase()],
    ['URL-encoded', encodeURIComponent(KEY)],
    ['JSON-escaped', JSON.stringify(KEY).slice(1, -1)],
    ['base64', Buffer.from(KEY).toString('base64')],
    ['base64url', Buffer.from(KEY).toString('base64url')],
    ['hex', Buffer.from(KEY).toString('hex')],
    ['masked but for its tail', `sk-Live_****************${KEY.slice(-10)}`],
  ])('removes the key %s', (_form, echoed) => {
    const text = `Incorrect API key provided: ${echoed}. You can find your key at example.`;
    const out = redactSecret(text, KEY);
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(echoed);
    expect(out).toMatch(/^Incorrect API key provided: .*You can find your key at example\.$/);
  });

  it('leaves text without the key alone', () => {
    expect(redactSecret('model not found', KEY)).toBe('model not found');
    expect(redactSecret('model not found', undefined)).toBe('model not found');
  });
});
