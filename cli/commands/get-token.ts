/**
 * `pipeline-summary get-token` (and the `get-token` binary): prints an access token for a profile.
 * Kept light: on a cache hit only this file, the engine, the profile/cache modules and the secret
 * store load — openid-client loads only when a token must be fetched.
 */
import { DEFAULT_TIMEOUT_MS, getToken } from '../token/engine.ts';
import { parseDuration } from '../token/duration.ts';
import { TokenError } from '../token/errors.ts';
import { writeFileAtomic } from '../token/files.ts';
import { FLOWS, type FlowName } from '../token/profiles.ts';
import { parseSecretStoreMode } from '../token/secret-store.ts';
import { formatTokenResponse, parseOutputFormat } from '../token/token-response.ts';
import { parseFlags, processIo, reporter, type CliIo } from '../token/cli-support.ts';

const HELP = `Usage: {program} [flags]

Prints an OAuth 2.0 access token for a profile: from the encrypted cache, refreshed when it is
about to expire, or newly obtained through the profile's flow. The token is the last line of
standard output; everything else goes to standard error.

Flags:
  -p, --profile NAME     profile to use (default: default)
  -s, --scope "A B"      scopes for this request (default: the profile's)
  -f, --flow FLOW        client-credentials | interactive | device-code | authorization-code
                         (default: the profile's, else client-credentials)
  -o, --output FORMAT    token | json | yaml (default: token)
      --force            skip the cache and get a new token (it is still cached)
      --no-cache         neither read nor write the cache
      --timeout DURATION maximum wait, e.g. 30s or 2m (default: 60s)
      --file PATH        write the output to PATH (mode 0600) instead of standard output
      --silent           no diagnostics (sign-in prompts and errors still show)
      --store BACKEND    secret store: keychain | file | auto (default: $PIPELINE_SUMMARY_SECRET_STORE, else auto)
  -h, --help             show this help

Exit codes: 0 ok, 1 general error, 2 profile not found, 3 authentication failed, 4 network error,
5 timeout.
`;

/** Runs get-token with `argv` (the arguments after the command name); resolves to the exit code. */
export async function run(
  argv: string[],
  program = 'pipeline-summary get-token',
  io: CliIo = processIo(),
): Promise<number> {
  let report = reporter(io, program, argv.includes('--silent'));
  try {
    const { values } = parseFlags(
      argv,
      {
        options: {
          profile: { type: 'string', short: 'p', default: 'default' },
          scope: { type: 'string', short: 's' },
          flow: { type: 'string', short: 'f' },
          output: { type: 'string', short: 'o' },
          force: { type: 'boolean' },
          'no-cache': { type: 'boolean' },
          timeout: { type: 'string' },
          file: { type: 'string' },
          silent: { type: 'boolean' },
          store: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      },
      program,
    );
    if (values.help) {
      io.stdout.write(HELP.replace('{program}', program));
      return 0;
    }
    report = reporter(io, program, values.silent === true);
    const format = parseOutputFormat(values.output);
    const timeoutMs = values.timeout ? parseDuration(values.timeout) : DEFAULT_TIMEOUT_MS;
    const flow = parseFlow(values.flow);
    const store = values.store === undefined ? undefined : parseSecretStoreMode(values.store);
    if (values.force && values['no-cache']) {
      report.info('note: --no-cache already skips the cache; --force changes nothing');
    }
    const result = await getToken(
      {
        profile: values.profile!,
        scope: values.scope,
        flow,
        force: values.force,
        noCache: values['no-cache'],
        timeoutMs,
        store,
      },
      { notify: report.notify },
    );
    const output = formatTokenResponse(result.response, format);
    if (values.file) {
      await writeFileAtomic(values.file, output, 0o600).catch((err: unknown) => {
        throw new TokenError(
          'general',
          `cannot write the token to ${values.file}: ${(err as Error).message}`,
          { cause: err },
        );
      });
      report.info(`wrote the token to ${values.file}`);
    } else {
      io.stdout.write(output);
    }
    return 0;
  } catch (err) {
    return report.fail(err);
  }
}

/** Validates `-f`. */
export function parseFlow(value: string | undefined): FlowName | undefined {
  if (value === undefined) return undefined;
  if ((FLOWS as readonly string[]).includes(value)) return value as FlowName;
  throw new TokenError('usage', `--flow must be one of ${FLOWS.join(', ')}, not '${value}'`);
}
