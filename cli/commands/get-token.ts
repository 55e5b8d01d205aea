/**
 * `pipeline-summary get-token` (and the `get-token` binary): prints an access token for a profile.
 * Kept light: on a cache hit only this file, the engine, the profile/cache modules and the secret
 * store load — openid-client loads only when a token must be fetched.
 */
import { writeFileAtomic } from '../../server/platform/files.ts';
import {
  helpRequest,
  runCommand,
  type Command,
  type CommandEdges,
  type HelpRequest,
} from '../command.ts';
import { CliError } from '../errors.ts';
import { parseFlags } from '../flags.ts';
import { getToken } from '../oauth/engine.ts';
import { FLOWS, type FlowName } from '../oauth/profiles.ts';
import { formatTokenResponse } from '../oauth/token-response.ts';
import { TOKEN_FLAGS, tokenFlagOptions, type TokenFlagOptions } from './token-flags.ts';

const HELP = `Usage: {program} [flags]
       {program} doctor [-p PROFILE] [--json]

Prints an access token for a profile: from the encrypted cache, refreshed when it is about to
expire, or newly obtained through the profile's flow. The token is the last line of standard
output; everything else goes to standard error.

Flags:
  -p, --profile NAME     profile to use (default: default)
  -s, --scope "A B"      scopes for this request (default: the profile's)
  -f, --flow FLOW        client-credentials | interactive | device-code | authorization-code |
                         managed-identity (default: the profile's, else client-credentials)
  -o, --output FORMAT    token | json | yaml | exec-credential (default: token); exec-credential
                         is kubectl's ExecCredential (client.authentication.k8s.io/v1, or the
                         version in $KUBERNETES_EXEC_INFO) for users[].user.exec in a kubeconfig
      --force            skip the cache and get a new token (it is still cached)
      --no-cache         neither read nor write the cache
      --timeout DURATION maximum wait, e.g. 30s or 2m (default: 60s for each answer from the
                         identity provider; a sign-in waits as long as its code is valid, or
                         10 minutes in the browser, unless --timeout is given)
      --redirect-uri URI loopback redirect URI registered for the app, e.g. http://localhost
                         (default: the profile's, else http://127.0.0.1:<port>/callback)
      --federated-token-file PATH
                         send the JWT in PATH as the client assertion (workload identity
                         federation; default: the profile's, else $AZURE_FEDERATED_TOKEN_FILE
                         for profiles without a secret or certificate)
      --managed-identity-client-id ID
                         with --flow managed-identity: the user-assigned identity to use
                         (default: the profile's, else the system-assigned identity)
      --file PATH        write the output to PATH (mode 0600) instead of standard output
      --silent           no diagnostics (sign-in prompts and errors still show)
      --store BACKEND    secret store: keychain | file | auto (default: $PIPELINE_SUMMARY_SECRET_STORE, else auto)
  -h, --help             show this help

Managed identity: --flow managed-identity asks Azure's endpoint on this machine (IMDS on VMs,
scale sets and AKS nodes, at $AZURE_POD_IDENTITY_AUTHORITY_HOST when set; App Service, Functions
and Container Apps through $IDENTITY_ENDPOINT and $IDENTITY_HEADER) for a token for the profile's
resource (or the one -s URI/.default).

kubectl: with -o exec-credential, a sign-in that needs a person fails (exit 3) when kubectl runs
the plugin without a terminal ($KUBERNETES_EXEC_INFO spec.interactive false).

The get-token binary also runs the token commands: 'get-token profile|inspect|refresh …' is
'pipeline-summary profile|inspect|refresh …'.

doctor checks the profile and its secrets, issuer discovery (and the proxy used), the clock, the
secret store, the token cache and its lock, and the GitLab token: '{program} doctor --help'.

Examples:
  {program} -p ci -o json
  {program} -p arm --flow managed-identity -s https://management.azure.com/.default
  {program} -p aks -o exec-credential        (in a kubeconfig: see docs/get-token-integrations.md)
  {program} doctor -p ci

Exit codes: 0 ok, 1 general error, 2 profile not found, 3 authentication failed, 4 network error,
5 timeout.
`;

/** get-token's options, read from its flags. */
export interface GetTokenCommandOptions extends TokenFlagOptions {
  flow: FlowName | undefined;
  force: boolean;
  noCache: boolean;
  redirectUri: string | undefined;
  federatedTokenFile: string | undefined;
  federatedTokenFileFromEnv: string | undefined;
  managedIdentityClientId: string | undefined;
  file: string | undefined;
}

/**
 * pipeline-summary's commands but get-token itself: `get-token serve` names the command the user
 * meant instead of parseArgs' "Unexpected argument 'serve'" (parse.test.ts keeps the list whole).
 */
export const PIPELINE_SUMMARY_COMMANDS = [
  'serve',
  'summary',
  'explain',
  'mcp',
  'refresh',
  'inspect',
  'profile',
  'token',
  'doctor',
] as const;

