import { describe, expect, it } from 'vitest';
import { parseInterval, resolveCadence } from './cadence.ts';

describe('poll cadence settings', () => {
  it('defaults to 10 s while anything runs and 60 s when idle', () => {
    expect(resolveCadence({})).toEqual({ fastIntervalMs: 10_000, slowIntervalMs: 60_000 });
  });

  it('parses s, m, ms and bare seconds', () => {
    expect(parseInterval('10s', 'x')).toBe(10_000);
    expect(parseInterval('2m', 'x')).toBe(120_000);
    expect(parseInterval('30', 'x')).toBe(30_000);
    expect(parseInterval('7500ms', 'x')).toBe(7_500);
  });

  it('refuses nonsense and cadences that would burn the rate budget', () => {
    expect(() => resolveCadence({ poll: 'fast' })).toThrow(/Invalid --poll-interval/);
    expect(() => resolveCadence({ poll: '1s' })).toThrow(/between 5s and 1h/);
    expect(() => resolveCadence({ idle: '5s' })).toThrow(/between 15s and 1h/);
  });

  it('never idles faster than it polls', () => {
    expect(resolveCadence({ poll: '30s', idle: '20s' })).toEqual({
      fastIntervalMs: 30_000,
      slowIntervalMs: 30_000,
    });
  });
});
