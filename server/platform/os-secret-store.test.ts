// The file store and the keychain→file fallback, without D-Bus (the real keychain is covered by
// cli/oauth/secret-store.keychain.test.ts inside dbus-run-session).
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_ACCOUNTS } from './secret-store.ts';
import {
  keychainService,
  openSecretStore,
  parseSecretStoreMode,
  type KeychainEntry,
  type KeychainOpener,
} from './os-secret-store.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'secret-store-test-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** An environment in which a session bus seems to exist (so 'auto' tries the keychain). */
const withBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' };

/** A keychain that is not there: every entry fails like @napi-rs/keyring without D-Bus. */
const noKeychain: KeychainOpener = async () => {
  throw new Error('Platform failure: DBus error: no session bus');
};

/** An in-memory keychain recording which service each entry used. */
function memoryKeychain(services: string[] = []): KeychainOpener {
  const data = new Map<string, string>();
  return async (service, account): Promise<KeychainEntry> => {
    services.push(service);
    const key = `${service}\n${account}`;
    return {
      getPassword: async () => data.get(key) ?? null,
      setPassword: async (p) => void data.set(key, p),
      deleteCredential: async () => data.delete(key),
    };
  };
}

describe('file store', () => {
  it('keeps secrets in a 0600 file inside a 0700 directory', async () => {
    const store = await openSecretStore({ home, mode: 'file' });
    expect(store.backend).toBe(`file (${path.join(home, 'secrets', 'secrets.json')})`);
    await store.set(SECRET_ACCOUNTS.aiApiKey('openai'), 'sk-1');
    await store.set(SECRET_ACCOUNTS.gitlabToken('https://gitlab.com/x'), 'glpat');
    expect(await store.get('ai-api-key:openai')).toBe('sk-1');
    expect(await store.get('gitlab-token:https://gitlab.com')).toBe('glpat');
    expect((await stat(path.join(home, 'secrets'))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(home, 'secrets', 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(await store.delete('ai-api-key:openai')).toBe(true);
    expect(await store.delete('ai-api-key:openai')).toBe(false);
    expect(await store.get('ai-api-key:openai')).toBeUndefined();
  });

  it('reports a damaged file instead of losing its secrets silently', async () => {
    const store = await openSecretStore({ home, mode: 'file' });
    await store.set('a', 'b');
    await writeFile(path.join(home, 'secrets', 'secrets.json'), '{oops');
    await expect(store.get('a')).rejects.toMatchObject({
      code: 'secret_store_damaged',
      message: expect.stringContaining('is damaged'),
    });
  });

  it('is what the environment variable picks', async () => {
    const store = await openSecretStore({ home, env: { PIPELINE_SUMMARY_SECRET_STORE: 'file' } });
    expect(store.backend).toMatch(/^file /);
    expect(() => parseSecretStoreMode('vault', 'PIPELINE_SUMMARY_SECRET_STORE')).toThrow(
      /PIPELINE_SUMMARY_SECRET_STORE must be keychain, file or auto, not 'vault'/,
    );
  });
});

describe('auto mode', () => {
  it('falls back to the file store when no keychain is reachable, saying so once per home', async () => {
    const warnings: string[] = [];
    const open = () =>
      openSecretStore({
        home,
        mode: 'auto',
        keychain: noKeychain,
        warn: (l) => warnings.push(l),
        env: withBus,
      });
    const store = await open();
    await store.set('client-secret:x', 'v');
    expect(await store.get('client-secret:x')).toBe('v');
    expect(store.backend).toMatch(/^file /);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /no OS keychain reachable \(DBus error: no session bus\); keeping secrets in .*secrets\.json \(mode 0600\)/,
    );

    // A later process on the same home: same file, no second notice.
    const later = await open();
    expect(await later.get('client-secret:x')).toBe('v');
    expect(warnings).toHaveLength(1);
    const raw = await readFile(path.join(home, 'secrets', 'secrets.json'), 'utf8');
    expect(JSON.parse(raw)).toEqual({ version: 1, secrets: { 'client-secret:x': 'v' } });
  });

  it('uses the keychain when it answers, and writes no file', async () => {
    const warnings: string[] = [];
    const store = await openSecretStore({
      home,
      mode: 'auto',
      keychain: memoryKeychain(),
      warn: (l) => warnings.push(l),
      env: withBus,
    });
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
    expect(store.backend).toMatch(/^OS keychain/);
    expect(warnings).toEqual([]);
    await expect(stat(path.join(home, 'secrets'))).rejects.toThrow();
  });

  it('without a D-Bus session on Linux, goes straight to the file without loading the keyring', async () => {
    const warnings: string[] = [];
    const opened: string[] = [];
    const store = await openSecretStore({
      home,
      mode: 'auto',
      keychain: memoryKeychain(opened),
      warn: (l) => warnings.push(l),
      env: { XDG_RUNTIME_DIR: home },
    });
    await store.set('k', 'v');
    expect(await store.get('k')).toBe('v');
    expect(opened).toEqual(process.platform === 'linux' ? [] : ['pipeline-summary@' + home]);
    expect(warnings.length).toBe(process.platform === 'linux' ? 1 : 0);
  });

  it('keychain mode fails with a message naming the way out', async () => {
    const store = await openSecretStore({ home, mode: 'keychain', keychain: noKeychain });
    await expect(store.get('k')).rejects.toMatchObject({
      code: 'secret_store_unavailable',
      message: expect.stringMatching(
        /cannot open the .*: DBus error: no session bus\..*--store file/,
      ),
    });
  });

  it('gives each config root its own keychain service; the default root the plain name', async () => {
    const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config' };
    expect(keychainService('/home/u/.config/pipeline-summary', env)).toBe('pipeline-summary');
    expect(keychainService(home, env)).toBe(`pipeline-summary@${home}`);
    const services: string[] = [];
    const store = await openSecretStore({
      home,
      mode: 'keychain',
      keychain: memoryKeychain(services),
    });
    await store.set('k', 'v');
    expect(services).toEqual([`pipeline-summary@${home}`]);
  });
});
