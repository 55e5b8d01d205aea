/**
 * Parsing of the headers GitLab uses to drive client back-off: `Retry-After` (RFC 9110 §10.2.3),
 * GitLab's `RateLimit-*` family, and `Date` so that waits are computed against the server's own clock
 * (a laptop whose clock is a minute off must not wait a minute too long or too short).
 */

/** Response headers as Node and got expose them: lower-case names, repeated headers as arrays. */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** The first value of a header, or undefined. */
export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first.trim() === '' ? undefined : first.trim();
}

/** The server's "now" from its `Date` header, or `fallbackNow` when it sent none (or garbage). */
export function serverNow(headers: HeaderBag, fallbackNow: number): number {
  const date = headerValue(headers, 'date');
  const parsed = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isFinite(parsed) ? parsed : fallbackNow;
}

/**
 * `Retry-After` in milliseconds: either delta-seconds (`120`) or an HTTP date, measured from `now`
 * (the server's clock, see `serverNow`). Undefined when absent or unparseable; never negative.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date always has a weekday and month name; bare numbers like "-5" are not dates.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(at)) return undefined;
  return Math.max(0, at - now);
}

/** What GitLab's `RateLimit-*` headers say about the current window. */
export interface RateLimitState {
  /** Requests still allowed in the current window. */
  remaining: number;
  /** Milliseconds until the window resets (never negative). */
  resetInMs: number;
  /** The window's request limit, when sent. */
  limit: number | undefined;
}

// GitLab sends RateLimit-Reset as a Unix timestamp; the IETF draft sends delta-seconds. No window is
// longer than a few hours, so anything this large must be a timestamp.
const EPOCH_SECONDS_THRESHOLD = 1_000_000_000;

/**
 * Reads `RateLimit-Remaining` with `RateLimit-Reset` (Unix seconds or delta-seconds) or
 * `RateLimit-ResetTime` (HTTP date). Undefined unless both a remaining count and a reset are known.
 */
export function parseRateLimit(headers: HeaderBag, now: number): RateLimitState | undefined {
  const remainingText = headerValue(headers, 'ratelimit-remaining');
  if (remainingText === undefined || !/^\d+$/.test(remainingText)) return undefined;
  const remaining = Number(remainingText);

  let resetAt: number | undefined;
  const reset = headerValue(headers, 'ratelimit-reset');
  if (reset !== undefined && /^\d+$/.test(reset)) {
    const n = Number(reset);
    resetAt = n >= EPOCH_SECONDS_THRESHOLD ? n * 1000 : now + n * 1000;
  } else {
    const resetTime = headerValue(headers, 'ratelimit-resettime');
    const parsed = resetTime === undefined ? Number.NaN : Date.parse(resetTime);
    if (Number.isFinite(parsed)) resetAt = parsed;
  }
  if (resetAt === undefined) return undefined;

  const limitText = headerValue(headers, 'ratelimit-limit');
  const limit = limitText !== undefined && /^\d+$/.test(limitText) ? Number(limitText) : undefined;
  return { remaining, resetInMs: Math.max(0, resetAt - now), limit };
}
