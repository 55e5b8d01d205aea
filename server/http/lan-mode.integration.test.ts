import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeService, type RunningService, type ServiceConfig } from '../compose.ts';
import { silentLogger } from '../platform/logger.ts';
import { demoConfig } from '../testing/demo-config.ts';
import { SECRET_ACCOUNTS } from '../platform/secret-store.ts';
import { MemorySecretStore } from '../platform/testing/memory-secret-store.ts';

// 127.0.0.2 is a non-loopback *bind* for the service's rules and is routable on Linux's lo.
const LAN_HOST = '127.0.0.2';
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-lan-'));
  dirs.push(dir);
  return dir;
};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** `serve --demo` bound to LAN_HOST with a fresh data dir; `extra` is what the test exposes it with. */
function composeLanDemo(
  extra: Pick<ServiceConfig, 'publicUrls' | 'tls'>,
  secretStore: MemorySecretStore,
): Promise<RunningService> {
  return composeService(demoConfig(tempDir(), { host: LAN_HOST, ...extra }), {
    logger: silentLogger,
    env: {},
    secretStore,
  });
}

function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: options.method ?? 'GET', headers: options.headers, rejectUnauthorized: false },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function expectErrorShape(answer: Answer, status: number, text: RegExp) {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'statusCode', 'timestamp']);
  expect(body.statusCode).toBe(status);
  expect(body.error).toMatch(text);
}

describe('LAN mode on a non-loopback address (issue 9)', () => {
  let service: RunningService;
  let token: string;
  const secrets = new MemorySecretStore();

  beforeAll(async () => {
    service = await composeLanDemo({ publicUrls: ['http://ci-summary.example.test'] }, secrets);
    token = service.exposure.accessToken!.token;
  });
  afterAll(async () => {
    await service.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('generates the access token once and keeps it in the secret store', async () => {
    expect(service.exposure.accessToken!.created).toBe(true);
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(await secrets.get(SECRET_ACCOUNTS.serviceAccessToken)).toBe(token);
  });

  it('answers 401 in the error shape without a token, 200 with it; health stays open', async () => {
    expectErrorShape(
      await request(`${service.url}/api/pipelines/summary`),
      401,
      /needs its access token/,
    );
    const ok = await request(`${service.url}/api/pipelines/summary`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toHaveProperty('projects');
    expect((await request(`${service.url}/api/health`)).status).toBe(200);
  });

  it('refuses a foreign Host and accepts the public name', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const foreign = await request(`${service.url}/api/settings`, {
      headers: { ...headers, host: 'attacker.example:80' },
    });
    expectErrorShape(foreign, 403, /Host not allowed/);
    const named = await request(`${service.url}/api/settings`, {
      headers: { ...headers, host: 'ci-summary.example.test' },
    });
    expect(named.status).toBe(200);
  });

  it('signs a browser in with a HttpOnly, SameSite=Strict session cookie', async () => {
    const page = await request(`${service.url}/`);
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/signin');
    const form = await request(`${service.url}/signin`);
    expect(form.status).toBe(200);
    expect(form.body).toContain('<form method="post" action="/signin">');
    const signIn = await request(`${service.url}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: service.url },
      body: new URLSearchParams({ token }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(/^ps_session=[\w-]+; Path=\/; HttpOnly; SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    const session = cookie.split(';')[0]!;
    const api = await request(`${service.url}/api/settings`, { headers: { cookie: session } });
    expect(api.status).toBe(200);
    const forged = await request(`${service.url}/api/settings`, {
      headers: { cookie: 'ps_session=forged' },
    });
    expect(forged.status).toBe(401);
  });

  it('rate-limits wrong tokens per client, even when the right one follows', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await request(`${service.url}/api/settings`, {
            headers: { authorization: `Bearer wrong-${i}` },
          })
        ).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const right = await request(`${service.url}/api/settings`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expectErrorShape(right, 429, /Too many wrong access tokens/);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('LAN mode over TLS', () => {
  it('serves HTTPS with --tls-cert/--tls-key and marks the session cookie Secure', async () => {
    const dir = tempDir();
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        `/CN=${LAN_HOST}`,
      ],
      { stdio: 'ignore' },
    );
    const secrets = new MemorySecretStore();
    await secrets.set(SECRET_ACCOUNTS.serviceAccessToken, 'a-token-from-an-earlier-run');
    const service = await composeLanDemo({ tls: { certFile: cert, keyFile: key } }, secrets);
    try {
      expect(service.url).toMatch(/^https:\/\/127\.0\.0\.2:\d+$/);
      expect(service.exposure.accessToken).toEqual({
        token: 'a-token-from-an-earlier-run',
        created: false,
      });
      expect((await request(`${service.url}/api/settings`)).status).toBe(401);
      const signIn = await request(`${service.url}/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=a-token-from-an-earlier-run',
      });
      expect(String(signIn.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await service.stop();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    }
  });
});
