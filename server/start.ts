import path from 'node:path';
import { aiConfigFrom, aiRoutes, AnalysisStore, createAiService } from './ai/index.ts';
import { isAppError } from './platform/errors.ts';
import { connectGitLab } from './gitlab/connect.ts';
import type { Logger } from './platform/logger.ts';
import { startService, type PipelineSummaryService } from './service.ts';
import type { SecretStore } from './platform/secret-store.ts';
import { FileSettingsStore } from './settings/settings-store.ts';

/** Resolved configuration of one `serve` run (see cli/commands/serve.ts for precedence). */
export interface ServeConfig {
  port: number;
  host: string;
  gitlabUrl: string;
  group: string | undefined;
  since: string;
  demo: boolean;
  open: boolean;
  dataDir: string;
  /** The poller's cadences (`--poll-interval`, `--idle-interval`); default 10 s / 60 s. */
  cadence?: { fastIntervalMs: number; slowIntervalMs: number };
}

/** Edges `startFromConfig` needs from its caller (the CLI or the Electron main process). */
export interface StartEdges {
  logger: Logger;
  env: NodeJS.ProcessEnv;
  dashboardDir?: string;
  /** The secret store (OS keychain or its file fallback) for the GitLab token and the AI key. */
  secretStore?: SecretStore;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * Starts the service for a `serve` configuration: the GitLab client (or, with --demo, the built-in
 * simulator), the settings store in the data dir, and the HTTP server. Misconfiguration (no group,
 * no token, a token GitLab rejects, an unknown group) fails here with a message that says what to do.
 */
export async function startFromConfig(
  config: ServeConfig,
  edges: StartEdges,
): Promise<PipelineSummaryService> {
  const { logger } = edges;
  const settingsStore = new FileSettingsStore(config.dataDir);
  const connection = await connectGitLab(
    { demo: config.demo, gitlabUrl: config.gitlabUrl, group: config.group },
    edges,
  );
  const { gitlab, group } = connection;
  const closeSimulator = connection.demo ? () => connection.close() : undefined;
  // The simulator moves every few seconds; poll it briskly so the demo feels alive.
  const timing = config.demo ? { fastIntervalMs: 2_000, slowIntervalMs: 5_000 } : config.cadence;
  if (!config.demo) {
    try {
      await gitlab.getGroup(group);
    } catch (err) {
      // A wrong token or group will not fix itself: stop with the reason. GitLab being down might.
      if (isAppError(err, 'unauthorized', 'not_found')) throw err;
      logger.warn(
        { err: (err as Error).message },
        'GitLab is not reachable yet; starting anyway and retrying',
      );
    }
  }

  if (!LOOPBACK.has(config.host)) {
    logger.warn(
      `Listening on ${config.host}: the service is reachable from other machines and has no authentication`,
    );
  }
  // The demo analyses offline unless AI_PROVIDER asks for a real provider, so it needs no key.
  const analysisStore = AnalysisStore.open(path.join(config.dataDir, 'analyses.db'), logger);
  const ai = createAiService({
    gitlab,
    store: analysisStore,
    logger,
    config:
      config.demo && !edges.env.AI_PROVIDER ? { provider: 'offline' } : aiConfigFrom(edges.env),
    secretStore: edges.secretStore,
    projectName: (id) => projectName(id),
  });
  let projectName: (id: number) => string | undefined = () => undefined;
  try {
    return await startService({
      gitlab,
      group,
      since: config.since,
      settingsStore,
      logger,
      host: config.host,
      port: config.port,
      timing,
      dashboardDir: edges.dashboardDir,
      security: LOOPBACK.has(config.host)
        ? undefined
        : WILDCARD.has(config.host)
          ? { anyHost: true }
          : { allowedHosts: [config.host.includes(':') ? `[${config.host}]` : config.host] },
      extraRoutes: (poller) => {
        projectName = (id) => poller.projectName(id);
        return [aiRoutes(ai)];
      },
      onStop: async () => {
        analysisStore.close();
        await closeSimulator?.();
      },
    });
  } catch (err) {
    analysisStore.close();
    await closeSimulator?.();
    throw err;
  }
}
