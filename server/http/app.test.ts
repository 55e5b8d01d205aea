import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { readJsonBody } from './body.ts';
import { serveTestApp, type TestServer } from './testing/test-server.ts';

let served: TestServer;
let base: string;

beforeAll(async () => {
  served = await serveTestApp({
    version: { version: '1.2.3', gitCommit: 'abc', buildDate: '2026-11-21' },
    routes: [
      (router) => {
        router.post('/echo', async (ctx) => {
          ctx.body = { got: await readJsonBody(ctx, 1024) };
        });
        router.get('/boom', () => {
          throw new Error('secret internals');
        });
        router.get('/missing', () => {
          throw new AppError('not_found', 'Pipeline 9 not found');
        });
      },
    ],
  });
  base = served.base;
});
afterAll(() => served.close());

async function expectError(res: Response, status: number, text: RegExp) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'statusCode', 'timestamp']);
  expect(body.statusCode).toBe(status);
  expect(body.error).toMatch(text);
  expect(new Date(body.timestamp as string).toISOString()).toBe(body.timestamp);
}

describe('a service bound to the network on purpose', () => {
  it('accepts its configured public names, but still refuses foreign origins', async () => {
    const wide = await serveTestApp({
      security: { allowedHosts: ['buildbox.lan'] },
      routes: [(router) => router.post('/echo', (ctx) => void (ctx.body = { ok: true }))],
    });
    const { port } = wide;
    const status = await new Promise<number>((resolve) => {
      http.get(
        `http://127.0.0.1:${port}/api/health`,
        { headers: { host: 'buildbox.lan:5100' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
    });
    expect(status).toBe(200);
    const csrf = await fetch(`http://127.0.0.1:${port}/api/echo`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(csrf.status).toBe(403);
    await wide.close();
  });
});

describe('createApp', () => {
  it('serves health and version', async () => {
    const health = (await (await fetch(`${base}/api/health`)).json()) as { status: string };
    expect(health.status).toBe('healthy');
    expect(await (await fetch(`${base}/api/version`)).json()).toEqual({
      version: '1.2.3',
      gitCommit: 'abc',
      buildDate: '2026-11-21',
    });
  });

  it('answers unknown routes, domain errors and crashes in the error shape without leaking internals', async () => {
    await expectError(await fetch(`${base}/api/nope`), 404, /No route for GET \/api\/nope/);
    await expectError(await fetch(`${base}/api/missing`), 404, /Pipeline 9 not found/);
    const res = await fetch(`${base}/api/boom`);
    await expectError(res, 500, /^Internal server error$/);
  });

  it('rejects malformed JSON, wrong content types and oversize bodies', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${base}/api/echo`, { method: 'POST', headers: { 'content-type': type }, body });
    await expectError(await post('{nope'), 400, /not valid JSON/);
    await expectError(await post('a=b', 'application/x-www-form-urlencoded'), 415, /must be JSON/);
    await expectError(
      await post(JSON.stringify({ x: 'y'.repeat(2000) })),
      413,
      /larger than 1024 bytes/,
    );
    expect(await (await post('{"a":1}')).json()).toEqual({ got: { a: 1 } });
  });

  it('refuses foreign Host headers (DNS rebinding) and foreign origins on state-changing requests', async () => {
    const rebinding = await new Promise<{ status: number; body: string }>((resolve) => {
      const req = http.request(
        `${base}/api/health`,
        { headers: { host: 'evil.example:5100' } },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.end();
    });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error).toMatch(/Host not allowed/);

    const csrf = await fetch(`${base}/api/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{}',
    });
    await expectError(csrf, 403, /Origin not allowed/);

    // The Vite dev server proxies /api with its own Host, so its page is the service's own origin.
    const own = await new Promise<{ status: number; allow: unknown }>((resolve) => {
      const req = http.request(
        `${base}/api/echo`,
        {
          method: 'POST',
          headers: {
            host: 'localhost:5173',
            origin: 'http://localhost:5173',
            'content-type': 'application/json',
          },
        },
        (res) => {
          res.resume();
          resolve({
            status: res.statusCode ?? 0,
            allow: res.headers['access-control-allow-origin'],
          });
        },
      );
      req.end('{}');
    });
    expect(own.status).toBe(200);
    expect(own.allow).toBe('http://localhost:5173');
  });
});
