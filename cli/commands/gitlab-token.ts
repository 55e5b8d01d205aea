/**
 * `pipeline-summary token set|clear`: stores or removes the GitLab token the service uses when
 * GITLAB_TOKEN is unset, in the secret store (OS keychain, or the 0600 file fallback).
 */
import {
  openSecretStore,
  parseSecretStoreMode,
  type SecretStoreMode,
} from '../../server/platform/os-secret-store.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { helpRequest, type Command } from '../command.ts';
import { CliError, EXIT_STATUS } from '../errors.ts';
import { parseFlags } from '../flags.ts';
import { readSecret } from '../io.ts';

const HELP = `Usage: pipeline-summary token set [--url URL] [--store keychain|file|auto]
       pipeline-summary token clear [--url URL] [--store keychain|file|auto]

set    reads a GitLab personal access token from a masked prompt (or standard input when it is
       not a terminal) and keeps it in the OS keychain — or, without one, in a 0600 file.
       'pipeline-summary serve' uses it when GITLAB_TOKEN is not set.
clear  removes it.

--url defaults to $GITLAB_URL, else https://gitlab.com. Tokens are kept per GitLab origin.
`;

/** token's options, read from its flags. */
export interface TokenCommandOptions {
  action: 'set' | 'clear';
  /** The GitLab origin the token belongs to. */
  url: string;
  store: SecretStoreMode | undefined;
}

/** The token command. */
export const tokenCommand: Command<TokenCommandOptions> = {
  program: 'pipeline-summary token',
  help: HELP,
  parse(argv, env) {
    const { values, positionals } = parseFlags(
      argv,
      {
        allowPositionals: true,
        options: {
          url: { type: 'string' },
          store: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      },
      'pipeline-summary token',
    );
    const [action, ...extra] = positionals;
    if (values.help) return helpRequest();
    if (action === undefined) return helpRequest(EXIT_STATUS.usage);
    if (extra.length > 0 || (action !== 'set' && action !== 'clear')) {
      throw new CliError(
        'usage',
        `unknown arguments '${positionals.join(' ')}'; use 'token set' or 'token clear'`,
      );
    }
    return {
      action,
      url: gitlabUrl(values.url ?? env.GITLAB_URL ?? 'https://gitlab.com'),
      store: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
    };
  },
  async run({ action, url, store: mode }, { io, report }) {
    const store = await openSecretStore({ mode, env: io.env, warn: report.info });
    const account = SECRET_ACCOUNTS.gitlabToken(url);
    if (action === 'set') {
      const token = await readSecret(io, `GitLab token for ${url}: `);
      await store.set(account, token);
      report.info(`stored the GitLab token for ${url} in ${store.backend}`);
    } else {
      const deleted = await store.delete(account);
      report.info(
        deleted
          ? `removed the GitLab token for ${url} from ${store.backend}`
          : `no GitLab token was stored for ${url} in ${store.backend}`,
      );
    }
    return 0;
  },
};

function gitlabUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
  } catch {
    // reported below
  }
  throw new CliError('usage', `--url '${value}' is not an http(s) URL`);
}
