import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { createApp } from './app.ts';

let server: http.Server;
let port: number;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ps-static-'));
  mkdirSync(path.join(dir, 'renderer'));
  writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>dash</title>');
  // A sibling whose name starts with the root's: must never be served.
  mkdirSync(path.join(dir, 'renderer-private'));
  writeFileSync(path.join(dir, 'renderer-private', 'secret.txt'), 'do not serve');
  const app = createApp({
    logger: silentLogger,
    version: { version: '1', gitCommit: 'a', buildDate: 'b' },
    routes: [],
    dashboardDir: path.join(dir, 'renderer'),
  });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
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
