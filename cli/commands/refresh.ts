/**
 * `pipeline-summary refresh [-p PROFILE]`: refreshes a profile's cached token now (refresh-token
 * grant, or a new client-credentials token) and prints it like get-token.
 */
import { helpRequest, type Command } from '../command.ts';
import { parseFlags } from '../flags.ts';
import { refreshToken } from '../oauth/engine.ts';
import { formatTokenResponse } from '../oauth/token-response.ts';
import { TOKEN_FLAGS, tokenFlagOptions, type TokenFlagOptions } from './token-flags.ts';

const HELP = `Usage: pipeline-summary refresh [-p PROFILE] [-s "A B"] [-o token|json|yaml|exec-credential] [--timeout 60s] [--silent]

Refreshes the profile's cached token now, with its refresh token (or, for client-credentials
and managed-identity profiles without one, by getting a new token), stores it and prints it like
get-token.

Example: pipeline-summary refresh -p ci -o json
`;

/** refresh's options, read from its flags: the ones get-token also has. */
export type RefreshCommandOptions = TokenFlagOptions;

/** The refresh command. */
export const refreshCommand: Command<RefreshCommandOptions> = {
  program: 'pipeline-summary refresh',
  help: HELP,
  parse(argv, env) {
    const { values } = parseFlags(argv, { options: TOKEN_FLAGS }, 'pipeline-summary refresh');
    if (values.help) return helpRequest();
    return tokenFlagOptions(values, env);
  },
  async run(options, { io, report }) {
    const result = await refreshToken(
      {
        profile: options.profile,
        scope: options.scope,
        timeoutMs: options.timeoutMs,
        store: options.store,
      },
      { notify: report.notify, env: io.env },
    );
    report.info(
      `refreshed profile '${result.profile}' (${result.source === 'refreshed' ? 'refresh token' : 'new token'}); expires at ${result.response.expires_at}`,
    );
    io.stdout.write(formatTokenResponse(result.response, options.format, options.exec));
    return 0;
  },
  silent: (options) => options.silent,
};
