import { resolveSummarySettings } from '../../server/config.ts';
import type { SummaryResponse } from '../../server/contract.ts';
import { AppError } from '../../server/platform/errors.ts';
import { helpRequest, type Command } from '../command.ts';
import { CliError } from '../errors.ts';
import { parseFlags } from '../flags.ts';
import { renderSummaryTable } from '../summary/render-table.ts';
import { parseWatchInterval, runWatch } from '../summary/watch.ts';

const HELP = `Usage: pipeline-summary summary [flags]

Prints a table of the group's pipelines per project (the dashboard's numbers, for shells and SSH).

Flags:
  --group G          group id or full path, subgroups included (env GITLAB_GROUP; default: saved)
  --since W          time window: <n>m, <n>h, <n>d or <n>w (default: saved, else 7d)
  --watch INTERVAL   refresh in place every INTERVAL (e.g. 30s, 2m) until Ctrl+C
  --json             print the summary as JSON (the /api/pipelines/summary shape)
  --gitlab-url URL   GitLab base URL (env GITLAB_URL; default: saved, else https://gitlab.com)
  --demo             summarise the built-in GitLab simulator (no credentials)
  --data-dir DIR     where saved settings live (env PIPELINE_SUMMARY_HOME)
  -h, --help         show this help

The GitLab token comes from GITLAB_TOKEN, else from 'pipeline-summary token set'. Colours only when stdout is a terminal (NO_COLOR disables).`;

/** The resolved options of one `summary` run. */
export interface SummaryCommandConfig {
  group: string | undefined;
  since: string;
  watchMs: number | null;
  json: boolean;
  gitlabUrl: string;
  demo: boolean;
}

/** Flags beat environment, which beats the settings saved from the dashboard (DESIGN §3.2). */
export function resolveSummaryConfig(
  argv: string[],
  env: NodeJS.ProcessEnv,
): SummaryCommandConfig | 'help' {
  const { values } = parseFlags(
    argv,
    {
      allowPositionals: false,
      options: {
        group: { type: 'string' },
        since: { type: 'string' },
        watch: { type: 'string' },
        json: { type: 'boolean' },
        'gitlab-url': { type: 'string' },
        demo: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    'pipeline-summary summary',
  );
  if (values.help) return 'help';
  const settings = resolveSummarySettings(
    {
      group: values.group,
      since: values.since,
      gitlabUrl: values['gitlab-url'],
      demo: values.demo,
      dataDir: values['data-dir'],
    },
    env,
  );
  let watchMs: number | null = null;
  if (values.watch !== undefined) {
    try {
      watchMs = parseWatchInterval(values.watch);
    } catch (err) {
      throw new CliError('usage', (err as Error).message, { cause: err });
    }
  }
  return {
    group: settings.group,
    since: settings.since,
    watchMs,
    json: values.json ?? false,
    gitlabUrl: settings.gitlabUrl,
    demo: settings.demo,
  };
}

async function connect(config: SummaryCommandConfig, env: NodeJS.ProcessEnv) {
  const { openGitLab } = await import('../../server/gitlab-source.ts');
  const { silentLogger } = await import('../../server/platform/logger.ts');
  // The keychain is only needed for a real GitLab token, not for the demo.
  const secretStore =
    config.demo || env.GITLAB_TOKEN
      ? undefined
      : await (await import('../../server/platform/os-secret-store.ts')).openSecretStore({ env });
  return openGitLab(
    { ...config, live: config.watchMs !== null, purpose: 'summarise' },
    { env, logger: silentLogger, secretStore },
  );
}

/** `pipeline-summary summary`: flags → config (resolveSummaryConfig), then print or watch. */
export const summaryCommand: Command<SummaryCommandConfig> = {
  program: 'pipeline-summary summary',
  // The summary's messages have always been prefixed with the product's name only.
  errorPrefix: 'pipeline-summary',
  help: HELP,
  parse(argv, env) {
    const config = resolveSummaryConfig(argv, env);
    return config === 'help' ? helpRequest() : config;
  },
  run: runSummary,
};

/** Loads the summary once and prints it, or redraws it every interval until Ctrl+C. */
async function runSummary(config: SummaryCommandConfig): Promise<number> {
  const out = process.stdout;
  const color = out.isTTY === true && !process.env.NO_COLOR;
  const render = (summary: SummaryResponse) =>
    config.json
      ? JSON.stringify(summary, null, config.watchMs === null ? 2 : 0) + '\n'
      : renderSummaryTable(summary, {
          color,
          // Piped output is for scripts: never truncate names to a terminal width there.
          width: out.isTTY ? (out.columns ?? 100) : 10_000,
          now: new Date(),
        });

  let connection;
  try {
    connection = await connect(config, process.env);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new CliError('general', `cannot connect: ${(err as Error).message}`, { cause: err });
  }
  const { loadSummaryOnce } = await import('../../server/summary/once.ts');
  try {
    const { summary, poller } = await loadSummaryOnce({
      gitlab: connection.gitlab,
      group: connection.group,
      since: config.since,
    });
    // Nothing loaded and GitLab failing: say why on stderr and fail, rather than print an empty table.
    if (summary.status?.state === 'degraded' && summary.projects.length === 0) {
      throw new CliError('general', summary.status.last_error ?? 'GitLab did not answer');
    }
    if (config.watchMs === null) {
      out.write(render(summary));
      return 0;
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    let first = true;
    await runWatch({
      intervalMs: config.watchMs,
      out: { write: (t) => out.write(t), isTTY: out.isTTY === true && !config.json },
      signal: controller.signal,
      frame: async () => {
        if (!first) {
          await poller.cycleOnce();
          await poller.detailsSettled();
        }
        first = false;
        return render(poller.snapshot);
      },
    });
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    return 0;
  } catch (err) {
    if (err instanceof AppError || err instanceof CliError) throw err;
    throw new CliError('general', (err as Error).message, { cause: err });
  } finally {
    await connection.close();
  }
}
