/**
 * Errors of the token engine. Each carries a code (what kind of failure, in the user's words) and
 * the underlying cause; the CLI turns codes into exit statuses through `EXIT_STATUS`, the one table
 * of them, and the tray shows `message` as is.
 */

/** What went wrong, as a user would sort it. Each code has one exit status in `EXIT_STATUS`. */
export type TokenErrorCode =
  | 'general' // anything else: bad configuration, unexpected issuer answer, local I/O
  | 'usage' // a bad flag or argument
  | 'profile_not_found'
  | 'auth_failed' // bad secret, invalid_client, invalid_grant, user denied, no secret stored
  | 'network' // DNS, refused, TLS, unreachable or failing issuer
  | 'timeout'; // --timeout reached, or the issuer stopped answering

/** Process exit status of each error code (GET-TOKEN.md "Errors"): the only place they are set. */
export const EXIT_STATUS: Readonly<Record<TokenErrorCode, number>> = {
  general: 1,
  usage: 1,
  profile_not_found: 2,
  auth_failed: 3,
  network: 4,
  timeout: 5,
};

/** A token-engine failure: `message` says what failed and what to do, and never holds a secret. */
export class TokenError extends Error {
  override readonly name = 'TokenError';
  constructor(
    readonly code: TokenErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** True when `err` is a TokenError with one of the given codes (any code when none are given). */
export function isTokenError(err: unknown, ...codes: TokenErrorCode[]): err is TokenError {
  return err instanceof TokenError && (codes.length === 0 || codes.includes(err.code));
}

/** The exit status for any thrown value: TokenErrors by their code, everything else 1. */
export function exitStatusOf(err: unknown): number {
  return err instanceof TokenError ? EXIT_STATUS[err.code] : EXIT_STATUS.general;
}
