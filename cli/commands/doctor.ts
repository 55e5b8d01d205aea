/**
 * `pipeline-summary doctor` and `get-token doctor`: runs the checks of cli/doctor/ with the real
 * edges — the system clock, fetch, the product's secret store, and a fresh process of this same
 * binary (`doctor --read-probe`) to read back a probe secret — and prints one line a check (or
 * JSON). Exit 0 when nothing failed, 1 otherwise.
 */
import { spawn } from 'node:child_process';
import { systemClock } from '../../server/platform/clock.ts';
import {
  openSecretStore,
  parseSecretStoreMode,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
import { appHome } from '../../server/platform/paths.ts';
import { resolveSummarySettings } from '../../server/config.ts';
import { helpRequest, type Command } from '../command.ts';
import { parseDuration } from '../duration.ts';
import { CliError } from '../errors.ts';
import { parseFlags } from '../flags.ts';
import { CHECK_IDS, runDoctor, type CheckId, type DoctorEdges } from '../doctor/doctor.ts';
import { nodeUsesEnvProxy } from '../doctor/proxy.ts';
import { formatReport, formatReportJson } from '../doctor/report.ts';
import { PROBE_ACCOUNT_PREFIX } from '../doctor/secret-store-check.ts';

const HELP = `Usage: {program} [-p PROFILE] [--json] [--skip CHECK,…] [--gitlab-url URL] [--store BACKEND] [--timeout 10s]

Checks what get-token and the service need and prints one line a check: ✓ what was found, or
✗ what is wrong — what to do.

  profile       the profile loads (profiles.json)
  secrets       its client secret, certificate (not expired) or federated token file
  discovery     the issuer's discovery document (or token endpoint, or the managed identity
                endpoint) answers, and through which proxy (HTTPS_PROXY, NO_PROXY; Node uses
                them only with NODE_USE_ENV_PROXY=1)
  clock         this clock against the identity provider's Date header (fails beyond 60 s)
  secret-store  which store holds secrets, and whether a secret written by this process is read
                back by a fresh one (keyrings that forget across WSL/SSH sessions)
  cache         token-cache.json: mode 0600, yours, opens with the key in the secret store
  lock          token-cache.lock: free, held by a running get-token, or a stale leftover
  gitlab-token  the service's GitLab token (GITLAB_TOKEN, or 'pipeline-summary token set'),
                and whether GitLab accepts it

Flags:
  -p, --profile NAME   profile to check (default: default)
      --json           print {ok, checks: [{id, status, summary, fix}]} instead of lines
      --skip LIST      checks not to run, e.g. --skip gitlab-token (get-token-only machines)
      --gitlab-url URL the GitLab of the service (default: $GITLAB_URL, the saved settings,
                       else https://gitlab.com)
      --store BACKEND  secret store: keychain | file | auto (default: $PIPELINE_SUMMARY_SECRET_STORE, else auto)
      --timeout DURATION
                       longest wait for each network answer (default: 10s)
  -h, --help           show this help

Examples:
  {program} -p ci
  {program} --json --skip gitlab-token

Exit codes: 0 every check passed (or was skipped), 1 a check failed or a bad flag.
`;

/** doctor's options, read from its flags. */
export interface DoctorCommandOptions {
  profile: string;
  json: boolean;
  skip: Set<CheckId>;
  gitlabUrl: string;
  store: SecretStoreMode | undefined;
  timeoutMs: number;
  home: string;
  /** Internal: the fresh process of the secret-store check reads this probe account and exits. */
  readProbe: string | undefined;
}

/** The doctor command, as `program` (`pipeline-summary doctor` or `get-token doctor`). */
export function doctorCommand(
  program: string,
  edges: Partial<DoctorEdges> = {},
): Command<DoctorCommandOptions> {
  return {
    program,
    help: HELP.replaceAll('{program}', program),
    parse(argv, env) {
      const { values } = parseFlags(
        argv,
        {
          options: {
            profile: { type: 'string', short: 'p', default: 'default' },
            json: { type: 'boolean' },
            skip: { type: 'string' },
            'gitlab-url': { type: 'string' },
            store: { type: 'string' },
            timeout: { type: 'string' },
            'read-probe': { type: 'string' },
            help: { type: 'boolean', short: 'h' },
          },
        },
        program,
      );
      if (values.help) return helpRequest();
      return {
        profile: values.profile,
        json: values.json === true,
        skip: parseSkip(values.skip),
        gitlabUrl: gitlabUrlOf(values['gitlab-url'], env),
        store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
        timeoutMs: values.timeout ? parseDuration(values.timeout) : 10_000,
        home: appHome(env),
        readProbe: values['read-probe'],
      };
    },
    async run(options, { io }) {
      if (options.readProbe !== undefined) return readProbe(options, io.env, io.stdout);
      const report = await runDoctor(
        {
          home: options.home,
          profile: options.profile,
          gitlabUrl: options.gitlabUrl,
          timeoutMs: options.timeoutMs,
          skip: options.skip,
        },
        {
          clock: edges.clock ?? systemClock,
          fetch: edges.fetch ?? globalThis.fetch,
          env: edges.env ?? io.env,
          usesEnvProxy: edges.usesEnvProxy ?? nodeUsesEnvProxy(io.env),
          // The notice of 'auto' falling back to the file would repeat the secret-store line.
          openStore:
            edges.openStore ??
            (() =>
              openSecretStore({
                home: options.home,
                mode: options.store,
                env: io.env,
                warn: () => undefined,
              })),
          readInFreshProcess:
            edges.readInFreshProcess ?? ((account) => readInChild(account, options, io.env)),
        },
      );
      io.stdout.write(options.json ? formatReportJson(report) : formatReport(report));
      return report.ok ? 0 : 1;
    },
  };
}

function parseSkip(value: string | undefined): Set<CheckId> {
  const ids = (value ?? '').split(/[,\s]+/).filter(Boolean);
  for (const id of ids) {
    if (!(CHECK_IDS as readonly string[]).includes(id)) {
      throw new CliError(
        'usage',
        `--skip: no check '${id}'; the checks are ${CHECK_IDS.join(', ')}`,
      );
    }
  }
  return new Set(ids as CheckId[]);
}

/** The GitLab the service would read: the flag, GITLAB_URL, the saved settings, gitlab.com. */
function gitlabUrlOf(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  let url: string;
  try {
    url = resolveSummarySettings({ gitlabUrl: flag }, env).gitlabUrl;
  } catch {
    url = flag ?? env.GITLAB_URL ?? 'https://gitlab.com';
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') return url.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  throw new CliError('usage', `--gitlab-url '${url}' is not an http(s) URL`);
}

/**
 * The fresh process's side: prints the probe secret and exits. Only probe accounts: this must not
 * become a way to print the client secrets.
 */
async function readProbe(
  options: DoctorCommandOptions,
  env: NodeJS.ProcessEnv,
  stdout: { write(text: string): unknown },
): Promise<number> {
  const account = options.readProbe!;
  if (!account.startsWith(PROBE_ACCOUNT_PREFIX)) {
    throw new CliError('usage', `--read-probe reads only ${PROBE_ACCOUNT_PREFIX}… accounts`);
  }
  const store = await openSecretStore({
    home: options.home,
    mode: options.store,
    env,
    warn: () => undefined,
  });
  stdout.write(`${(await store.get(account)) ?? ''}\n`);
  return 0;
}

/** Runs this binary again (`… doctor --read-probe ACCOUNT`) in the same environment. */
function readInChild(
  account: string,
  options: DoctorCommandOptions,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const script = process.argv[1];
  if (!script) return Promise.reject(new Error('cannot tell which binary to start again'));
  const args = [script, 'doctor', '--read-probe', account];
  if (options.store) args.push('--store', options.store);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(stderr.trim().split('\n').pop() || `it exited with ${code}`));
        return;
      }
      resolve(stdout.trim() || undefined);
    });
  });
}
