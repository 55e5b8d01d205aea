import { AppError } from '../platform/errors.ts';

/** The shortest fast cadence: below it the poller would spend a token's budget on one group. */
export const MIN_POLL_INTERVAL_MS = 5_000;
/** The shortest idle cadence. */
export const MIN_IDLE_INTERVAL_MS = 15_000;
/** The longest either may be: a dashboard an hour behind is not live. */
const MAX_INTERVAL_MS = 3_600_000;

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** Parses `10s`, `1m`, `500ms` or plain seconds (`30`) into milliseconds; `bad_request` otherwise. */
export function parseInterval(raw: string, name: string): number {
  const match = /^([0-9]{1,7})(ms|s|m|h)?$/.exec(raw.trim());
  if (!match) {
    throw new AppError(
      'bad_request',
      `Invalid ${name} '${raw}': use a whole number with s, m or h (for example 10s, 1m)`,
    );
  }
  return Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS];
}

/**
 * The poller's two cadences from user input (flags > env > stored settings, resolved by the
 * caller): `poll` while anything is non-terminal, `idle` otherwise. Each has a floor so a typo
 * cannot exhaust the token's rate budget, and idle is never faster than poll.
 */
export function resolveCadence(input: { poll?: string; idle?: string }): {
  fastIntervalMs: number;
  slowIntervalMs: number;
} {
  const fast = input.poll === undefined ? 10_000 : parseInterval(input.poll, '--poll-interval');
  const slow = input.idle === undefined ? 60_000 : parseInterval(input.idle, '--idle-interval');
  if (fast < MIN_POLL_INTERVAL_MS || fast > MAX_INTERVAL_MS) {
    throw new AppError(
      'bad_request',
      `--poll-interval must be between 5s and 1h (got ${input.poll})`,
    );
  }
  if (slow < MIN_IDLE_INTERVAL_MS || slow > MAX_INTERVAL_MS) {
    throw new AppError(
      'bad_request',
      `--idle-interval must be between 15s and 1h (got ${input.idle})`,
    );
  }
  return { fastIntervalMs: fast, slowIntervalMs: Math.max(fast, slow) };
}
