import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveServeConfig as resolveConfig, type ServeConfig } from '../../server/config.ts';
import { AppError } from '../../server/platform/errors.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { helpRequest, type Command } from '../command.ts';
import { CliError } from '../errors.ts';
import { parseFlags } from '../flags.ts';

const HELP = `Usage: pipeline-summary serve [flags]

Runs the Pipeline Summary Service: the HTTP API and the dashboard on http://HOST:PORT.

Flags:
  --port N           port to listen on (env PORT; default 5100)
  --host ADDR        address to bind (default 127.0.0.1; anything else shares the service on the
                     network and asks every client for an access token)
  --public-url URL   a URL others open the service at (repeatable); its name passes the Host check
                     and, like a non-loopback --host, turns on the access token
  --trusted-proxy ADDR
                     a reverse proxy's address as the service sees it, or a range (10.0.0.0/8;
                     repeatable or comma-separated): from it, X-Forwarded-For (else Forwarded)
                     names the client, read from the right, so each client behind the proxy
                     gets its own wrong-token budget. Trust only addresses nothing but the proxy
                     connects from. Ignored unless shared
  --trusted-proxy-header H
                     the one header the proxy maintains, forwarded or x-forwarded-for; the
                     other is then ignored (default: X-Forwarded-For, else Forwarded)
  --tls-cert FILE    PEM certificate to serve HTTPS directly (with --tls-key)
  --tls-key FILE     PEM private key for --tls-cert
  --gitlab-url URL   GitLab base URL (env GITLAB_URL; default https://gitlab.com)
  --group G          group id or full path to watch, subgroups included (env GITLAB_GROUP)
  --since W          time window: <n>m, <n>h, <n>d or <n>w (default 7d)
  --poll-interval T  how often to poll while a pipeline is not finished (env POLL_INTERVAL;
                     default 10s, at least 5s)
  --idle-interval T  how often to poll when everything is finished (env IDLE_INTERVAL;
                     default 60s, at least 15s)
  --demo             use the built-in GitLab simulator and the offline AI analyser (no credentials)
  --open             open the dashboard in the default browser once ready
  --data-dir DIR     where settings and the analysis database live (env PIPELINE_SUMMARY_HOME)
  -h, --help         show this help

The GitLab token comes from GITLAB_TOKEN, else from the secret store ('pipeline-summary token set').
Flags beat environment variables, which beat settings saved from the dashboard.

Besides the dashboard and /api (described by /api/openapi.json), the service serves
  /cc.xml            a cctray feed of the default branches (?refs=a,b for more) for CCMenu,
                     Nevergreen and other menu-bar build monitors
  /metrics           Prometheus metrics (pipelines, broken branches, flaky jobs, GitLab requests)
Shared on a network, both take the access token as a Bearer token or as the Basic-auth password.`;

/** Parses the flags; server/config.ts resolves them over environment and stored settings. */
export function resolveServeConfig(argv: string[], env: NodeJS.ProcessEnv): ServeConfig | 'help' {
  const parsed = parseFlags(
    argv,
    {
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'gitlab-url': { type: 'string' },
        group: { type: 'string' },
        since: { type: 'string' },
        'poll-interval': { type: 'string' },
        'idle-interval': { type: 'string' },
        demo: { type: 'boolean' },
        open: { type: 'boolean' },
        'data-dir': { type: 'string' },
        'public-url': { type: 'string', multiple: true },
        'trusted-proxy': { type: 'string', multiple: true },
        'trusted-proxy-header': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    'pipeline-summary serve',
  );
  const {
    'gitlab-url': gitlabUrl,
    'data-dir': dataDir,
    'public-url': publicUrl,
    'trusted-proxy': trustedProxy,
    'trusted-proxy-header': trustedProxyHeader,
    'tls-cert': tlsCert,
    'tls-key': tlsKey,
    'poll-interval': pollInterval,
    'idle-interval': idleInterval,
    help,
    ...flags
  } = parsed.values;
  if (help) return 'help';
  return resolveConfig(
    {
      ...flags,
      gitlabUrl,
      dataDir,
      publicUrl,
      trustedProxy,
      trustedProxyHeader,
      tlsCert,
      tlsKey,
      pollInterval,
      idleInterval,
    },
    env,
  );
}

/** Where the built dashboard lives relative to this bundle (dist/cli → dist/renderer). */
function findDashboardDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    path.resolve(here, '../renderer'),
    path.resolve(here, '../../dist/renderer'),
    path.resolve(here, '../../../dist/renderer'),
  ]) {
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
  }
  return undefined;
}

