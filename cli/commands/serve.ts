import path from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../server/platform/errors.ts';
import { createLogger } from '../../server/platform/logger.ts';
import { appHome } from '../../server/platform/paths.ts';
import { FileSettingsStore } from '../../server/settings/settings-store.ts';
import { resolveCadence } from '../../server/summary/cadence.ts';
import { parseSince } from '../../server/summary/since.ts';
import type { ServeConfig } from '../../server/start.ts';
import { helpRequest, type Command } from '../command.ts';
import { CliError } from '../errors.ts';
import { parseFlags } from '../flags.ts';

const HELP = `Usage: pipeline-summary serve [flags]

Runs the Pipeline Summary Service: the HTTP API and the dashboard on http://HOST:PORT.

Flags:
  --port N           port to listen on (env PORT; default 5100)
  --host ADDR        address to bind (default 127.0.0.1; anything else is reachable from the network)
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
Flags beat environment variables, which beat settings saved from the dashboard.`;

function usageError(message: string): never {
  throw new CliError('usage', message);
}

/** Resolves flags, environment and stored settings (in that order of precedence) into a config. */
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
        help: { type: 'boolean', short: 'h' },
      },
    },
    'pipeline-summary serve',
  );
  const flags = parsed.values;
  if (flags.help) return 'help';
  const demo = flags.demo ?? false;

  const portText = flags.port ?? env.PORT ?? '5100';
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) {
    usageError(`Invalid port '${portText}': use a number from 0 to 65535`);
  }
  const host = flags.host ?? '127.0.0.1';
  const home = env.PIPELINE_SUMMARY_HOME ? appHome(env) : undefined;
  // The demo keeps its settings apart so it never overwrites a real setup's group.
  const dataDir = path.resolve(
    flags['data-dir'] ?? (demo ? path.join(home ?? appHome(env), 'demo') : (home ?? appHome(env))),
  );
  const stored = existsSync(path.join(dataDir, 'settings.json'))
    ? new FileSettingsStore(dataDir).read()
    : {};

  const gitlabUrl =
    flags['gitlab-url'] ?? env.GITLAB_URL ?? stored.gitlabUrl ?? 'https://gitlab.com';
  if (!demo) {
    try {
      const url = new URL(gitlabUrl);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    } catch {
      usageError(
        `Invalid GitLab URL '${gitlabUrl}': use an http(s) URL such as https://gitlab.example.com`,
      );
    }
  }
  const since = flags.since ?? stored.since ?? '7d';
  parseSince(since);
  const group = flags.group ?? env.GITLAB_GROUP ?? stored.group;
  let cadence;
  try {
    cadence = resolveCadence({
      poll: flags['poll-interval'] ?? env.POLL_INTERVAL ?? stored.pollInterval,
      idle: flags['idle-interval'] ?? env.IDLE_INTERVAL ?? stored.idleInterval,
    });
  } catch (err) {
    usageError((err as Error).message);
  }
  return {
    cadence,
    port: Number(portText),
    host,
    gitlabUrl,
    group,
    since,
    demo,
    open: flags.open ?? false,
    dataDir,
  };
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
  const { startFromConfig } = await import('../../server/start.ts');
  const logger = createLogger();
  try {
    // The keychain is only needed for real GitLab tokens and AI keys; the demo runs without one.
    const secretStore = config.demo
      ? undefined
      : await (
          await import('../../server/platform/os-secret-store.ts')
        ).openSecretStore({ warn: (line) => logger.warn(line) });
    const service = await startFromConfig(config, {
      logger,
      dashboardDir: findDashboardDir(),
      env: process.env,
      secretStore,
    });
    process.stderr.write(
      `Pipeline Summary ${config.demo ? '(demo) ' : ''}listening on ${service.url}\n`,
    );
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
