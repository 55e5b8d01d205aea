import type { GitLabSettings } from './config.ts';
import { connectGitLab, gitlabConnection, type GitLabConnection } from './gitlab/connect.ts';
import type { Logger } from './platform/logger.ts';
import type { SecretStore } from './platform/secret-store.ts';

/**
 * Opens GitLab: the built-in simulator for the demo (its group unless one is given), else a real
 * instance with the token from the environment or the secret store.
 */
export async function openGitLab(
  settings: Pick<GitLabSettings, 'demo' | 'gitlabUrl' | 'group'> & {
    live?: boolean;
    purpose?: string;
  },
  edges: { env: NodeJS.ProcessEnv; logger: Logger; secretStore?: SecretStore },
): Promise<GitLabConnection> {
  if (!settings.demo) return connectGitLab(settings, edges);
  const { startSimulator } = await import('./simulator/index.ts');
  const simulator = await startSimulator({ live: settings.live ?? true });
  return gitlabConnection({
    baseUrl: simulator.url,
    token: simulator.token,
    group: settings.group ?? simulator.groupPath,
    logger: edges.logger,
    demo: true,
    close: () => simulator.close(),
  });
}
