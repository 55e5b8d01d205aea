import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openSecretStore } from '../../../server/platform/os-secret-store.ts';
import { SECRET_ACCOUNTS } from '../../../server/platform/secret-store.ts';
import type { Profile } from '../profiles.ts';
import { buildCliBundle, runCli, type CliBundle, type CliRun } from './cli-bundle.ts';
import { addProfile, freePort, tempHome } from './fixtures.ts';
import { startTestProvider, TEST_CLIENTS, type TestProvider } from './test-provider.ts';

/** What a token test file needs started besides a fresh config root per test. */
export interface TokenTestBedOptions {
  /** Start the local OpenID provider (oidc-provider on loopback, `TEST_CLIENTS`) once per file. */
  provider?: boolean;
  /** Register the `web` client's redirect on a free port (`webPort`); implies `provider`. */
  webRedirect?: boolean;
  /** Build the shipped `get-token` and `pipeline-summary` bundles once per file. */
  bundle?: boolean;
  /**
   * Run against the real OS keychain: refuse to start outside a D-Bus session, and after each test
   * delete the token cache key and these accounts of its config root from the keychain (the
   * keyring outlives the temp dir).
   */
  keychain?: { accounts: readonly string[] };
}

/** The started pieces, read inside tests and hooks (each test gets its own `home`). */
export interface TokenTestBed {
  /** The local OpenID provider. */
  readonly provider: TestProvider;
  /** The shipped commands, built for this file. */
  readonly bundle: CliBundle;
  /** This test's config root (PIPELINE_SUMMARY_HOME), removed after it. */
  readonly home: string;
  /** The port of the `web` client's registered redirect (`webRedirect`). */
  readonly webPort: number;
  /** A spawned command's environment: this test's config root and the file secret store, then `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Saves a client-credentials profile of the `service` client, its secret in the file store. */
  serviceProfile(name: string, secret?: string): Promise<Profile>;
  /**
   * The same profile through the shipped `pipeline-summary profile add`, its secret on stdin (so
   * the command's own secret store keeps it), with `env` and any `extraArgs`.
   */
  addServiceProfileWithCli(
    name: string,
    env: Record<string, string>,
    extraArgs?: string[],
  ): Promise<CliRun>;
}

/**
 * The setting every token test shares: registers the vitest hooks that start the local OpenID
 * provider and build the CLI bundle once per file (as asked), give each test a fresh config root in
 * the temp dir, and clean both up. Call it once at the top of a test file.
 */
export function useTokenTestBed(options: TokenTestBedOptions = {}): TokenTestBed {
  let provider: TestProvider | undefined;
  let bundle: CliBundle | undefined;
  let webPort: number | undefined;
  let home: string | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the token test bed has no ${what} here`);
    return value;
  };

  beforeAll(async () => {
    if (options.keychain && !process.env.DBUS_SESSION_BUS_ADDRESS) {
      throw new Error('keychain tests need a D-Bus session: run them through scripts/test-all.sh');
    }
    if (options.webRedirect) webPort = await freePort();
    [provider, bundle] = await Promise.all([
      options.provider || options.webRedirect
        ? startTestProvider(webPort === undefined ? {} : { webRedirectPort: webPort })
        : undefined,
      options.bundle ? buildCliBundle() : undefined,
    ]);
  });
  afterAll(async () => {
    await Promise.all([provider?.close(), bundle?.cleanup()]);
  });
  beforeEach(async () => {
    ({ home, cleanup } = await tempHome());
  });
  afterEach(async () => {
    if (options.keychain) {
      const store = await openSecretStore({ home: home!, mode: 'keychain' });
      for (const account of [SECRET_ACCOUNTS.tokenCacheKey, ...options.keychain.accounts]) {
        await store.delete(account);
      }
    }
    await cleanup?.();
  });

  const bed: TokenTestBed = {
    get provider() {
      return started(provider, 'OpenID provider (options.provider)');
    },
    get bundle() {
      return started(bundle, 'CLI bundle (options.bundle)');
    },
    get home() {
      return started(home, 'config root outside a test');
    },
    get webPort() {
      return started(webPort, 'web redirect port (options.webRedirect)');
    },
    env: (extra = {}) => ({
      PIPELINE_SUMMARY_HOME: bed.home,
      PIPELINE_SUMMARY_SECRET_STORE: 'file',
      ...extra,
    }),
    serviceProfile: (name, secret = TEST_CLIENTS.service.secret) =>
      addProfile(
        bed.home,
        {
          name,
          issuer: bed.provider.issuer,
          clientId: TEST_CLIENTS.service.id,
          scopes: ['api:read'],
        },
        secret,
      ),
    addServiceProfileWithCli: (name, env, extraArgs = []) =>
      runCli(
        bed.bundle.pipelineSummary,
        [
          'profile',
          'add',
          name,
          '--issuer',
          bed.provider.issuer,
          '--client-id',
          TEST_CLIENTS.service.id,
          '--client-secret-stdin',
          ...extraArgs,
        ],
        { env, input: TEST_CLIENTS.service.secret },
      ),
  };
  return bed;
}
