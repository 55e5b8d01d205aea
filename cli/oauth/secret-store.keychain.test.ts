// Runs only inside a D-Bus session with an unlocked Secret Service (scripts/test-all.sh starts
// one with gnome-keyring-daemon); `npm test` excludes *.keychain.test.ts.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { getToken } from './engine.ts';
import { openSecretStore } from '../../server/platform/os-secret-store.ts';
import { runCli } from './testing/cli-bundle.ts';
import { addProfile, tempHome } from './testing/fixtures.ts';
import { TEST_CLIENTS } from './testing/test-provider.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed({
  provider: true,
  bundle: true,
  keychain: {
    accounts: [
      SECRET_ACCOUNTS.clientSecret('svc'),
      SECRET_ACCOUNTS.gitlabToken('https://gitlab.example.com'),
    ],
  },
});

describe('OS keychain (Secret Service)', () => {
  it('stores, reads and deletes secrets; config roots do not share them', async () => {
    const store = await openSecretStore({ home: bed.home, mode: 'keychain' });
    expect(store.backend).toBe('OS keychain (Secret Service keyring)');
    await store.set(SECRET_ACCOUNTS.clientSecret('svc'), 's3cret');
    expect(await store.get(SECRET_ACCOUNTS.clientSecret('svc'))).toBe('s3cret');

    const other = await tempHome();
    try {
      const elsewhere = await openSecretStore({ home: other.home, mode: 'keychain' });
      expect(await elsewhere.get(SECRET_ACCOUNTS.clientSecret('svc'))).toBeUndefined();
    } finally {
      await other.cleanup();
    }
    expect(await store.delete(SECRET_ACCOUNTS.clientSecret('svc'))).toBe(true);
    expect(await store.delete(SECRET_ACCOUNTS.clientSecret('svc'))).toBe(false);
    expect(await store.get(SECRET_ACCOUNTS.clientSecret('svc'))).toBeUndefined();
  });

  it('auto mode uses the keychain when one is reachable, without a fallback notice', async () => {
    const warnings: string[] = [];
    const store = await openSecretStore({
      home: bed.home,
      mode: 'auto',
      warn: (l) => warnings.push(l),
    });
    await store.set(SECRET_ACCOUNTS.clientSecret('svc'), 'x');
    expect(store.backend).toMatch(/^OS keychain/);
    expect(warnings).toEqual([]);
    expect(existsSync(path.join(bed.home, 'secrets'))).toBe(false);
  });

  it('the token cache key and client secret live in the keychain, nothing in files', async () => {
    await addProfile(bed.home, {
      name: 'svc',
      issuer: bed.provider.issuer,
      clientId: TEST_CLIENTS.service.id,
      scopes: ['api:read'],
    });
    const store = await openSecretStore({ home: bed.home, mode: 'keychain' });
    await store.set(SECRET_ACCOUNTS.clientSecret('svc'), TEST_CLIENTS.service.secret);
    const first = await getToken({ profile: 'svc', home: bed.home, store: 'keychain' });
    expect(first.source).toBe('issued');
    expect(await store.get(SECRET_ACCOUNTS.tokenCacheKey)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(existsSync(path.join(bed.home, 'secrets'))).toBe(false);
    const again = await getToken({ profile: 'svc', home: bed.home, store: 'keychain' });
    expect(again.source).toBe('cache');
    expect(again.response.access_token).toBe(first.response.access_token);
  });

  it('the shipped CLI uses the keychain in auto mode: profile add, get-token, token set', async () => {
    const env = {
      PIPELINE_SUMMARY_HOME: bed.home,
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS!,
    };
    const add = await bed.addServiceProfileWithCli('svc', env, ['--scope', 'api:read']);
    expect(add.code).toBe(0);
    expect(add.stderr).toMatch(/client secret stored in OS keychain/);
    const token = await runCli(bed.bundle.getToken, ['-p', 'svc'], { env });
    expect(token).toMatchObject({ code: 0, stderr: '' });
    const cached = await runCli(bed.bundle.getToken, ['-p', 'svc'], { env });
    expect(cached.stdout).toBe(token.stdout);

    const set = await runCli(
      bed.bundle.pipelineSummary,
      ['token', 'set', '--url', 'https://gitlab.example.com'],
      { env, input: 'glpat-xyz\n' },
    );
    expect(set.code).toBe(0);
    const store = await openSecretStore({ home: bed.home, mode: 'keychain' });
    expect(await store.get(SECRET_ACCOUNTS.gitlabToken('https://gitlab.example.com'))).toBe(
      'glpat-xyz',
    );
    expect(existsSync(path.join(bed.home, 'secrets'))).toBe(false);
  });
});
