// The cached-token path answers exactly what the engine would, and declines whenever it is not
// the one to decide (then the full command runs).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/platform/clock.ts';
import { keychainService } from '../../server/platform/paths.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { CACHE_KEY_ACCOUNT } from './cache-format.ts';
import { answerFromCache, formatTokenResponse } from './cached-token.ts';
import { getToken } from './engine.ts';
import { addProfile, fileStore } from './testing/fixtures.ts';
import { TEST_CLIENTS } from './testing/test-provider.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed({ provider: true });
beforeEach(async () => {
  await bed.serviceProfile('default');
});

describe('answerFromCache', () => {
  it('prints what the engine prints for a cached token, in every format', async () => {
    const issued = await getToken(
      { profile: 'default', home: bed.home },
      { secretStore: fileStore(bed.home) },
    );
    const now = Date.now() + 60_000;
    expect(await answerFromCache([], bed.env(), now)).toBe(issued.response.access_token + '\n');
    const fromEngine = await getToken(
      { profile: 'default', home: bed.home },
      { secretStore: fileStore(bed.home), clock: new ManualClock(now) },
    );
    expect(fromEngine.source).toBe('cache');
    for (const format of ['json', 'yaml'] as const) {
      expect(
        await answerFromCache(['-p', 'default', '-o', format, '--silent'], bed.env(), now),
      ).toBe(formatTokenResponse(fromEngine.response, format));
    }
    expect(CACHE_KEY_ACCOUNT).toBe(SECRET_ACCOUNTS.tokenCacheKey);
  });

  it('declines whatever it is not the one to decide', async () => {
    await getToken({ profile: 'default', home: bed.home }, { secretStore: fileStore(bed.home) });
    const now = Date.now();
    expect(await answerFromCache([], bed.env(), now)).toBeDefined();
    for (const argv of [
      ['--force'],
      ['--no-cache'],
      ['--timeout', '5s'],
      ['-f', 'device-code'],
      ['--file', 'out.txt'],
      ['--profile=default'],
      ['-h'],
      ['-o', 'xml'],
      ['-p', 'other'],
      ['-s', 'api:write'],
      ['--store', 'keychain'],
    ]) {
      expect(await answerFromCache(argv, bed.env(), now), argv.join(' ')).toBeUndefined();
    }
    // Close to expiry: the engine refreshes, so the fast path must not answer.
    expect(await answerFromCache([], bed.env(), now + 3600_000 - 60_000)).toBeUndefined();
    // 'auto' with a keychain that may answer, or before the one-time file notice: the engine's.
    expect(
      await answerFromCache([], bed.env({ PIPELINE_SUMMARY_SECRET_STORE: '' }), now),
    ).toBeUndefined();
    // An edited profile (another client) misses its old entries, as in the engine.
    await addProfile(bed.home, {
      name: 'default',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.web.id,
      scopes: ['api:read'],
    });
    expect(await answerFromCache([], bed.env(), now)).toBeUndefined();
    await writeFile(path.join(bed.home, 'token-cache.json'), '{garbage');
    expect(await answerFromCache([], bed.env(), now)).toBeUndefined();
  });

  it('with the keychain on Linux, reads the cache key from the Secret Service the engine uses', async () => {
    const issued = await getToken(
      { profile: 'default', home: bed.home },
      { secretStore: fileStore(bed.home) },
    );
    const key = await fileStore(bed.home).get(CACHE_KEY_ACCOUNT);
    const asked: [string, Record<string, string>][] = [];
    let cancelled = 0;
    const secretService = (bus: string, attributes: Record<string, string>) => {
      asked.push([bus, attributes]);
      return { result: Promise.resolve(key), cancel: () => void cancelled++ };
    };
    const bus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus,guid=0123' };
    const now = Date.now();
    for (const store of ['keychain', '']) {
      const answer = await answerFromCache(
        [],
        bed.env({ ...bus, PIPELINE_SUMMARY_SECRET_STORE: store }),
        now,
        secretService,
      );
      expect(answer, store || 'auto').toBe(
        process.platform === 'linux' ? issued.response.access_token + '\n' : undefined,
      );
    }
    if (process.platform !== 'linux') return;
    // The item @napi-rs/keyring writes: service = the config root's keychain service, username = account.
    expect(asked[0]).toEqual([
      '/run/user/1000/bus',
      { service: keychainService(bed.home, bed.env()), username: 'token-cache-key' },
    ]);
    // Every read is closed, answered or not (no socket keeps the process waiting).
    expect(cancelled).toBe(asked.length);
    await answerFromCache(
      ['-p', 'nobody'],
      bed.env({ ...bus, PIPELINE_SUMMARY_SECRET_STORE: 'keychain' }),
      now,
      secretService,
    );
    expect(cancelled).toBe(asked.length);
    // No item (or a locked one, or no Secret Service): the engine decides.
    const none = () => ({ result: Promise.resolve(undefined), cancel: () => undefined });
    expect(
      await answerFromCache(
        [],
        bed.env({ ...bus, PIPELINE_SUMMARY_SECRET_STORE: 'keychain' }),
        now,
        none,
      ),
    ).toBeUndefined();
    // The file store never asks the Secret Service.
    asked.length = 0;
    expect(await answerFromCache([], bed.env(bus), now, secretService)).toBeDefined();
    expect(asked).toEqual([]);
  });
});
