import { describe, expect, it } from 'vitest';
import { checkSince, parseSince } from './since.ts';

describe('the time-window rule (DESIGN §3.1), the one copy the API and the settings form use', () => {
  it('accepts a positive whole number of m, h, d or w up to 366 days', () => {
    expect(parseSince('7d')).toBe(7 * 86_400_000);
    expect(checkSince('2w')).toEqual({ since: '2w', valid: true, ms: 14 * 86_400_000 });
    expect(checkSince('366d').valid).toBe(true);
  });

  it('rejects anything else with a message that says what is accepted', () => {
    expect(checkSince('0d').valid).toBe(false);
    const words = checkSince('7 days');
    expect(words.valid).toBe(false);
    expect(!words.valid && words.error).toMatch(/positive whole number followed by m, h, d or w/);
    const long = checkSince('400d');
    expect(!long.valid && long.error).toMatch(/the longest window is 366d/);
  });
});
