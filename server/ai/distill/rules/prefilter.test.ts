import { describe, expect, it } from 'vitest';
import { ERROR_CODE_HINT, GO_LOCATION_HINT, prefilterOf } from './prefilter.ts';

describe('prefilterOf', () => {
  const filter = prefilterOf([
    'fail',
    'failures',
    'timed out',
    'killed',
    '✕',
    /^DONE \d+ tests?, /,
    ERROR_CODE_HINT,
    GO_LOCATION_HINT,
  ]);

  it('finds a word anywhere in the line, in any case', () => {
    expect(filter.test('Build FAILED in 3s')).toBe(true);
    expect(filter.test('the request Timed Out after 30 s')).toBe(true);
    expect(filter.test('all 12 tests passed')).toBe(false);
  });

  it('finds a mark character and reads other characters above ASCII lower-cased', () => {
    expect(filter.test('  ✕ adds two numbers (3 ms)')).toBe(true);
    // toLowerCase turns the Kelvin sign into `k`; a word is still found around such a character.
    expect(filter.test('process \u212Ailled by the kernel')).toBe(true);
    expect(filter.test('Ünïcode FAIL')).toBe(true);
    expect(filter.test('✓ adds two numbers')).toBe(false);
  });

  it('checks a line start only at the start', () => {
    expect(filter.test('DONE 12 tests, 1 skipped')).toBe(true);
    expect(filter.test('  DONE 12 tests, 1 skipped')).toBe(false);
  });

  it('finds the patterns words cannot say: error codes and Go positions', () => {
    expect(filter.test('src/a.ts(3,5): TS2322: Type x')).toBe(true);
    expect(filter.test('app.cs(3,5): CS0246: name')).toBe(true);
    expect(filter.test('src/a.ts(3,5): error TS2322 Type x')).toBe(false);
    expect(filter.test('x: ABCDEF123 name')).toBe(false);
    expect(filter.test('./main.go:12:2: undefined: x')).toBe(true);
    expect(filter.test('see main.go for details')).toBe(false);
  });

  it('refuses hints it could never find', () => {
    expect(() => prefilterOf(['Fail'])).toThrow(/lower-case/);
    expect(() => prefilterOf(['ok'])).toThrow(/three characters/);
    expect(() => prefilterOf([/DONE/])).toThrow(/begins with \^/);
  });
});
