import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idBodySchema, idParamSchema, parseInput } from './validation.ts';

describe('ids (issue 9, item 6)', () => {
  const query = z.object({ jobId: idParamSchema });
  it('accepts the largest safe integer and refuses anything beyond instead of rounding it', () => {
    expect(parseInput(query, { jobId: '9007199254740991' })).toEqual({ jobId: 9007199254740991 });
    expect(() => parseInput(query, { jobId: '9007199254740993' })).toThrow(
      /Invalid 'jobId': is too large/,
    );
    expect(() => parseInput(query, { jobId: '9999999999999999' })).toThrow(/is too large/);
  });
  it('refuses unsafe ids in JSON bodies too', () => {
    const body = z.object({ jobId: idBodySchema });
    expect(() => parseInput(body, { jobId: 2 ** 53 })).toThrow(/Invalid 'jobId'/);
  });
});
