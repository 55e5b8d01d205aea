/**
 * `pipeline-summary refresh [-p PROFILE]`: refreshes a profile's cached token now (refresh-token
 * grant, or a new client-credentials token) and prints it like get-token.
 */
import { DEFAULT_TIMEOUT_MS, refreshToken } from '../token/engine.ts';
import { parseDuration } from '../token/duration.ts';
import { parseSecretStoreMode } from '../token/secret-store.ts';
import { formatTokenResponse, parseOutputFormat } from '../token/token-response.ts';
import { parseFlags, processIo, reporter, type CliIo } from '../token/cli-support.ts';

const HELP = `Usage: pipeline-summary refresh [-p PROFILE] [-s "A B"] [-o token|json|yaml] [--timeout 60s] [--silent]

Refreshes the profile's cached token now, with its refresh token (or, for client-credentials
profiles without one, by getting a new token), stores it and prints it like get-token.
`;

/** Runs refresh; resolves to the exit code. */
export async function run(argv: string[], io: CliIo = processIo()): Promise<number> {
  const program = 'pipeline-summary refresh';
  let report = reporter(io, program, argv.includes('--silent'));
  try {
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
      program,
    );
    if (values.help) {
      io.stdout.write(HELP);
      return 0;
    }
    report = reporter(io, program, values.silent === true);
    const format = parseOutputFormat(values.output);
    const result = await refreshToken(
      {
        profile: values.profile!,
        scope: values.scope,
        timeoutMs: values.timeout ? parseDuration(values.timeout) : DEFAULT_TIMEOUT_MS,
        store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
      },
      { notify: report.notify },
    );
    report.info(
      `refreshed profile '${result.profile}' (${result.source === 'refreshed' ? 'refresh token' : 'new token'}); expires at ${result.response.expires_at}`,
    );
    io.stdout.write(formatTokenResponse(result.response, format));
    return 0;
  } catch (err) {
    return report.fail(err);
  }
}
