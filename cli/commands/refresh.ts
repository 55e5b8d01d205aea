/**
 * `pipeline-summary refresh [-p PROFILE]`: refreshes a profile's cached token now (refresh-token
 * grant, or a new client-credentials token) and prints it like get-token.
 */
import {
  parseSecretStoreMode,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
import { helpRequest, type Command } from '../command.ts';
import { parseDuration } from '../duration.ts';
import { parseFlags } from '../flags.ts';
import { refreshToken } from '../token/engine.ts';
import {
  formatTokenResponse,
  parseOutputFormat,
  type OutputFormat,
} from '../token/token-response.ts';

const HELP = `Usage: pipeline-summary refresh [-p PROFILE] [-s "A B"] [-o token|json|yaml] [--timeout 60s] [--silent]

Refreshes the profile's cached token now, with its refresh token (or, for client-credentials
profiles without one, by getting a new token), stores it and prints it like get-token.
`;

/** refresh's options, read from its flags. */
export interface RefreshCommandOptions {
  profile: string;
  scope: string | undefined;
  format: OutputFormat;
  timeoutMs: number | undefined;
  silent: boolean;
  store: SecretStoreMode | undefined;
}

/** The refresh command. */
export const refreshCommand: Command<RefreshCommandOptions> = {
  program: 'pipeline-summary refresh',
  help: HELP,
  parse(argv) {
    const { values } = parseFlags(
      argv,
      {
        options: {
          profile: { type: 'string', short: 'p', default: 'default' },
          scope: { type: 'string', short: 's' },
          output: { type: 'string', short: 'o' },
          timeout: { type: 'string' },
          silent: { type: 'boolean' },
          store: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      },
      'pipeline-summary refresh',
    );
    if (values.help) return helpRequest();
    return {
      profile: values.profile!,
      scope: values.scope,
      format: parseOutputFormat(values.output),
      timeoutMs: values.timeout ? parseDuration(values.timeout) : undefined,
      silent: values.silent === true,
      store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
    };
  },
  async run(options, { io, report }) {
    const result = await refreshToken(
      {
        profile: options.profile,
        scope: options.scope,
        timeoutMs: options.timeoutMs,
        store: options.store,
      },
      { notify: report.notify },
    );
    report.info(
      `refreshed profile '${result.profile}' (${result.source === 'refreshed' ? 'refresh token' : 'new token'}); expires at ${result.response.expires_at}`,
    );
    io.stdout.write(formatTokenResponse(result.response, options.format));
    return 0;
  },
  silent: (options) => options.silent,
};
