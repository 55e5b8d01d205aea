import { AppError, isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../platform/secret-store.ts';
import type { GitLabApi } from './api.ts';
import { GitLabClient } from './client.ts';
import { JobLogReader } from './job-log-stream.ts';
import type { RequestBudget } from './request-budget.ts';
import type { GitLabRequestInfo } from './transport.ts';

/** Which GitLab instance and group to read. */
export interface GitLabTarget {
  gitlabUrl: string;
  group: string | undefined;
  /** What the caller does with the group, for the "no group" message ("watch", "summarise"). */
  purpose?: string;
}

/** A GitLab connection and the group to read. */
export interface GitLabConnection {
  gitlab: GitLabApi;
  /** Job logs, streamed with a size cap (they can be hundreds of MiB). */
  jobLogs: JobLogReader;
  group: string;
  /** True when the connection is the built-in simulator. */
  demo: boolean;
  /**
   * Hears every request the client and the log reader make once it ends (metrics); returns the
   * unsubscribe function. Absent on connections a test builds by hand.
   */
  observeRequests?(listener: (info: GitLabRequestInfo) => void): () => void;
  /** The host's request budget the client draws from (metrics report what is left of it). */
  budget?: RequestBudget;
  /** Releases what the connection holds (the simulator in demo mode). */
  close(): Promise<void>;
}

/**
 * Connects to a real GitLab: the group is required and the token comes from GITLAB_TOKEN, else from
 * the secret store (`pipeline-summary token set`). Missing pieces fail with `not_configured` and a
 * message that says what to do.
 */
export async function connectGitLab(
  target: GitLabTarget,
  edges: { env: NodeJS.ProcessEnv; logger: Logger; secretStore?: SecretStore },
): Promise<GitLabConnection> {
  if (!target.group) {
    throw new AppError(
      'not_configured',
      `No group to ${target.purpose ?? 'watch'}: pass --group PATH, set GITLAB_GROUP, or try --demo`,
    );
  }
  const token =
    edges.env.GITLAB_TOKEN ||
    (await edges.secretStore?.get(SECRET_ACCOUNTS.gitlabToken(target.gitlabUrl)));
  if (!token) {
    throw new AppError(
      'not_configured',
      `No GitLab token for ${target.gitlabUrl}: set GITLAB_TOKEN or run 'pipeline-summary token set --url ${target.gitlabUrl}'`,
    );
  }
  return gitlabConnection({
    baseUrl: target.gitlabUrl,
    token,
    group: target.group,
    logger: edges.logger,
  });
}

/** A connection to the GitLab at `baseUrl` (a real one, the simulator, a test's). */
export function gitlabConnection(options: {
  baseUrl: string;
  token: string;
  group: string;
  logger?: Logger;
  /** GET retries of the client (default its own). */
  retries?: number;
  demo?: boolean;
  close?: () => Promise<void>;
}): GitLabConnection {
  // Built before anyone listens (the metrics come later in the composition): tell whoever is there.
  const listeners = new Set<(info: GitLabRequestInfo) => void>();
  const onRequest = (info: GitLabRequestInfo) => {
    for (const listener of listeners) {
      try {
        listener(info);
      } catch {
        // Called from a request's `finally`: counting it must never fail or mask the read itself.
      }
    }
  };
  const client = new GitLabClient({
    baseUrl: options.baseUrl,
    token: options.token,
    logger: options.logger,
    onRequest,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  });
  return {
    gitlab: client,
    jobLogs: new JobLogReader({
      baseUrl: client.baseUrl,
      token: options.token,
      budget: client.budget,
      onRequest,
    }),
    group: options.group,
    demo: options.demo ?? false,
    observeRequests(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    budget: client.budget,
    close: options.close ?? (async () => undefined),
  };
}

/**
 * Reads the group once: a wrong token or group will not fix itself, so those fail here with the
 * reason; GitLab being down might, so that only logs a warning.
 */
export async function checkGitLab(connection: GitLabConnection, logger: Logger): Promise<void> {
  try {
    await connection.gitlab.getGroup(connection.group);
  } catch (err) {
    // A bad token, a group GitLab refuses (403) or lacks, or an invalid path will not fix itself.
    if (isAppError(err, 'unauthorized', 'forbidden', 'not_found', 'bad_request')) throw err;
    logger.warn(
      { err: (err as Error).message },
      'GitLab is not reachable yet; starting anyway and retrying',
    );
  }
}
