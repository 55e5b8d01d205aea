import { describe, expect, it } from 'vitest';
import { stripCiPrefix } from './ci-prefix.ts';

describe('stripCiPrefix', () => {
  it('strips the known CI prefixes and nothing else', () => {
    expect(stripCiPrefix('2022-05-30T09:11:02.8576680Z BUILD FAILED in 14s')).toBe(
      'BUILD FAILED in 14s',
    );
    expect(stripCiPrefix('[  146s] error: Bad exit status')).toBe('error: Bad exit status');
    expect(
      stripCiPrefix(
        '[task 2025-02-13T21:47:57.540Z] 21:47:57    ERROR -  error: linking with `cc` failed',
      ),
    ).toBe(' error: linking with `cc` failed');
    expect(stripCiPrefix('DEBUG util.py:459:  Problem: x')).toBe(' Problem: x');
    expect(stripCiPrefix('    at foo (bar.js:1:2)')).toBe('    at foo (bar.js:1:2)');
    expect(stripCiPrefix('2 passed')).toBe('2 passed');
    // Vercel's build clock (old and new), Netlify's, and BuildKit's plain progress (step number,
    // elapsed seconds): a line's own numbers are left alone.
    expect(stripCiPrefix('13:39:31.418 Failed to compile.')).toBe('Failed to compile.');
    expect(stripCiPrefix('[16:01:19.375] Export encountered an error')).toBe(
      'Export encountered an error',
    );
    expect(stripCiPrefix('7:35:09 AM: Build failed')).toBe('Build failed');
    expect(stripCiPrefix('#8 12.34 npm ERR! code E404')).toBe('npm ERR! code E404');
    expect(stripCiPrefix('#10 ERROR: failed to solve')).toBe('ERROR: failed to solve');
    expect(stripCiPrefix('57:9  Error: x')).toBe('57:9  Error: x');
    expect(stripCiPrefix('1:2 warning')).toBe('1:2 warning');
    expect(stripCiPrefix('#include <stdio.h>')).toBe('#include <stdio.h>');
  });
});
