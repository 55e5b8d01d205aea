/**
 * What a group reference may be: a numeric id or a full path. GitLab paths are segments of
 * letters, digits, `_`, `-` and `.` that do not start with `-` or `.`, joined by `/`, with at most
 * 20 ancestors (Namespace::NUMBER_OF_ANCESTORS_ALLOWED, doc/user/group/subgroups: "up to 20 levels").
 * `.`, `..` and empty segments are refused: URL-encoded as `%2E%2E` they would still reach GitLab,
 * and `..` once made the poller list /projects — every public project of the instance.
 */
import { z } from 'zod';
import { AppError } from '../platform/errors.ts';

/** Segments a group path may have: a top-level group and 20 levels of subgroups. */
export const MAX_GROUP_DEPTH = 21;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/;

/** Why `ref` is not a group reference, or null when it is one. */
export function groupRefProblem(ref: string): string | null {
  if (/^[0-9]+$/.test(ref)) return null;
  const path = ref.replace(/^\/+|\/+$/g, '');
  if (path === '') return 'is empty';
  const segments = path.split('/');
  if (segments.length > MAX_GROUP_DEPTH)
    return `has ${segments.length} levels; GitLab allows at most ${MAX_GROUP_DEPTH} (a group and 20 levels of subgroups)`;
  for (const segment of segments) {
    if (segment === '') return 'has an empty segment (//)';
    if (segment === '.' || segment === '..') return `has a '${segment}' segment`;
    if (!SEGMENT.test(segment) || /\.(git|atom)$/i.test(segment))
      return `has an invalid segment '${segment.slice(0, 40)}'`;
  }
  return null;
}

/** A group reference as an id (number) or a trimmed full path; `bad_request` otherwise. */
export function parseGroupRef(ref: string | number): string | number {
  if (typeof ref === 'number') {
    if (Number.isSafeInteger(ref) && ref > 0) return ref;
    throw new AppError('bad_request', `Invalid group id ${ref}`);
  }
  const problem = groupRefProblem(ref);
  if (problem) {
    throw new AppError(
      'bad_request',
      `Invalid group '${ref.slice(0, 80)}': it ${problem}. Use a group id or a path like acme/platform`,
    );
  }
  return /^[0-9]+$/.test(ref) ? Number(ref) : ref.replace(/^\/+|\/+$/g, '');
}

/** zod: a group id or path, as parseGroupRef accepts it. */
export const groupRefSchema = z
  .string()
  .max(4096)
  .superRefine((ref, ctx) => {
    const problem = groupRefProblem(ref);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        message: `must be a group id or a path like acme/platform (it ${problem})`,
      });
  })
  .transform((ref) => (/^[0-9]+$/.test(ref) ? Number(ref) : ref.replace(/^\/+|\/+$/g, '')));
