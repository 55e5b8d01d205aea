import type { SinceCheckResponse } from '../contract.ts';
import { AppError } from '../platform/errors.ts';

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** Longest window we accept: a year, far beyond what GitLab keeps fast to list. */
const MAX_WINDOW_MS = 366 * UNIT_MS.d;

/**
 * Parses a time window such as `30m`, `12h`, `7d` or `2w` into milliseconds (DESIGN §3.1: a positive
 * integer and one of m/h/d/w). Anything else is a 400 that says what is accepted.
 */
export function parseSince(since: string): number {
  const match = /^([1-9][0-9]{0,5})([mhdw])$/.exec(since);
  if (!match) {
    throw new AppError(
      'bad_request',
      `Invalid since '${since}': use a positive whole number followed by m, h, d or w (for example 30m, 12h, 7d, 2w)`,
    );
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms > MAX_WINDOW_MS) {
    throw new AppError('bad_request', `Invalid since '${since}': the longest window is 366d`);
  }
  return ms;
}

/** True when `since` is a valid window. */
export function isValidSince(since: string): boolean {
  try {
    parseSince(since);
    return true;
  } catch {
    return false;
  }
}

/** The window rule as an answer rather than an error: what the settings form shows while typing. */
export function checkSince(since: string): SinceCheckResponse {
  try {
    return { since, valid: true, ms: parseSince(since) };
  } catch (err) {
    return { since, valid: false, error: (err as Error).message };
  }
}
