import { parseArgs } from 'node:util';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveServeConfig as resolveConfig, type ServeConfig } from '../../server/config.ts';
import { AppError } from '../../server/platform/errors.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { printError } from '../run-command.ts';

const HELP = `Usage: pipeline-summary serve [flags]

Runs the Pipeline Summary Service: the HTTP API and the dashboard on http://HOST:PORT.

Flags:
  --port N           port to listen on (env PORT; default 5100)
  --host ADDR        address to bind (default 127.0.0.1; anything else shares the service on the
                     network and asks every client for an access token)
  --public-url URL   a URL others open the service at (repeatable); its name passes the Host check
                     and, like a non-loopback --host, turns on the access token
  --tls-cert FILE    PEM certificate to serve HTTPS directly (with --tls-key)
  --tls-key FILE     PEM private key for --tls-cert
  --gitlab-url URL   GitLab base URL (env GITLAB_URL; default https://gitlab.com)
  --group G          group id or full path to watch, subgroups included (env GITLAB_GROUP)
  --since W          time window: <n>m, <n>h, <n>d or <n>w (default 7d)
  --demo             use the built-in GitLab simulator and the offline AI analyser (no credentials)
  --open             open the dashboard in the default browser once ready
  --data-dir DIR     where settings and the analysis database live (env PIPELINE_SUMMARY_HOME)
  -h, --help         show this help

The GitLab token comes from GITLAB_TOKEN, else from the secret store ('pipeline-summary token set').
Flags beat environment variables, which beat settings saved from the dashboard.`;

function usageError(message: string): never {
  throw new AppError('bad_request', message);
}

/** Parses the flags; server/config.ts resolves them over environment and stored settings. */
export function resolveServeConfig(argv: string[], env: NodeJS.ProcessEnv): ServeConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'gitlab-url': { type: 'string' },
        group: { type: 'string' },
        since: { type: 'string' },
        demo: { type: 'boolean' },
        open: { type: 'boolean' },
        'data-dir': { type: 'string' },
        'public-url': { type: 'string', multiple: true },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    usageError(`${(err as Error).message.split('\n')[0]}. Run 'pipeline-summary serve --help'.`);
  }
  const {
    'gitlab-url': gitlabUrl,
    'data-dir': dataDir,
    'public-url': publicUrl,
    'tls-cert': tlsCert,
    'tls-key': tlsKey,
    help,
    ...flags
  } = parsed.values;
  if (help) return 'help';
  return resolveConfig({ ...flags, gitlabUrl, dataDir, publicUrl, tlsCert, tlsKey }, env);
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

/** `pipeline-summary serve`. */
export async function run(argv: string[]): Promise<number> {
  let config: ServeConfig | 'help';
  try {
    config = resolveServeConfig(argv, process.env);
  } catch (err) {
    printError(err instanceof Error ? err.message : String(err));
    return 2;
  }
  if (config === 'help') {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  // Before anything loads better-sqlite3: on the wrong Node it would segfault without a word.
  const { nodeRuntimeProblem } = await import('../../server/platform/node-runtime.ts');
  const problem = nodeRuntimeProblem();
  if (problem) {
    printError(problem);
    return 1;
  }
  const { composeService } = await import('../../server/compose.ts');
  const logger = createLogger();
  try {
    // The keychain holds real GitLab tokens, AI keys and the access token of a shared service;
    // a demo on loopback needs none of them.
    const { isShared } = await import('../../server/http/exposure.ts');
    const secretStore =
      config.demo && !isShared(config.host, config.publicUrls)
        ? undefined
        : await (
            await import('../token/secret-store.ts')
          ).openSecretStore({ warn: (line) => logger.warn(line) });
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
    printError(
      err instanceof AppError ? err.message : `could not start: ${(err as Error).message}`,
    );
    return 1;
  }
}
