/**
 * `pipeline-summary token set|clear`: stores or removes the GitLab token the service uses when
 * GITLAB_TOKEN is unset, in the secret store (OS keychain, or the 0600 file fallback).
 */
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { TokenError } from '../token/errors.ts';
import { openSecretStore, parseSecretStoreMode } from '../token/secret-store.ts';
import { parseFlags, processIo, readSecret, reporter, type CliIo } from '../token/cli-support.ts';

const HELP = `Usage: pipeline-summary token set [--url URL] [--store keychain|file|auto]
       pipeline-summary token clear [--url URL] [--store keychain|file|auto]

set    reads a GitLab personal access token from a masked prompt (or standard input when it is
       not a terminal) and keeps it in the OS keychain — or, without one, in a 0600 file.
       'pipeline-summary serve' uses it when GITLAB_TOKEN is not set.
clear  removes it.

--url defaults to $GITLAB_URL, else https://gitlab.com. Tokens are kept per GitLab origin.
`;

/** Runs `token set|clear`; resolves to the exit code. */
export async function run(argv: string[], io: CliIo = processIo()): Promise<number> {
  const program = 'pipeline-summary token';
  const report = reporter(io, program);
  try {
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
      program,
    );
    const [action, ...extra] = positionals;
    if (values.help || action === undefined) {
      io.stdout.write(HELP);
      return values.help ? 0 : 1;
    }
    if (extra.length > 0 || (action !== 'set' && action !== 'clear')) {
      throw new TokenError(
        'usage',
        `unknown arguments '${positionals.join(' ')}'; use 'token set' or 'token clear'`,
      );
    }
    const url = gitlabUrl(values.url ?? io.env.GITLAB_URL ?? 'https://gitlab.com');
    const store = await openSecretStore({
      mode: values.store === undefined ? undefined : parseSecretStoreMode(values.store),
      env: io.env,
      warn: report.info,
    });
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
  } catch (err) {
    return report.fail(err);
  }
}

function gitlabUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
  } catch {
    // reported below
  }
  throw new TokenError('usage', `--url '${value}' is not an http(s) URL`);
}
