import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../platform/secret-store.ts';
import type { GitLabApi } from './api.ts';
import { GitLabClient } from './client.ts';

/** Where to find GitLab: a real instance, or the built-in simulator with `demo`. */
export interface GitLabTarget {
  demo: boolean;
  gitlabUrl: string;
  group: string | undefined;
  /** With `demo`: whether the simulator's pipelines keep moving. Default true. */
  live?: boolean;
  /** What the caller does with the group, for the "no group" message ("watch", "summarise"). */
  purpose?: string;
}

/** A GitLab connection and the group to read. */
export interface GitLabConnection {
  gitlab: GitLabApi;
  group: string;
  demo: boolean;
  /** Stops the simulator in demo mode; nothing otherwise. */
  close(): Promise<void>;
}

/**
 * Connects to GitLab the one way `serve`, `summary` and the desktop app share: `--demo` starts the
 * simulator (its group unless one is given); otherwise the group is required and the token comes
 * from GITLAB_TOKEN, else from the secret store (`pipeline-summary token set`). Missing pieces fail
 * with a message that says what to do.
 */
export async function connectGitLab(
  target: GitLabTarget,
  edges: { env: NodeJS.ProcessEnv; logger: Logger; secretStore?: SecretStore },
): Promise<GitLabConnection> {
  const { logger } = edges;
  if (target.demo) {
    const { startSimulator } = await import('../simulator/index.ts');
    const simulator = await startSimulator({ live: target.live ?? true });
    return {
      gitlab: new GitLabClient({ baseUrl: simulator.url, token: simulator.token, logger }),
      group: target.group ?? simulator.groupPath,
      demo: true,
      close: () => simulator.close(),
    };
  }
  if (!target.group) {
    throw new AppError(
      'bad_request',
      `No group to ${target.purpose ?? 'watch'}: pass --group PATH, set GITLAB_GROUP, or try --demo`,
    );
  }
  const token =
    edges.env.GITLAB_TOKEN ||
    (await edges.secretStore?.get(SECRET_ACCOUNTS.gitlabToken(target.gitlabUrl)));
  if (!token) {
    throw new AppError(
      'unauthorized',
      `No GitLab token for ${target.gitlabUrl}: set GITLAB_TOKEN or run 'pipeline-summary token set --url ${target.gitlabUrl}'`,
    );
  }
  return {
    gitlab: new GitLabClient({ baseUrl: target.gitlabUrl, token, logger }),
    group: target.group,
    demo: false,
    close: async () => undefined,
  };
}
