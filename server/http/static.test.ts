import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveTestApp, type TestServer } from './testing/test-server.ts';

let served: TestServer;
let port: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ps-static-'));
  mkdirSync(path.join(dir, 'renderer'));
  writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>dash</title>');
  // A sibling whose name starts with the root's: must never be served.
  mkdirSync(path.join(dir, 'renderer-private'));
  writeFileSync(path.join(dir, 'renderer-private', 'secret.txt'), 'do not serve');
  served = await serveTestApp({ routes: [], dashboardDir: path.join(dir, 'renderer') });
  port = served.port;
});
afterAll(async () => {
  await served.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(method: string, rawPath: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path: rawPath }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('dashboard files (issue 9, item 6)', () => {
  it('answers a malformed percent-escape with a 400 in the error shape', async () => {
    const res = await get('GET', '/pipelines/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ statusCode: 400, error: /percent-escape/ });
  });

  it('never serves a sibling folder whose name starts like the root', async () => {
    const res = await get('GET', '/..%2Frenderer-private%2Fsecret.txt');
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('do not serve');
  });

  it('answers HEAD / like GET / without a body', async () => {
    const full = await get('GET', '/');
    const head = await get('HEAD', '/');
    expect(full.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(full.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(full.body)));
  });
});
