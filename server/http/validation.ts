import { z } from 'zod';
import { AppError } from '../platform/errors.ts';

/**
 * Parses `input` with `schema`, throwing a 400 that names the offending field in plain words. A
 * query parameter given twice (`?jobId=1&jobId=2`, which Koa hands over as an array) that the
 * schema does not take as a list is refused as duplicated: picking one of the two would answer a
 * question nobody asked. A schema that takes a list (`/cc.xml?refs=a&refs=b`) gets it.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  what = 'request',
): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = issue?.path[0];
  if (what === 'query' && typeof input === 'object' && input !== null && key !== undefined) {
    const value = (input as Record<PropertyKey, unknown>)[key];
    if (Array.isArray(value))
      throw new AppError(
        'bad_request',
        `Invalid '${String(key)}': is duplicated (given ${value.length} times); give it once`,
      );
  }
  const where = issue && issue.path.length > 0 ? `'${issue.path.join('.')}'` : what;
  throw new AppError('bad_request', `Invalid ${where}: ${issue?.message ?? 'invalid value'}`);
}

/** A positive integer id given as a string (path or query), e.g. `projectId=42`. */
export const idParamSchema = z
  .string({ error: 'is required' })
  .regex(/^[1-9][0-9]{0,15}$/, { error: 'must be a positive integer' })
  // Beyond 2^53 - 1 a number cannot hold the id exactly: 9007199254740993 would become …992.
  .refine((text) => Number.isSafeInteger(Number(text)), { error: 'is too large' })
  .transform(Number);

/** A positive integer id in a JSON body. */
export const idBodySchema = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .positive({ error: 'must be a positive integer' })
  .max(Number.MAX_SAFE_INTEGER);
