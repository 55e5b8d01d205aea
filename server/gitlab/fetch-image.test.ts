import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { GitLabClient } from './client.ts';
import { ScriptedGitLabServer } from './testing/scripted-gitlab-server.ts';
import { rejectionOf } from '../platform/testing/rejection.ts';

const TOKEN = 'glpat-image-token';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const LIMITS = { maxBytes: 1024, timeoutMs: 2_000 };

let servers: ScriptedGitLabServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup() {
  const gitlab = await ScriptedGitLabServer.start();
  const avatars = await ScriptedGitLabServer.start(); // another origin, like gravatar.com
  servers.push(gitlab, avatars);
  const client = new GitLabClient({ baseUrl: gitlab.url, token: TOKEN });
  return { gitlab, avatars, client };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, AppError);

describe('fetchImage', () => {
  it('fetches an image, with the token only on the GitLab origin', async () => {
    const { gitlab, avatars, client } = await setup();
    const reply = { body: PNG, headers: { 'content-type': 'image/png; charset=binary' } };
    gitlab.on('/uploads/-/system/user/avatar/1/a.png', [reply]);
    avatars.on('/avatar/abc', [reply]);

    const own = await client.fetchImage(
      `${gitlab.url}/uploads/-/system/user/avatar/1/a.png`,
      LIMITS,
    );
    expect(own).toEqual({ contentType: 'image/png', body: PNG });
    expect(gitlab.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const foreign = await client.fetchImage(`${avatars.url}/avatar/abc?s=80`, LIMITS);
    expect(foreign.body).toEqual(PNG);
    const headers = avatars.requests[0]!.headers;
    expect(headers['private-token']).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
    expect(JSON.stringify(headers)).not.toContain(TOKEN);
  });

  it('rejects answers that are not images', async () => {
    const { avatars, client } = await setup();
    avatars.on('/avatar/html', [
      { body: '<html>login</html>', headers: { 'content-type': 'text/html' } },
    ]);
    const err = await failure(client.fetchImage(`${avatars.url}/avatar/html`, LIMITS));
    expect(err.code).toBe('unsupported_media_type');
    expect(err.message).toContain('text/html');
  });

  it('rejects an oversize image, whether declared or streamed', async () => {
    const { avatars, client } = await setup();
    const big = Buffer.alloc(64 * 1024, 1);
    avatars.on('/declared', [{ body: big, headers: { 'content-type': 'image/png' } }]);
    avatars.on('/streamed', [
      {
        body: big,
        // No content-length: the cap must hold while streaming.
        headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
      },
    ]);
    for (const path of ['/declared', '/streamed']) {
      const err = await failure(client.fetchImage(`${avatars.url}${path}`, LIMITS));
      expect(err.code).toBe('payload_too_large');
      expect(err.message).toContain('1 KiB');
    }
  });

  it('gives up after its own timeout', async () => {
    const { avatars, client } = await setup();
    avatars.on('/slow', [{ hang: true }]);
    const err = await failure(
      client.fetchImage(`${avatars.url}/slow`, { maxBytes: 1024, timeoutMs: 100 }),
    );
    expect(err.code).toBe('upstream_timeout');
  });

  it('follows a redirect within the origin but never to another host', async () => {
    const { gitlab, avatars, client } = await setup();
    gitlab.on('/moved', [{ status: 302, headers: { location: '/uploads/a.png' } }]);
    gitlab.on('/uploads/a.png', [{ body: PNG, headers: { 'content-type': 'image/png' } }]);
    gitlab.on('/away', [{ status: 302, headers: { location: `${avatars.url}/steal` } }]);
    avatars.on('/steal', [{ body: PNG, headers: { 'content-type': 'image/png' } }]);

    await expect(client.fetchImage(`${gitlab.url}/moved`, LIMITS)).resolves.toMatchObject({
      body: PNG,
    });
    const err = await failure(client.fetchImage(`${gitlab.url}/away`, LIMITS));
    expect(err.code).toBe('upstream_unavailable');
    expect(avatars.requests).toHaveLength(0);
  });

  it('maps a missing image to not_found', async () => {
    const { avatars, client } = await setup();
    const err = await failure(client.fetchImage(`${avatars.url}/nope`, LIMITS));
    expect(err.code).toBe('not_found');
  });
});
