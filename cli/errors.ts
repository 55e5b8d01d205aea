/**
 * The CLI's one error type and its one exit-status table. Every command throws `CliError` for its
 * own failures (bad flags first of all); errors of the layers below carry their own codes
 * (`TokenError`, `SecretStoreError`, the service's `AppError`) and `exitStatusOf` maps all of them
 * here, so an exit status is decided in exactly one place. The get-token statuses are GET-TOKEN.md's
 * "Errors" table.
 */
import { AppError, CodedError, type ErrorCode } from '../server/platform/errors.ts';
import { SecretStoreError, type SecretStoreErrorCode } from '../server/platform/secret-store.ts';
import { TokenError } from './oauth/errors.ts';

/** What went wrong, as a user sorts it; each code has one exit status in `EXIT_STATUS`. */
export type CliErrorCode =
  | 'general' // anything else: bad configuration, an unexpected answer, local I/O
  | 'usage' // a bad flag or argument (exit 1: GET-TOKEN.md gives 2 to "profile not found")
  | 'profile_not_found'
  | 'auth_failed' // bad secret, invalid_client, invalid_grant, user denied, no secret stored
  | 'network' // DNS, refused, TLS, unreachable or failing server
  | 'timeout' // --timeout reached, or the server stopped answering
  | 'bad_job_ref' // explain: neither a GitLab job URL nor PROJECT JOB_ID
  | 'job_not_found' // explain: no such project or job (or not visible to the token)
  | 'job_not_failed'; // explain: the job passed, was cancelled or skipped, or has not finished

/**
 * Process exit status of each code (GET-TOKEN.md "Errors"; 6–8 are `explain`'s, in
 * docs/explain-and-mcp.md): the only place they are set.
 */
export const EXIT_STATUS: Readonly<Record<CliErrorCode, number>> = {
  general: 1,
  usage: 1,
  profile_not_found: 2,
  auth_failed: 3,
  network: 4,
  timeout: 5,
  bad_job_ref: 6,
  job_not_found: 7,
  job_not_failed: 8,
};

/** How secret-store failures read to a CLI user. */
const SECRET_STORE_CODES: Readonly<Record<SecretStoreErrorCode, CliErrorCode>> = {
  secret_store_unavailable: 'general',
  secret_store_damaged: 'general',
  secret_store_io: 'general',
  invalid_store_mode: 'usage',
};

/** How the service's errors read to a CLI user (`serve`, `summary`): all exit 1, as they always did. */
const APP_CODES: Readonly<Record<ErrorCode, CliErrorCode>> = {
  bad_request: 'usage',
  not_configured: 'general',
  unauthorized: 'general',
  forbidden: 'general',
  not_found: 'general',
  payload_too_large: 'general',
  unsupported_media_type: 'general',
  rate_limited: 'general',
  overloaded: 'general',
  upstream_unavailable: 'general',
  upstream_timeout: 'general',
  internal: 'general',
};

/** A command's failure: `message` is one line saying what failed and what to do, never a secret. */
export class CliError extends CodedError<CliErrorCode> {
  override readonly name = 'CliError';
}

/** The CLI code of any thrown value; undefined for errors nobody explained (bugs). */
export function cliCodeOf(err: unknown): CliErrorCode | undefined {
  if (err instanceof CliError || err instanceof TokenError) return err.code;
  if (err instanceof SecretStoreError) return SECRET_STORE_CODES[err.code];
  if (err instanceof AppError) return APP_CODES[err.code];
  return undefined;
}

/** The exit status for any thrown value: explained errors by their code, everything else 1. */
export function exitStatusOf(err: unknown): number {
  return EXIT_STATUS[cliCodeOf(err) ?? 'general'];
}
