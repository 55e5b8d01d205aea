// Device-code polling rules (RFC 8628 §3.4–3.5) against a scripted authorization server on
// loopback, configured with explicit endpoints (no discovery).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getToken } from '../engine.ts';
import { addProfile, fileStore, tempHome } from '../testing/fixtures.ts';
import { ManualClock } from '../../../server/platform/clock.ts';

interface Script {
  device: Record<string, unknown>;
  /** Token-endpoint answers in order: an OAuth error code, or 'ok'. */
  answers: string[];
}

let server: http.Server;
let base: string;
let script: Script;
let tokenCalls: URLSearchParams[];
let home: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  tokenCalls = [];
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/device') return res.end(JSON.stringify(script.device));
      if (req.url === '/token') {
        tokenCalls.push(new URLSearchParams(body));
        const answer = script.answers.shift() ?? 'expired_token';
        if (answer === 'ok') {
          return res.end(
            JSON.stringify({
              access_token: 'at-1',
              token_type: 'Bearer',
              expires_in: 900,
              refresh_token: 'rt-1',
            }),
          );
        }
        if (answer === '503') {
          res.statusCode = 503;
          return res.end('{}');
        }
        res.statusCode = 400;
        return res.end(JSON.stringify({ error: answer }));
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await addProfile(home, {
    name: 'tv',
    clientId: 'tv-client',
    tokenEndpoint: `${base}/token`,
    deviceAuthorizationEndpoint: `${base}/device`,
    scopes: ['read'],
    flow: 'device-code',
  });
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await cleanup();
});

function device(extra: Record<string, unknown> = {}) {
  return {
    device_code: 'dc-1',
    user_code: 'WDJB-MJHT',
    verification_uri: `${base}/activate`,
    expires_in: 600,
    interval: 2,
    ...extra,
  };
}

async function run(sleeps: number[] = [], notices: string[] = []) {
  return getToken(
    { profile: 'tv', home },
    {
      secretStore: fileStore(home),
      notify: (line) => notices.push(line),
      sleep: async (ms) => void sleeps.push(ms),
      // A fixed clock: expires_in is counted from it, so a slow machine cannot turn 900 into 899.
      clock: new ManualClock(Date.now()),
    },
  );
}

describe('device-code polling', () => {
  it('waits `interval` between polls and 5 s more after each slow_down', async () => {
    script = {
      device: device(),
      answers: ['authorization_pending', 'slow_down', 'authorization_pending', 'ok'],
    };
    const sleeps: number[] = [];
    const notices: string[] = [];
    const result = await run(sleeps, notices);
    expect(sleeps).toEqual([2000, 2000, 7000, 7000]);
    expect(result.response).toMatchObject({
      access_token: 'at-1',
      refresh_token: 'rt-1',
      expires_in: 900,
    });
    expect(tokenCalls.map((c) => c.get('grant_type'))).toEqual(
      Array(4).fill('urn:ietf:params:oauth:grant-type:device_code'),
    );
    expect(tokenCalls[0]!.get('device_code')).toBe('dc-1');
    expect(notices[0]).toBe(
      [
        `To sign in, open ${base}/activate`,
        'and enter the code:  WDJB-MJHT',
        'Waiting for approval; the code expires in 10 minutes…',
      ].join('\n'),
    );
  });

  it('defaults to a 5 s interval and shows the complete URI when offered', async () => {
    script = {
      device: device({
        interval: undefined,
        verification_uri_complete: `${base}/activate?code=WDJB-MJHT`,
      }),
      answers: ['ok'],
    };
    const sleeps: number[] = [];
    const notices: string[] = [];
    await run(sleeps, notices);
    expect(sleeps).toEqual([5000]);
    expect(notices[0]).toContain(
      `(or open ${base}/activate?code=WDJB-MJHT to skip typing the code)`,
    );
  });

  it('a denied request is an auth failure', async () => {
    script = { device: device(), answers: ['authorization_pending', 'access_denied'] };
    await expect(run()).rejects.toMatchObject({
      code: 'auth_failed',
      message: expect.stringContaining('access_denied'),
    });
  });

  it('stops when the device code expires', async () => {
    script = { device: device({ expires_in: 0 }), answers: ['authorization_pending'] };
    await expect(run()).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('the device code expired before it was approved'),
    });
    expect(tokenCalls).toHaveLength(0);
  });

  it('waits for a user who approves after 2 minutes: --timeout bounds network waits, not the user', async () => {
    // Entra's numbers: poll every 5 s, code valid 15 min (v2-oauth2-device-code doc). Time runs on
    // the engine's clock, which each poll's sleep moves on, so the default 60 s deadline would fire.
    script = {
      device: device({ interval: 5, expires_in: 900 }),
      answers: [...Array(24).fill('authorization_pending'), 'ok'],
    };
    const clock = new ManualClock(Date.now());
    const result = await getToken(
      { profile: 'tv', home },
      {
        secretStore: fileStore(home),
        clock,
        sleep: async (ms) => clock.advance(ms),
      },
    );
    expect(result.response.access_token).toBe('at-1');
    expect(tokenCalls).toHaveLength(25);
    expect(tokenCalls[0]!.get('device_code')).toBe('dc-1');
  });

  it('an explicit timeout does bound the wait for the user', async () => {
    script = {
      device: device({ interval: 5, expires_in: 900 }),
      answers: Array(30).fill('authorization_pending'),
    };
    const clock = new ManualClock(Date.now());
    await expect(
      getToken(
        { profile: 'tv', home, timeoutMs: 60_000 },
        { secretStore: fileStore(home), clock, sleep: async (ms) => clock.advance(ms) },
      ),
    ).rejects.toMatchObject({ code: 'timeout' });
    expect(tokenCalls.length).toBeLessThan(13);
  });

  it('a failing token endpoint is a network error', async () => {
    script = { device: device(), answers: ['503'] };
    await expect(run()).rejects.toMatchObject({
      code: 'network',
      message: expect.stringContaining(`the token endpoint ${base}/token is failing (HTTP 503)`),
    });
  });
});
