import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp, type TestServer } from './testing/test-server.ts';

// cctray.org/v1, "Notes": a feed that supports authentication answers a request without it with
// "401 Not Authorized and a WWW-Authenticate header", needs no cookie and never redirects to a form.
// CCMenu sends the user and password it is given as Basic auth on every request
// (erikdoe/ccmenu2 CCMenu/Source/Server Monitor/CCTrayAPI.swift, `basicAuthValue`).
const TOKEN = 'feed-access-token-0123456789abcdef';
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let served: TestServer;
beforeAll(async () => {
  served = await serveTestApp({
    access: { token: TOKEN, secureCookies: false, feedPaths: ['/cc.xml'], maxFailures: 3 },
    routes: [(router) => router.get('/thing', (ctx) => void (ctx.body = { ok: true }))],
    rootRoutes: [
      (router) =>
        router.get('/cc.xml', (ctx) => {
          ctx.type = 'application/xml';
          ctx.body = '<Projects/>';
        }),
    ],
  });
});
afterAll(() => served.close());

const get = (path: string, authorization?: string, forwardedFrom?: string) =>
  fetch(`${served.base}${path}`, {
    redirect: 'manual',
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(forwardedFrom ? { 'x-forwarded-for': forwardedFrom } : {}),
    },
  });

describe('the access token on a feed path (LAN mode)', () => {
  it('serves routes outside /api, and refuses other methods there with 405', async () => {
    const ok = await get('/cc.xml', `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('<Projects/>');
    const post = await fetch(`${served.base}/cc.xml`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(post.status).toBe(405);
  });

  it('takes the token as the Basic-auth password, whatever the user name', async () => {
    for (const user of ['', 'ccmenu', 'Jürgen']) {
      // RFC 7617 §2: the password is everything after the first colon.
      const res = await get('/cc.xml', basic(user, TOKEN));
      expect(res.status, user).toBe(200);
    }
  });

  it('answers 401 with a Basic challenge, never the sign-in redirect', async () => {
    for (const authorization of [undefined, basic('ccmenu', 'wrong'), 'Basic !!!', 'Digest x']) {
      const res = await get('/cc.xml', authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        'Basic realm="Pipeline Summary", charset="UTF-8"',
      );
      expect(((await res.json()) as { error: string }).error).toMatch(/access token/);
    }
  });

  it('keeps Basic auth to the feed paths: the API and the dashboard still want Bearer or a session', async () => {
    const api = await get('/api/thing', basic('ccmenu', TOKEN));
    expect(api.status).toBe(401);
    expect(api.headers.get('www-authenticate')).toBeNull();
    expect((await get('/api/thing', `Bearer ${TOKEN}`)).status).toBe(200);
    const page = await get('/');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin');
  });

  it('counts wrong Basic passwords against the same per-client limit', async () => {
    // The test app's clients are all 127.0.0.1: the earlier wrong tokens count too, so only the
    // limit matters here: once reached, even the right token waits for the window to pass.
    let status = 0;
    for (let i = 0; i < 5 && status !== 429; i++) {
      status = (await get('/cc.xml', basic('ccmenu', `wrong-${i}`))).status;
    }
    expect(status).toBe(429);
    expect((await get('/cc.xml', basic('ccmenu', TOKEN))).status).toBe(429);
  });
});
