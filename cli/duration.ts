import { CliError } from './errors.ts';

/**
 * Parses a `--timeout` value: a positive whole number with an `s` (seconds) or `m` (minutes)
 * suffix, e.g. `60s`, `2m`. Anything else is a usage error.
 */
export function parseDuration(value: string, flag = '--timeout'): number {
  const match = /^(\d+)(s|m)$/.exec(value.trim());
  const amount = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(amount) || amount <= 0) {
    throw new CliError(
      'usage',
      `${flag} '${value}' is not a duration: use a positive whole number with s or m, e.g. 60s or 2m`,
    );
  }
  return amount * (match[2] === 'm' ? 60_000 : 1000);
}
