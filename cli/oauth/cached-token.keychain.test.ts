// The cached path with the real Secret Service (gnome-keyring in a private D-Bus session, as
// scripts/test-all.sh starts it): the plain-JavaScript reader reads exactly what @napi-rs/keyring
// wrote, and a cached `get-token --store keychain` answers without loading the keyring addon.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSecretStore } from '../../server/platform/os-secret-store.ts';
import { keychainService } from '../../server/platform/paths.ts';
import {
  readSecretServiceSecret,
  sessionBusPath,
} from '../../server/platform/secret-service-reader.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { buildCliBundle, runCli, type CliBundle } from './testing/cli-bundle.ts';
import { tempHome } from './testing/fixtures.ts';
import { startTestProvider, TEST_CLIENTS, type TestProvider } from './testing/test-provider.ts';

let provider: TestProvider;
let bundle: CliBundle;
let home: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error('keychain tests need a D-Bus session: run them through scripts/test-all.sh');
  }
  [provider, bundle] = await Promise.all([startTestProvider(), buildCliBundle()]);
});
afterAll(async () => {
  await Promise.all([provider?.close(), bundle?.cleanup()]);
});
beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
});
afterEach(async () => {
  const store = await openSecretStore({ home, mode: 'keychain' });
  for (const account of [
    SECRET_ACCOUNTS.tokenCacheKey,
    SECRET_ACCOUNTS.clientSecret('svc'),
    SECRET_ACCOUNTS.clientSecret('default'),
  ]) {
    await store.delete(account);
  }
  await cleanup();
});

describe('the Secret Service from plain JavaScript', () => {
  it('reads what @napi-rs/keyring wrote, over an encrypted session; nothing for a missing item', async () => {
    const store = await openSecretStore({ home, mode: 'keychain' });
    const secret = `wörter ✓ ${'x'.repeat(300)}`;
    await store.set(SECRET_ACCOUNTS.clientSecret('svc'), secret);
    const bus = sessionBusPath(process.env)!;
    const service = keychainService(home, process.env);
    expect(
      await readSecretServiceSecret(bus, {
        service,
        username: SECRET_ACCOUNTS.clientSecret('svc'),
      }),
    ).toBe(secret);
    expect(
      await readSecretServiceSecret(bus, { service, username: SECRET_ACCOUNTS.clientSecret('x') }),
    ).toBeUndefined();
    // Another config root's service holds nothing of this one's.
    expect(
      await readSecretServiceSecret(bus, {
        service: `${service}-other`,
        username: SECRET_ACCOUNTS.clientSecret('svc'),
      }),
    ).toBeUndefined();
  });

  it('a cached get-token --store keychain answers without loading the keyring addon', async () => {
    // Reports every native addon the process loads, on stderr.
    const spy = path.join(home, 'dlopen-spy.cjs');
    await writeFile(
      spy,
      "const o = process.dlopen; process.dlopen = function (m, f, ...r) { require('fs').writeSync(2, 'dlopen ' + f + '\\n'); return o.call(this, m, f, ...r); };\n",
    );
    const env = {
      PIPELINE_SUMMARY_HOME: home,
      PIPELINE_SUMMARY_SECRET_STORE: 'keychain',
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS!,
      NODE_OPTIONS: `--require ${spy}`,
    };
    const add = await runCli(
      bundle.pipelineSummary,
      [
        'profile',
        'add',
        'default',
        '--issuer',
        provider.issuer,
        '--client-id',
        TEST_CLIENTS.service.id,
        '--client-secret-stdin',
        '--scope',
        'api:read',
      ],
      { env, input: TEST_CLIENTS.service.secret },
    );
    expect(add.code).toBe(0);
    const first = await runCli(bundle.getToken, [], { env });
    expect(first.code).toBe(0);
    // The full command loads the addon (so the spy sees loads)…
    expect(first.stderr).toMatch(/dlopen .*keyring.*\.node/);
    const before = provider.count('client_credentials');
    for (const binary of [bundle.getToken, bundle.pipelineSummary]) {
      const args = binary === bundle.getToken ? [] : ['get-token'];
      const cached = await runCli(binary, args, { env });
      // …the cached path does not, and answers the same token.
      expect(cached).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    }
    expect(provider.count('client_credentials')).toBe(before);
  });
});
