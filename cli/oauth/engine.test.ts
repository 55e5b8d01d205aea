import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/platform/clock.ts';
import {
  getToken,
  listProfiles,
  readCachedToken,
  refreshToken,
  type TokenEngineEdges,
} from './engine.ts';
import { TokenError } from './errors.ts';
import { addProfile, fileStore, freePort, jwtClaims, startBlackhole } from './testing/fixtures.ts';
import { ScriptedBrowser } from './testing/scripted-browser.ts';
import { TEST_CLIENTS, TEST_RESOURCE } from './testing/test-provider.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed({ webRedirect: true });
let clock: ManualClock;
let notices: string[];
let browser: ScriptedBrowser;
let browserPages: Promise<unknown>[];

beforeEach(() => {
  clock = new ManualClock(Date.now());
  notices = [];
  browser = new ScriptedBrowser();
  browserPages = [];
});

/** Engine edges: file secrets, manual clock, the scripted browser as "the user". */
function edges(overrides: Partial<TokenEngineEdges> & { deny?: boolean } = {}): TokenEngineEdges {
  return {
    clock,
    secretStore: fileStore(bed.home),
    notify: (line) => notices.push(line),
    openBrowser: async (url) => {
      browserPages.push(browser.signIn(url, { deny: overrides.deny }));
    },
    sleep: async () => undefined,
    ...overrides,
  };
}

const serviceProfile = (name = 'svc', secret?: string) => bed.serviceProfile(name, secret);

