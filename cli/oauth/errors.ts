/**
 * Errors of the token engine. Each carries a code (what kind of failure, in the user's words) and
 * the underlying cause; the CLI turns codes into exit statuses in its one table (cli/errors.ts),
 * and the tray shows `message` as is.
 */
import { CodedError } from '../../server/platform/errors.ts';

/** What went wrong, as a user would sort it (the CLI's exit-status codes use the same names). */
export type TokenErrorCode =
  | 'general' // anything else: bad configuration, unexpected issuer answer, local I/O
  | 'usage' // a bad flag or argument
  | 'profile_not_found'
  | 'auth_failed' // bad secret, invalid_client, invalid_grant, user denied, no secret stored
  | 'network' // DNS, refused, TLS, unreachable or failing issuer
  | 'timeout'; // --timeout reached, or the issuer stopped answering

/** A token-engine failure: `message` says what failed and what to do, and never holds a secret. */
export class TokenError extends CodedError<TokenErrorCode> {
  override readonly name = 'TokenError';
}

/** True when `err` is a TokenError with one of the given codes (any code when none are given). */
export function isTokenError(err: unknown, ...codes: TokenErrorCode[]): err is TokenError {
  return err instanceof TokenError && (codes.length === 0 || codes.includes(err.code));
}