/** get-token's flags → options; usage errors name `program`. */
export function parseGetTokenFlags(
  argv: string[],
  program = 'pipeline-summary get-token',
  env: NodeJS.ProcessEnv = {},
): GetTokenCommandOptions | HelpRequest {
  const first = argv[0];
  if (first !== undefined && (PIPELINE_SUMMARY_COMMANDS as readonly string[]).includes(first)) {
    const rest = argv.length > 1 ? ' …' : '';
    throw new CliError(
      'usage',
      `'${first}' is not a get-token flag but a command of its own: run 'pipeline-summary ${first}${rest}'`,
    );
  }
  const { values } = parseFlags(
    argv,
    {
      options: {
        ...TOKEN_FLAGS,
        flow: { type: 'string', short: 'f' },
        force: { type: 'boolean' },
        'no-cache': { type: 'boolean' },
        'redirect-uri': { type: 'string' },
        'federated-token-file': { type: 'string' },
        'managed-identity-client-id': { type: 'string' },
        file: { type: 'string' },
      },
    },
    program,
  );
  if (values.help) return helpRequest();
  // Flow first: with two bad flags, the usage error names the same one it always did.
  const flow = parseFlow(values.flow);
  return {
    ...tokenFlagOptions(values, env),
    flow,
    force: values.force === true,
    noCache: values['no-cache'] === true,
    redirectUri: values['redirect-uri'],
    federatedTokenFile: values['federated-token-file'],
    federatedTokenFileFromEnv: env.AZURE_FEDERATED_TOKEN_FILE || undefined,
    managedIdentityClientId: values['managed-identity-client-id'],
    file: values.file,
  };
}

/** Gets the token and prints it (or writes it to --file); resolves to the exit code. */
export async function runGetToken(
  options: GetTokenCommandOptions,
  { io, report }: CommandEdges,
): Promise<number> {
  if (options.force && options.noCache) {
    report.info('note: --no-cache already skips the cache; --force changes nothing');
  }
  const result = await getToken(
    {
      profile: options.profile,
      scope: options.scope,
      flow: options.flow,
      force: options.force,
      noCache: options.noCache,
      timeoutMs: options.timeoutMs,
      redirectUri: options.redirectUri,
      federatedTokenFile: options.federatedTokenFile,
      federatedTokenFileFromEnv: options.federatedTokenFileFromEnv,
      managedIdentityClientId: options.managedIdentityClientId,
      store: options.store,
      interactive: options.exec?.interactive,
    },
    { notify: report.notify, env: io.env },
  );
  const output = formatTokenResponse(result.response, options.format, options.exec);
  if (options.file) {
    await writeFileAtomic(options.file, output, 0o600).catch((err: unknown) => {
      throw new CliError(
        'general',
        `cannot write the token to ${options.file}: ${(err as Error).message}`,
        { cause: err },
      );
    });
    report.info(`wrote the token to ${options.file}`);
  } else {
    io.stdout.write(output);
  }
  return 0;
}

/** The get-token command, as `program` (the `get-token` binary or `pipeline-summary get-token`). */
export function getTokenCommand(program: string): Command<GetTokenCommandOptions> {
  return {
    program,
    help: HELP.replace('{program}', program),
    parse: (argv, env) => parseGetTokenFlags(argv, program, env),
    run: runGetToken,
    silent: (options) => options.silent,
  };
}

/** Validates `-f`. */
export function parseFlow(value: string | undefined): FlowName | undefined {
  if (value === undefined) return undefined;
  if ((FLOWS as readonly string[]).includes(value)) return value as FlowName;
  throw new CliError('usage', `--flow must be one of ${FLOWS.join(', ')}, not '${value}'`);
}

/**
 * The token commands the `get-token` binary also runs: GET-TOKEN.md names `refresh` and `inspect`
 * as get-token's related commands, and a profile is the first thing get-token needs, so
 * `npx get-token profile add …` does what `npx pipeline-summary profile add …` does.
 */
const TOKEN_COMMANDS: Record<string, () => Promise<Command<unknown>>> = {
  profile: async () => (await import('./profile.ts')).profileCommand as Command<unknown>,
  inspect: async () => (await import('./inspect.ts')).inspectCommand as Command<unknown>,
  refresh: async () => (await import('./refresh.ts')).refreshCommand as Command<unknown>,
};

/**
 * Runs get-token as `program` with `argv`: the `get-token` binary's one entry (one chunk to load);
 * `get-token doctor …` loads the doctor, `get-token profile|inspect|refresh …` those commands.
 */
export async function runGetTokenAs(program: string, argv: string[]): Promise<number> {
  if (argv[0] === 'doctor') {
    const { doctorCommand } = await import('./doctor.ts');
    return runCommand(doctorCommand(`${program} doctor`), argv.slice(1));
  }
  const sibling = argv[0] === undefined ? undefined : TOKEN_COMMANDS[argv[0]];
  if (sibling) return runCommand(await sibling(), argv.slice(1));
  return runCommand(getTokenCommand(program), argv);
}
