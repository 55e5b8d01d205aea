// The flags get-token and refresh share: which profile, which scopes, how to print the token, how
// long to wait, how quietly, and which secret store.
import {
  parseSecretStoreMode,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
import { parseDuration } from '../duration.ts';
import { CliError } from '../errors.ts';
import { EXEC_INFO_ENV, readExecInfo, type ExecInfo } from '../oauth/exec-credential.ts';
import { parseOutputFormat, type OutputFormat } from '../oauth/token-response.ts';

/** The shared flags, in `parseArgs` form (spread into each command's own). */
export const TOKEN_FLAGS = {
  profile: { type: 'string', short: 'p', default: 'default' },
  scope: { type: 'string', short: 's' },
  output: { type: 'string', short: 'o' },
  timeout: { type: 'string' },
  silent: { type: 'boolean' },
  store: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What the shared flags say, read and checked. */
export interface TokenFlagOptions {
  profile: string;
  scope: string | undefined;
  format: OutputFormat;
  /** --timeout; unset leaves the waits to the engine's defaults. */
  timeoutMs: number | undefined;
  silent: boolean;
  store: SecretStoreMode | undefined;
  /** With `-o exec-credential`: what kubectl asked for in KUBERNETES_EXEC_INFO. */
  exec: ExecInfo | undefined;
}

/**
 * Reads the shared flags' values (and, for `-o exec-credential`, KUBERNETES_EXEC_INFO); throws a
 * usage error on a bad format, duration, store or exec request.
 */
export function tokenFlagOptions(
  values: {
    profile?: string;
    scope?: string;
    output?: string;
    timeout?: string;
    silent?: boolean;
    store?: string;
  },
  env: NodeJS.ProcessEnv = {},
): TokenFlagOptions {
  const format = parseOutputFormat(values.output);
  let exec: ExecInfo | undefined;
  if (format === 'exec-credential') {
    const info = readExecInfo(env[EXEC_INFO_ENV]);
    if (typeof info === 'string') throw new CliError('usage', info);
    exec = info;
  }
  return {
    profile: values.profile!,
    scope: values.scope,
    format,
    timeoutMs: values.timeout ? parseDuration(values.timeout) : undefined,
    silent: values.silent === true,
    store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
    exec,
  };
}
