/**
 * Domain errors. Domain code throws these with a code; the HTTP layer maps codes to statuses in one
 * place (server/http/error-middleware.ts) and the CLI maps them to exit codes.
 */

/** What went wrong, in words the product uses; each maps to one HTTP status. */
export type ErrorCode =
  | 'bad_request' // 400: the caller sent something invalid
  | 'not_configured' // 400: no group or no GitLab token yet (the desktop app shows the demo then)
  | 'unauthorized' // 401: the GitLab token is missing or invalid
  | 'forbidden' // 403: refused by the service's own security checks
  | 'not_found' // 404: pipeline, job, group or route not found
  | 'payload_too_large' // 413
  | 'unsupported_media_type' // 415
  | 'rate_limited' // 429: too many wrong access tokens from one client
  | 'overloaded' // 503: the service itself is at a capacity limit (SSE subscribers, log fetches)
  | 'upstream_unavailable' // 502: GitLab or an AI provider failed or is unreachable
  | 'upstream_timeout' // 504: GitLab or an AI provider did not answer in time
  | 'internal'; // 500

/**
 * An error with a code in its domain's words and, when it has one, the error it wraps: one place
 * per caller maps the codes (HTTP statuses, exit statuses). The service's, the CLI's, the token
 * engine's and the secret store's errors are all of this shape.
 */
export class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** An error the service can explain to its caller: `message` is safe to show (no secrets). */
export class AppError extends CodedError<ErrorCode> {
  override readonly name = 'AppError';
  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterMs?: number; upstreamStatus?: number },
  ) {
    super(code, message, options);
    this.retryAfterMs = options?.retryAfterMs;
    this.upstreamStatus = options?.upstreamStatus;
  }
  /** Server-suggested wait before retrying, when the upstream said so (Retry-After). */
  readonly retryAfterMs: number | undefined;
  /** The HTTP status the upstream (GitLab, an AI provider) answered, when it answered. */
  readonly upstreamStatus: number | undefined;
}

/** True when `err` is an AppError with one of the given codes. */
export function isAppError(err: unknown, ...codes: ErrorCode[]): err is AppError {
  return err instanceof AppError && (codes.length === 0 || codes.includes(err.code));
}
