// The cached path with the real Secret Service (gnome-keyring in a private D-Bus session, as
// scripts/test-all.sh starts it): the plain-JavaScript reader reads exactly what @napi-rs/keyring
// wrote, and a cached `get-token --store keychain` answers without loading the keyring addon.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSecretStore } from '../../server/platform/os-secret-store.ts';
import { keychainService } from '../../server/platform/paths.ts';
import {
  readSecretServiceSecret,
  sessionBusPath,
} from '../../server/platform/secret-service-reader.ts';
import { SECRET_ACCOUNTS } from '../../server/platform/secret-store.ts';
import { runCli } from './testing/cli-bundle.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed({
  provider: true,
  bundle: true,
  keychain: {
    accounts: [SECRET_ACCOUNTS.clientSecret('svc'), SECRET_ACCOUNTS.clientSecret('default')],
  },
});

describe('the Secret Service from plain JavaScript', () => {
  it('reads what @napi-rs/keyring wrote, over an encrypted session; nothing for a missing item', async () => {
    const store = await openSecretStore({ home: bed.home, mode: 'keychain' });
    const secret = `wörter ✓ ${'x'.repeat(300)}`;
    await store.set(SECRET_ACCOUNTS.clientSecret('svc'), secret);
    const bus = sessionBusPath(process.env)!;
    const service = keychainService(bed.home, process.env);
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
    const spy = path.join(bed.home, 'dlopen-spy.cjs');
    await writeFile(
      spy,
      "const o = process.dlopen; process.dlopen = function (m, f, ...r) { require('fs').writeSync(2, 'dlopen ' + f + '\\n'); return o.call(this, m, f, ...r); };\n",
    );
    const env = {
      PIPELINE_SUMMARY_HOME: bed.home,
      PIPELINE_SUMMARY_SECRET_STORE: 'keychain',
      DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS!,
      NODE_OPTIONS: `--require ${spy}`,
    };
    const add = await bed.addServiceProfileWithCli('default', env, ['--scope', 'api:read']);
    expect(add.code).toBe(0);
    const first = await runCli(bed.bundle.getToken, [], { env });
    expect(first.code).toBe(0);
    // The full command loads the addon (so the spy sees loads)…
    expect(first.stderr).toMatch(/dlopen .*keyring.*\.node/);
    const before = bed.provider.count('client_credentials');
    for (const binary of [bed.bundle.getToken, bed.bundle.pipelineSummary]) {
      const args = binary === bed.bundle.getToken ? [] : ['get-token'];
      const cached = await runCli(binary, args, { env });
      // …the cached path does not, and answers the same token.
      expect(cached).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    }
    expect(bed.provider.count('client_credentials')).toBe(before);
  });
});
