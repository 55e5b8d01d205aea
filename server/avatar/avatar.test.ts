import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import { ScriptedGitLabServer } from '../gitlab/testing/scripted-gitlab-server.ts';
import { serveTestApp, type TestServer } from '../http/testing/test-server.ts';
import { silentLogger } from '../platform/logger.ts';
import { allowedAvatarUrl, avatarRoutes, type AvatarBudget } from './routes.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const AVATAR = '/uploads/-/system/user/avatar/7/avatar.png';

let gitlab: ScriptedGitLabServer;
let served: TestServer | undefined;
beforeEach(async () => {
  gitlab = await ScriptedGitLabServer.start();
});
afterEach(async () => {
  served?.server.closeAllConnections();
  await served?.close();
  served = undefined;
  await gitlab.close();
});

async function proxy(budget?: Partial<AvatarBudget>) {
  const client = new GitLabClient({ baseUrl: gitlab.url, token: 't', logger: silentLogger });
  served = await serveTestApp({ routes: [avatarRoutes({ gitlab: client, budget })] });
  const { base } = served;
  return (url: string) => fetch(`${base}/api/avatar?url=${encodeURIComponent(url)}`);
}

describe('avatar proxy (issue 9, items 3 and 6)', () => {
  it('accepts only avatar paths on the GitLab origin and on Gravatar', () => {
    const base = 'https://git.example.com/gitlab';
    expect(allowedAvatarUrl(`${base}${AVATAR}?width=64`, base).pathname).toBe(`/gitlab${AVATAR}`);
    expect(() =>
      allowedAvatarUrl('https://git.example.com/gitlab/api/v4/projects/1/jobs/2/trace', base),
    ).toThrow(/not an avatar image path/);
    expect(() =>
      allowedAvatarUrl('https://git.example.com/group/repo/-/raw/main/a.png', base),
    ).toThrow(/not an avatar/);
    expect(
      allowedAvatarUrl(
        'https://secure.gravatar.com/avatar/554506e208edaf6c95dc896105b898f0?s=80',
        base,
      ).hostname,
    ).toBe('secure.gravatar.com');
    expect(() => allowedAvatarUrl('https://secure.gravatar.com/some/other/page', base)).toThrow(
      /not an avatar/,
    );
  });

  it('never sends the token to a non-avatar GitLab path', async () => {
    const get = await proxy();
    const res = await get(`${gitlab.url}/api/v4/projects/1/jobs/2/trace`);
    expect(res.status).toBe(400);
    expect(gitlab.requests).toHaveLength(0);
  });

  it.each(['image/png, text/html', 'image/png image/svg+xml', 'image/x-unknown', 'text/html'])(
    "refuses an answer whose Content-Type is '%s'",
    async (type) => {
      gitlab.on(AVATAR, [{ body: PNG, headers: { 'content-type': type } }]);
      const res = await (await proxy())(`${gitlab.url}${AVATAR}`);
      expect(res.status).toBe(415);
      expect(((await res.json()) as { statusCode: number }).statusCode).toBe(415);
    },
  );

  it('caches avatars, and failures briefly, so repeats cost GitLab nothing', async () => {
    gitlab.on(AVATAR, [{ body: PNG, headers: { 'content-type': 'image/png' } }]);
    gitlab.on('/uploads/-/system/user/avatar/8/avatar.png', [{ status: 404, body: 'no' }]);
    const get = await proxy();
    for (let i = 0; i < 3; i++) {
      expect((await get(`${gitlab.url}${AVATAR}`)).status).toBe(200);
      expect((await get(`${gitlab.url}/uploads/-/system/user/avatar/8/avatar.png`)).status).toBe(
        404,
      );
    }
    expect(gitlab.requests).toHaveLength(2);
  });

  it('downloads with a small share of the budget and refuses past its queue', async () => {
    gitlab.on(/^\/uploads\//, () => ({
      body: PNG,
      headers: { 'content-type': 'image/png' },
      delayMs: 100,
    }));
    const get = await proxy({ maxConcurrent: 2, maxWaiting: 4 });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        get(`${gitlab.url}/uploads/-/system/user/avatar/${100 + i}/a.png`).then((r) => r.status),
      ),
    );
    expect(gitlab.maxInFlight).toBe(2);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 503)).toHaveLength(2);
  });
});