describe('client-credentials', () => {
  it('issues a JWT for the profile, then answers from the cache without a request', async () => {
    await serviceProfile();
    const before = bed.provider.count('client_credentials');
    const first = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(first.source).toBe('issued');
    expect(first.response.token_type).toMatch(/bearer/i);
    expect(first.response.scope).toBe('api:read');
    expect(first.response.expires_in).toBe(3600);
    expect(jwtClaims(first.response.access_token)).toMatchObject({
      aud: TEST_RESOURCE,
      client_id: 'service',
    });
    const second = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(second.source).toBe('cache');
    expect(second.response.access_token).toBe(first.response.access_token);
    expect(bed.provider.count('client_credentials')).toBe(before + 1);
  });

  it('keeps the cache encrypted and private (0600 file, 0700 dir)', async () => {
    await serviceProfile();
    const { response } = await getToken({ profile: 'svc', home: bed.home }, edges());
    const raw = await readFile(path.join(bed.home, 'token-cache.json'), 'utf8');
    expect(raw).not.toContain(response.access_token.slice(0, 40));
    expect(JSON.parse(raw)).toMatchObject({
      format: 'pipeline-summary-token-cache',
      cipher: 'aes-256-gcm',
    });
    expect((await stat(path.join(bed.home, 'token-cache.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(bed.home, 'secrets'))).mode & 0o777).toBe(0o700);
  });

  it('--force fetches a new token and stores it; --no-cache neither reads nor writes', async () => {
    await serviceProfile();
    const first = await getToken({ profile: 'svc', home: bed.home }, edges());
    const forced = await getToken({ profile: 'svc', home: bed.home, force: true }, edges());
    expect(forced.source).toBe('issued');
    expect(forced.response.access_token).not.toBe(first.response.access_token);
    const cached = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(cached.response.access_token).toBe(forced.response.access_token);

    const uncached = await getToken({ profile: 'svc', home: bed.home, noCache: true }, edges());
    expect(uncached.source).toBe('issued');
    expect(uncached.response.access_token).not.toBe(forced.response.access_token);
    const after = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(after.response.access_token).toBe(forced.response.access_token);
  });

  it('keys the cache by scope set: another --scope is another token, in any order', async () => {
    await serviceProfile();
    const read = await getToken({ profile: 'svc', home: bed.home }, edges());
    const both = await getToken(
      { profile: 'svc', home: bed.home, scope: 'api:write api:read' },
      edges(),
    );
    expect(both.response.access_token).not.toBe(read.response.access_token);
    expect(both.response.scope.split(' ').sort()).toEqual(['api:read', 'api:write']);
    const again = await getToken(
      { profile: 'svc', home: bed.home, scope: 'api:read  api:write' },
      edges(),
    );
    expect(again.source).toBe('cache');
    expect(again.response.access_token).toBe(both.response.access_token);
  });

  it('gets a new token when the cached one is within 5 minutes of expiry', async () => {
    await serviceProfile();
    const first = await getToken({ profile: 'svc', home: bed.home }, edges());
    clock.advance(3600_000 - 4 * 60_000);
    const next = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(next.source).toBe('issued');
    expect(next.response.access_token).not.toBe(first.response.access_token);
  });

  it('fails with auth_failed on a wrong secret, saying what to do', async () => {
    await serviceProfile('svc', 'wrong-secret');
    const err = await getToken({ profile: 'svc', home: bed.home }, edges()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TokenError);
    expect(err).toMatchObject({ code: 'auth_failed' });
    expect((err as Error).message).toMatch(/invalid_client.*client-secret-stdin/);
    expect((err as Error).message).not.toContain('wrong-secret');
  });

  it('fails with profile_not_found for an unknown profile', async () => {
    await expect(getToken({ profile: 'nope', home: bed.home }, edges())).rejects.toMatchObject({
      code: 'profile_not_found',
      message: expect.stringContaining("profile 'nope' not found"),
    });
  });

  it('fails with network when the issuer refuses connections', async () => {
    const port = await freePort();
    await addProfile(
      bed.home,
      { name: 'down', issuer: `http://127.0.0.1:${port}`, clientId: 'x' },
      's',
    );
    await expect(getToken({ profile: 'down', home: bed.home }, edges())).rejects.toMatchObject({
      code: 'network',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('fails with timeout when the issuer accepts but never answers', async () => {
    const hole = await startBlackhole();
    try {
      await addProfile(bed.home, { name: 'hang', issuer: hole.url, clientId: 'x' }, 's');
      // The deadline runs on the injected clock: move it past --timeout once the request is out.
      const pending = getToken({ profile: 'hang', home: bed.home, timeoutMs: 60_000 }, edges());
      await hole.connected;
      clock.advance(60_000);
      await expect(pending).rejects.toMatchObject({
        code: 'timeout',
        message: expect.stringContaining(hole.url),
      });
    } finally {
      await hole.close();
    }
  });

  it('moves a corrupt cache aside and rebuilds it', async () => {
    await serviceProfile();
    await getToken({ profile: 'svc', home: bed.home }, edges());
    await writeFile(
      path.join(bed.home, 'token-cache.json'),
      '{"format":"pipeline-summary-token-cache", garbage',
    );
    const next = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(next.source).toBe('issued');
    expect(notices.join('\n')).toMatch(/moved it to .*token-cache\.json\.corrupt-/);
    const files = await readdir(bed.home);
    expect(files.filter((f) => f.startsWith('token-cache.json.corrupt-'))).toHaveLength(1);
    expect((await getToken({ profile: 'svc', home: bed.home }, edges())).source).toBe('cache');
  });

  it('moves aside a cache whose key is gone from the secret store', async () => {
    await serviceProfile();
    await getToken({ profile: 'svc', home: bed.home }, edges());
    await fileStore(bed.home).delete('token-cache-key');
    const next = await getToken({ profile: 'svc', home: bed.home }, edges());
    expect(next.source).toBe('issued');
    expect(notices.join('\n')).toMatch(/key is missing/);
  });
});

describe('browser flows', () => {
  async function interactiveProfile(extra: Record<string, unknown> = {}) {
    return addProfile(bed.home, {
      name: 'me',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.cli.id,
      scopes: ['openid', 'offline_access', 'api:read'],
      flow: 'interactive',
      ...extra,
    });
  }

  it('interactive: PKCE through a loopback redirect, signed in by the user', async () => {
    await interactiveProfile();
    const result = await getToken({ profile: 'me', home: bed.home }, edges());
    expect(result.source).toBe('issued');
    expect(result.response.refresh_token).not.toBe('');
    expect(jwtClaims(result.response.access_token)).toMatchObject({
      sub: 'alice',
      aud: TEST_RESOURCE,
    });
    expect(notices.join('\n')).toMatch(/visit this URL:\n {2}http:\/\/127\.0\.0\.1:\d+\/auth\?/);
    const page = (await browserPages[0]) as { status: number; body: string };
    expect(page.status).toBe(200);
    expect(page.body).toContain('You can close this tab');
    const authUrl = new URL(browser.visited[0]!);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('redirect_uri')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    );
  });

  it('refreshes an expired entry with the refresh token, which rotates', async () => {
    await interactiveProfile();
    const first = await getToken({ profile: 'me', home: bed.home }, edges());
    clock.advance(3600_000);
    const before = bed.provider.count('refresh_token');
    const refreshed = await getToken({ profile: 'me', home: bed.home }, edges());
    expect(refreshed.source).toBe('refreshed');
    expect(bed.provider.count('refresh_token')).toBe(before + 1);
    expect(refreshed.response.access_token).not.toBe(first.response.access_token);
    expect(refreshed.response.refresh_token).not.toBe(first.response.refresh_token);
    expect(browserPages).toHaveLength(1);

    // The rotated-away refresh token is dead at the provider: the cache must never replay it.
    const res = await fetch(`${bed.provider.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: first.response.refresh_token,
        client_id: TEST_CLIENTS.cli.id,
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('signs in again when the cached refresh token is refused', async () => {
    await interactiveProfile();
    await getToken({ profile: 'me', home: bed.home }, edges());
    clock.advance(3600_000);
    await refreshToken({ profile: 'me', home: bed.home }, edges());
    // Replay protection revoked nothing yet; now revoke by replaying an old token ourselves.
    const entry = (await readCachedToken({ profile: 'me', home: bed.home }, edges())).entry!;
    await fetch(`${bed.provider.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: entry.refreshToken!, client_id: TEST_CLIENTS.cli.id }),
    });
    clock.advance(3600_000);
    const again = await getToken({ profile: 'me', home: bed.home }, edges());
    expect(again.source).toBe('issued');
    expect(browserPages).toHaveLength(2);
    expect(notices.join('\n')).toMatch(/refresh token of profile 'me' was refused/);
  });

  it("authorization-code: confidential client on the profile's fixed redirect port", async () => {
    await addProfile(
      bed.home,
      {
        name: 'web',
        issuer: bed.provider.issuer,
        clientId: TEST_CLIENTS.web.id,
        scopes: ['openid', 'api:read'],
        flow: 'authorization-code',
        redirectPort: bed.webPort,
      },
      TEST_CLIENTS.web.secret,
    );
    const result = await getToken({ profile: 'web', home: bed.home }, edges());
    expect(result.source).toBe('issued');
    expect(result.idToken).toBeTruthy();
    expect(jwtClaims(result.response.access_token)).toMatchObject({
      client_id: 'web',
      sub: 'alice',
    });
    expect(new URL(browser.visited[0]!).searchParams.get('redirect_uri')).toBe(
      `http://127.0.0.1:${bed.webPort}/callback`,
    );
  });

  it('ignores a callback with the wrong state and still completes', async () => {
    await interactiveProfile();
    let forged: Response | undefined;
    const result = await getToken(
      { profile: 'me', home: bed.home },
      edges({
        openBrowser: async (url) => {
          const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
          redirect.searchParams.set('code', 'attacker-code');
          redirect.searchParams.set('state', 'forged');
          forged = await fetch(redirect);
          browserPages.push(browser.signIn(url));
        },
      }),
    );
    expect(forged?.status).toBe(400);
    expect(result.source).toBe('issued');
  });

  it('prompt=none answered with login_required retries in the same tab with a login page', async () => {
    await interactiveProfile({ prompt: 'none' });
    const result = await getToken({ profile: 'me', home: bed.home }, edges());
    expect(result.source).toBe('issued');
    const prompts = browser.visited
      .filter((u) => u.includes('/auth?'))
      .map((u) => new URL(u).searchParams.get('prompt'));
    expect(prompts).toEqual(['none', null]);
  });

  it('a user who cancels sign-in gets auth_failed (access_denied)', async () => {
    await interactiveProfile();
    await expect(
      getToken({ profile: 'me', home: bed.home }, edges({ deny: true })),
    ).rejects.toMatchObject({
      code: 'auth_failed',
      message: expect.stringContaining('access_denied'),
    });
  });
});

describe('device-code', () => {
  it('shows the code, polls at the server interval until the user approves', async () => {
    await addProfile(bed.home, {
      name: 'tv',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.cli.id,
      scopes: ['openid', 'offline_access', 'api:read'],
      flow: 'device-code',
    });
    const waits: number[] = [];
    let approval: Promise<unknown> | undefined;
    const result = await getToken(
      { profile: 'tv', home: bed.home },
      edges({
        notify: (line) => {
          notices.push(line);
          const complete = /or open (\S+) to skip/.exec(line)?.[1];
          if (complete) approval = browser.signIn(complete);
        },
        // The first poll happens after the user approved: like a user faster than 5 s.
        sleep: async (ms) => {
          waits.push(ms);
          await approval;
        },
      }),
    );
    expect(notices[0]).toMatch(
      /To sign in, open http:\/\/127\.0\.0\.1:\d+\/device\nand enter the code: {2}[A-Z]{4}-[A-Z]{4}/,
    );
    expect(waits[0]).toBe(5000);
    expect(result.source).toBe('issued');
    expect(result.response.refresh_token).not.toBe('');
    expect(jwtClaims(result.response.access_token)).toMatchObject({ sub: 'alice' });
  });
});

describe('listProfiles', () => {
  it('lists profiles sorted by name, without secrets', async () => {
    await serviceProfile('zeta');
    await serviceProfile('alpha');
    const profiles = await listProfiles(bed.home);
    expect(profiles.map((p) => p.name)).toEqual(['alpha', 'zeta']);
    expect(JSON.stringify(profiles)).not.toContain(TEST_CLIENTS.service.secret);
  });
});