/** `pipeline-summary serve`: flags → config (resolveServeConfig), then start and wait for a signal. */
export const serveCommand: Command<ServeConfig> = {
  program: 'pipeline-summary serve',
  // The service's messages have always been prefixed with the product's name only.
  errorPrefix: 'pipeline-summary',
  help: HELP,
  parse(argv, env) {
    const config = resolveServeConfig(argv, env);
    return config === 'help' ? helpRequest() : config;
  },
  run: runServe,
};

/** Starts the service with `config` and resolves to the exit code once it has stopped. */
async function runServe(config: ServeConfig): Promise<number> {
  // Before anything loads better-sqlite3: on the wrong Node it would segfault without a word.
  const { nodeRuntimeProblem } = await import('../../server/platform/node-runtime.ts');
  const problem = nodeRuntimeProblem();
  if (problem) throw new CliError('general', problem);
  // Before the service allocates: its heap is large and stable (see heap-growth.ts).
  (await import('../../server/platform/heap-growth.ts')).limitHeapGrowth();
  const { composeService } = await import('../../server/compose.ts');
  const { isShared } = await import('../../server/http/exposure.ts');
  const logger = createLogger();
  try {
    // The keychain holds real GitLab tokens, AI keys and the access token of a shared service;
    // a demo on loopback needs none of them.
    const secretStore =
      config.demo && !isShared(config.host, config.publicUrls)
        ? undefined
        : await (
            await import('../../server/platform/os-secret-store.ts')
          ).openSecretStore({
            // A note for the person at the terminal, read like the other start-up lines (not JSON).
            warn: (line) => process.stderr.write(`${line}\n`),
          });
    const service = await composeService(config, {
      logger,
      dashboardDir: findDashboardDir(),
      env: process.env,
      secretStore,
    });
    process.stderr.write(
      `Pipeline Summary ${config.demo ? '(demo) ' : ''}listening on ${service.url}\n`,
    );
    const { accessToken } = service.exposure;
    if (accessToken) {
      for (const url of config.publicUrls) process.stderr.write(`Public URL: ${url}\n`);
      process.stderr.write(
        accessToken.created
          ? `Shared on the network: every client needs this access token (shown once; kept in ${secretStore!.backend}):\n${accessToken.token}\n`
          : `Shared on the network: every client needs the access token shown when it was created (kept in ${secretStore!.backend}).\n`,
      );
      if (config.publicUrls.length > 0 && !config.tls && !config.trustedProxies?.length) {
        process.stderr.write(
          "Behind a reverse proxy all clients share one wrong-token budget (5 a minute); give the proxy's address with --trusted-proxy to count each client apart.\n",
        );
      }
    }
    if (config.open) {
      const { default: open } = await import('open');
      await open(service.url).catch(() =>
        process.stderr.write(`Could not open a browser; visit ${service.url}\n`),
      );
    }
    await new Promise<void>((resolve) => {
      const shutdown = (signal: string) => {
        process.stderr.write(`\n${signal} received, shutting down…\n`);
        service.stop().then(resolve, resolve);
      };
      process.once('SIGINT', () => shutdown('SIGINT'));
      process.once('SIGTERM', () => shutdown('SIGTERM'));
    });
    return 0;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new CliError('general', `could not start: ${(err as Error).message}`, { cause: err });
  }
}
