import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeService, type RunningService } from '../compose.ts';
import { silentLogger } from '../platform/logger.ts';
import { demoConfig } from '../testing/demo-config.ts';
import { MemorySecretStore } from '../platform/testing/memory-secret-store.ts';

// A reverse proxy appends the address it was reached from, so only the right end of
// X-Forwarded-For is its own; entries to the left come from the client and may be forged
// (RFC 7239 §4 and §8.1, https://www.rfc-editor.org/rfc/rfc7239).
const PUBLIC_URL = 'https://ci-summary.example.test';
const dirs: string[] = [];

/** `serve --demo --public-url …` on loopback, as behind nginx on the same machine. */
function composeBehindProxy(
  trustedProxies: string[] | undefined,
  trustedProxyHeader?: 'forwarded' | 'x-forwarded-for',
): Promise<RunningService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ps-proxy-'));
  dirs.push(dataDir);
  return composeService(
    demoConfig(dataDir, {
      publicUrls: [PUBLIC_URL],
      ...(trustedProxies ? { trustedProxies } : {}),
      ...(trustedProxyHeader ? { trustedProxyHeader } : {}),
    }),
    { logger: silentLogger, env: {}, secretStore: new MemorySecretStore() },
  );
}

/** One service behind a trusted loopback proxy for a whole describe block, started and stopped around it. */
function serviceBehindProxy(): { readonly url: string; readonly token: string } {
  let service: RunningService | undefined;
  beforeAll(async () => {
    service = await composeBehindProxy(['127.0.0.1']);
  });
  afterAll(async () => {
    await service?.stop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get url() {
      return service!.url;
    },
    get token() {
      return service!.exposure.accessToken!.token;
    },
  };
}

/** One request to `url`; `from` is the TCP peer address the service sees (a loopback alias). */
function request(
  url: string,
  options: { from?: string; headers?: Record<string, string>; method?: string; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: { host: new URL(PUBLIC_URL).host, ...options.headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('wrong-token limit behind a trusted reverse proxy (--trusted-proxy)', () => {
  const bearer = (forwardedFor: string | undefined, value: string, from?: string) =>
    request(`${shared.url}/api/settings`, {
      from,
      headers: {
        authorization: `Bearer ${value}`,
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
    });
  const wrongTimes = async (n: number, send: (i: number) => Promise<number>) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push(await send(i));
    return statuses;
  };

  const shared = serviceBehindProxy();

  it("one client's wrong tokens lock out that client only, even when it forges X-Forwarded-For", async () => {
    expect(await wrongTimes(6, (i) => bearer('203.0.113.5', `wrong-${i}`))).toEqual([
      401, 401, 401, 401, 401, 429,
    ]);
    expect(await bearer('203.0.113.5', shared.token)).toBe(429);
    // The client wrote the left-most entry itself; nginx appended its real address.
    expect(await bearer('1.2.3.4, 203.0.113.5', shared.token)).toBe(429);
    expect(await bearer('203.0.113.6', shared.token)).toBe(200);
    expect(await bearer('203.0.113.6', 'wrong')).toBe(401);
  });

  it('counts wrong tokens on the sign-in page per client too', async () => {
    const signIn = (forwardedFor: string, value: string) =>
      request(`${shared.url}/signin`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: PUBLIC_URL,
          'x-forwarded-for': forwardedFor,
        },
        body: new URLSearchParams({ token: value }).toString(),
      });
    expect(await wrongTimes(5, (i) => signIn('203.0.113.7', `wrong-${i}`))).toEqual([
      401, 401, 401, 401, 401,
    ]);
    expect(await signIn('203.0.113.7', shared.token)).toBe(429);
    expect(await bearer('203.0.113.7', shared.token)).toBe(429);
    expect(await signIn('203.0.113.8', shared.token)).toBe(303);
  });

  it('keys a peer that is no trusted proxy by its own address, whatever it forwards', async () => {
    const statuses = await wrongTimes(6, (i) => bearer(`198.51.100.${i}`, 'wrong', '127.0.0.3'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await bearer('198.51.100.99', shared.token, '127.0.0.3')).toBe(429);
    expect(await bearer('203.0.113.9', shared.token)).toBe(200);
  });

  it("counts a trusted proxy's request without a usable header against the proxy", async () => {
    expect(await wrongTimes(5, (i) => bearer('unknown', `wrong-${i}`))).toEqual([
      401, 401, 401, 401, 401,
    ]);
    expect(await bearer(undefined, shared.token)).toBe(429);
    expect(await bearer('203.0.113.10', shared.token)).toBe(200);
  });
});

// The standard field carries the same chain as `for=` parameters (RFC 7239 §4, §5.2, §6); only its
// right end was written by the proxies (§8.1). A proxy that maintains only one of the two headers
// passes the other on from the client unchanged: X-Forwarded-For, which common proxies maintain, goes
// first.
describe('wrong-token limit behind a trusted proxy that sends Forwarded', () => {
  const bearer = (headers: Record<string, string>, value: string) =>
    request(`${shared.url}/api/settings`, {
      headers: { authorization: `Bearer ${value}`, ...headers },
    });

  const shared = serviceBehindProxy();

  it('locks out the client its right-most for= names, whatever the client wrote to its left', async () => {
    const forwarded = (value: string) => ({ forwarded: value });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        await bearer(forwarded(`for=198.51.100.${i}, for="[2001:db8::5]:4711"`), 'wrong'),
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await bearer(forwarded('For="[2001:DB8:0::5]"'), shared.token)).toBe(429);
    expect(await bearer(forwarded('for=203.0.113.11;proto=https'), shared.token)).toBe(200);
    expect(await bearer({}, shared.token)).toBe(200);
  });

  it("leaves a forged Forwarded next to the proxy's X-Forwarded-For harmless: the real client is limited", async () => {
    // nginx appended the real client to X-Forwarded-For; the client made up a fresh Forwarded each time.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        await bearer(
          { forwarded: `for=198.51.100.${i + 10}`, 'x-forwarded-for': '203.0.113.12' },
          'wrong',
        ),
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(await bearer({ 'x-forwarded-for': '203.0.113.12' }, shared.token)).toBe(429);
    // Nobody else pays for those guesses: not the proxy's own budget, not a made-up address.
    expect(await bearer({}, shared.token)).toBe(200);
    expect(await bearer({ forwarded: 'for=198.51.100.10' }, shared.token)).toBe(200);
    expect(await bearer({ 'x-forwarded-for': 'garbage, 203.0.113.13' }, shared.token)).toBe(200);
  });
});

describe('wrong-token limit behind a proxy that maintains only Forwarded (--trusted-proxy-header)', () => {
  it("reads the proxy's Forwarded and ignores the client's own X-Forwarded-For", async () => {
    const service = await composeBehindProxy(['127.0.0.1'], 'forwarded');
    try {
      const token = service.exposure.accessToken!.token;
      // RFC 7239: the proxy appends the address it was reached from; the client varies its XFF.
      const send = (forwardedFor: string, value: string) =>
        request(`${service.url}/api/settings`, {
          headers: {
            authorization: `Bearer ${value}`,
            forwarded: 'for=203.0.113.5',
            'x-forwarded-for': forwardedFor,
          },
        });
      for (let i = 0; i < 5; i++) expect(await send(`198.51.100.${i}`, `wrong-${i}`)).toBe(401);
      expect(await send('198.51.100.99', token)).toBe(429);
    } finally {
      await service.stop();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('wrong-token limit behind a proxy nobody said to trust', () => {
  it('ignores X-Forwarded-For, so every client behind the proxy shares one budget', async () => {
    const service = await composeBehindProxy(undefined);
    try {
      const token = service.exposure.accessToken!.token;
      const send = (forwardedFor: string, value: string) =>
        request(`${service.url}/api/settings`, {
          headers: { authorization: `Bearer ${value}`, 'x-forwarded-for': forwardedFor },
        });
      for (let i = 0; i < 5; i++) expect(await send('203.0.113.5', `wrong-${i}`)).toBe(401);
      expect(await send('203.0.113.6', token)).toBe(429);
    } finally {
      await service.stop();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
