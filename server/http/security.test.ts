import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBody } from './body.ts';
import { serveTestApp, type TestServer } from './testing/test-server.ts';

let served: TestServer;
let port: number;

beforeAll(async () => {
  served = await serveTestApp({
    routes: [
      (router) => {
        router.get('/jobtrace', (ctx) => void (ctx.body = { trace: 'secret log' }));
        router.put('/ai/system-prompt', async (ctx) => {
          ctx.body = { got: await readJsonBody(ctx, 1024) };
        });
      },
    ],
  });
  port = served.port;
});
afterAll(() => served.close());

/** A request with the exact headers a browser would send (fetch() forbids Host and Sec-Fetch-*). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };

// Fetch Metadata: https://developer.mozilla.org/docs/Web/HTTP/Headers/Sec-Fetch-Site
describe('own origin only (issue 9, items 2 and 3)', () => {
  it('refuses another localhost origin: no CORS grant and no writes', async () => {
    const write = await send(
      'PUT',
      '/api/ai/system-prompt',
      { ...json, origin: 'http://localhost:3000' },
      '{"prompt":"x"}',
    );
    expect(write.status).toBe(403);
    expect(JSON.parse(write.body)).toMatchObject({ statusCode: 403, error: /Origin not allowed/ });
    const read = await send('GET', '/api/jobtrace', { origin: 'http://localhost:3000' });
    expect(read.status).toBe(403);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await send('OPTIONS', '/api/ai/system-prompt', {
      origin: 'http://127.0.0.1:3000',
    });
    expect(preflight.status).toBe(403);
  });

  it('accepts the service’s own origin and grants it CORS', async () => {
    const own = `http://127.0.0.1:${port}`;
    const write = await send('PUT', '/api/ai/system-prompt', { ...json, origin: own }, '{"a":1}');
    expect(write.status).toBe(200);
    expect(write.headers['access-control-allow-origin']).toBe(own);
  });

  it('refuses cross-site writes that carry no Origin', async () => {
    const res = await send(
      'PUT',
      '/api/ai/system-prompt',
      { ...json, 'sec-fetch-site': 'cross-site' },
      '{"prompt":"x"}',
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(/Cross-site request refused/);
  });

  it('refuses cross-site and same-site API reads (an <img> or <script> on another page)', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await send('GET', '/api/jobtrace', {
        'sec-fetch-site': site,
        'sec-fetch-mode': 'no-cors',
      });
      expect(res.status).toBe(403);
      expect(res.body).not.toContain('secret log');
    }
    const same = await send('GET', '/api/jobtrace', { 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
    const tool = await send('GET', '/api/jobtrace', {});
    expect(tool.status).toBe(200);
  });

  it('lets a cross-site navigation to a dashboard page through', async () => {
    const res = await send('GET', '/pipelines/1/2', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(res.status).not.toBe(403);
  });

  it('marks refusals nosniff too', async () => {
    const res = await send('GET', '/api/health', { host: 'evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
