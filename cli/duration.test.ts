import { describe, expect, it } from 'vitest';
import { parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it('reads seconds and minutes', () => {
    expect(parseDuration('60s')).toBe(60_000);
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('2m')).toBe(120_000);
  });

  it.each(['60', '0s', '-5s', '1h', '1.5m', 's', '', '10 s'])(
    'rejects %j as a usage error',
    (value) => {
      expect(() => parseDuration(value)).toThrow(
        expect.objectContaining({
          code: 'usage',
          message: expect.stringContaining('e.g. 60s or 2m'),
        }),
      );
    },
  );
});
