/**
 * The GitLab token the service uses: GITLAB_TOKEN, else the one `pipeline-summary token set`
 * stored for the GitLab's origin (server/gitlab/connect.ts reads it the same way) — and whether
 * GitLab takes it: `GET /api/v4/user` answers the token's user, 401 for an expired or revoked one
 * (https://docs.gitlab.com/api/users/#get-the-current-user).
 */
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { networkCode } from '../oauth/flows/network-error.ts';
import { fail, pass, type CheckResult, type DoctorContext } from './check.ts';

/** The service's GitLab token is there and GitLab accepts it. */
export async function gitlabTokenCheck(ctx: DoctorContext): Promise<CheckResult> {
  const url = ctx.options.gitlabUrl;
  const setIt = `pipeline-summary token set --url ${url} (or set GITLAB_TOKEN)`;
  let token = ctx.edges.env.GITLAB_TOKEN || undefined;
  let source = 'GITLAB_TOKEN';
  if (!token) {
    if (ctx.store instanceof Error) {
      return fail(
        'gitlab-token',
        `GitLab token for ${url}: the secret store cannot be opened`,
        setIt,
      );
    }
    token = await ctx.store.get(SECRET_ACCOUNTS.gitlabToken(url));
    source = ctx.store.backend;
  }
  if (!token) {
    return fail(
      'gitlab-token',
      `GitLab token for ${url}: GITLAB_TOKEN is unset and ${source} holds none`,
      `${setIt}; or --skip gitlab-token if this machine only needs get-token`,
    );
  }
  let response: Response;
  try {
    response = await ctx.edges.fetch(`${url.replace(/\/+$/, '')}/api/v4/user`, {
      headers: { 'PRIVATE-TOKEN': token, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(ctx.options.timeoutMs),
    });
  } catch (err) {
    const code = networkCode(err) ?? ((err as Error).name === 'TimeoutError' ? 'timeout' : 'error');
    return fail(
      'gitlab-token',
      `GitLab token for ${url} (from ${source}): GitLab does not answer (${code})`,
      'check --gitlab-url (or GITLAB_URL) and your network',
    );
  }
  if (response.status === 401) {
    return fail(
      'gitlab-token',
      `GitLab token for ${url} (from ${source}): GitLab refuses it (401: expired, revoked, or for another GitLab)`,
      `create a new token with read_api and store it: ${setIt}`,
    );
  }
  if (!response.ok) {
    return fail(
      'gitlab-token',
      `GitLab token for ${url} (from ${source}): GitLab answered HTTP ${response.status}`,
      response.status === 403 ? 'give the token the read_api scope' : 'retry later',
    );
  }
  const user = (await response.json().catch(() => ({}))) as { username?: unknown };
  const who = typeof user.username === 'string' ? ` as @${user.username}` : '';
  return pass('gitlab-token', `GitLab token for ${url} (from ${source}): accepted${who}`);
}
