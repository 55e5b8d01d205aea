import { describe, expect, it } from 'vitest';
import { fence, quote } from './markdown.ts';

describe('markdown', () => {
  it('fences text containing backticks safely', () => {
    expect(fence('a ``` b')).toBe('````text\na ``` b\n````');
  });

  it('quotes log lines in a fence, counting a repeated line once', () => {
    expect(
      quote([
        { text: 'npm ERR! network timeout', occurrences: 3 },
        { text: 'npm ERR! code ETIMEDOUT', occurrences: 1 },
      ]),
    ).toBe('```text\nnpm ERR! network timeout   (×3)\nnpm ERR! code ETIMEDOUT\n```');
  });
});
