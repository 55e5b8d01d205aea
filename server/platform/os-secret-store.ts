import path from 'node:path';
import { nodeFs, nodeFsPromises } from './builtins.ts';
import { ensurePrivateDir, readTextIfExists, writeFileAtomic } from './files.ts';
import { appHome, keychainService } from './paths.ts';
import { SecretStoreError, type SecretStore } from './secret-store.ts';

/** Which backend holds secrets: the OS keychain, a 0600 file, or the keychain when reachable. */
export type SecretStoreMode = 'auto' | 'keychain' | 'file';

export { keychainService } from './paths.ts';

/** Environment variable that picks the backend when no `--store` flag is given. */
export const SECRET_STORE_ENV = 'PIPELINE_SUMMARY_SECRET_STORE';

/** The slice of @napi-rs/keyring's `AsyncEntry` we use, so tests can hand in a fake keychain. */
export interface KeychainEntry {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deleteCredential(): Promise<boolean>;
}

/** Opens one keychain entry; throws when no keychain is reachable (e.g. no D-Bus session). */
export type KeychainOpener = (service: string, account: string) => Promise<KeychainEntry>;

/** Options of `openSecretStore`. */
export interface OpenSecretStoreOptions {
  /** Config root; defaults to `appHome()`. */
  home?: string;
  /** Backend; defaults to $PIPELINE_SUMMARY_SECRET_STORE, else 'auto'. */
  mode?: SecretStoreMode;
  /** Where the one-time "falling back to a file" notice goes; defaults to stderr. */
  warn?: (line: string) => void;
  /** The keychain edge; defaults to @napi-rs/keyring (loaded on first use). */
  keychain?: KeychainOpener;
  /** Environment to read the mode from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Opens the product's secret store: the OS keychain (macOS Keychain, Windows Credential Manager,
 * Secret Service on Linux) through @napi-rs/keyring, or a 0600 JSON file in a 0700 directory under
 * the config root. In 'auto' mode the first keychain failure switches to the file — said once on
 * stderr — so headless Linux boxes keep working. Nothing native is loaded until a secret is used.
 */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<SecretStore> {
  const env = options.env ?? process.env;
  const home = options.home ?? appHome(env);
  const mode = options.mode ?? parseSecretStoreMode(env[SECRET_STORE_ENV], SECRET_STORE_ENV);
  const warn = options.warn ?? ((line: string) => process.stderr.write(line + '\n'));
  const file = new FileSecretStore(path.join(home, 'secrets'));
  if (mode === 'file') return file;
  const keychain = new KeychainSecretStore(
    keychainService(home, env),
    options.keychain ?? loadNapiKeychain,
  );
  if (mode === 'keychain') return keychain;
  if (!keychainMayBeReachable(env)) {
    // Skip loading the native keyring just to watch it fail (a cached get-token on a headless box).
    const fallback = new FallbackSecretStore(file, file, warn);
    await fallback.noteFallback('no D-Bus session bus for the Secret Service');
    return fallback;
  }
  return new FallbackSecretStore(keychain, file, warn);
}

/** Validates a store mode from a flag or the environment; undefined means 'auto'. */
export function parseSecretStoreMode(
  value: string | undefined,
  source = '--store',
): SecretStoreMode {
  if (value === undefined || value === '') return 'auto';
  if (value === 'auto' || value === 'keychain' || value === 'file') return value;
  throw new SecretStoreError(
    'invalid_store_mode',
    `${source} must be keychain, file or auto, not '${value}'`,
  );
}

/**
 * False when a keychain cannot possibly answer: on Linux the Secret Service lives on the D-Bus
 * session bus, which needs $DBUS_SESSION_BUS_ADDRESS or a bus socket in $XDG_RUNTIME_DIR.
 */
function keychainMayBeReachable(env: NodeJS.ProcessEnv): boolean {
  if (process.platform !== 'linux') return true;
  if (env.DBUS_SESSION_BUS_ADDRESS) return true;
  return !!env.XDG_RUNTIME_DIR && nodeFs().existsSync(path.join(env.XDG_RUNTIME_DIR, 'bus'));
}

const loadNapiKeychain: KeychainOpener = async (service, account) => {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  // On Linux, require the Secret Service: the kernel keyring (keyring's silent fallback) forgets
  // everything at logout, which would make the token cache undecryptable.
  return new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
};

/** Secrets in the OS keychain, one entry per account under one service name. */
export class KeychainSecretStore implements SecretStore {
  readonly backend: string;
  constructor(
    private readonly service: string,
    private readonly open: KeychainOpener,
  ) {
    this.backend = `OS keychain (${keychainName()})`;
  }
  async get(account: string): Promise<string | undefined> {
    const entry = await this.entry(account);
    return (await this.call(() => entry.getPassword(), 'read')) ?? undefined;
  }
  async set(account: string, secret: string): Promise<void> {
    const entry = await this.entry(account);
    await this.call(() => entry.setPassword(secret), 'write');
  }
  async delete(account: string): Promise<boolean> {
    const entry = await this.entry(account);
    return this.call(() => entry.deleteCredential(), 'delete');
  }
  private async entry(account: string): Promise<KeychainEntry> {
    return this.call(() => this.open(this.service, account), 'open');
  }
  private async call<T>(op: () => Promise<T>, what: string): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new KeychainUnavailableError(
        `cannot ${what} the ${keychainName()}: ${firstLine(err)}. Unlock it, or keep secrets in a file with --store file (or ${SECRET_STORE_ENV}=file).`,
        { cause: err },
      );
    }
  }
}

/** The keychain could not be reached or used; 'auto' mode falls back to the file store on this. */
export class KeychainUnavailableError extends SecretStoreError {
  constructor(message: string, options: { cause: unknown }) {
    super('secret_store_unavailable', message, options);
  }
}

const NOTICE_MARKER = '.keychain-fallback-noticed';

interface SecretFile {
  version: 1;
  secrets: Record<string, string>;
}

/**
 * Secrets in `<dir>/secrets.json`, mode 0600 in a 0700 directory: the fallback for machines with no
 * reachable keychain. Anyone who can read the user's files can read these secrets; the notice on
 * fallback says so.
 */
export class FileSecretStore implements SecretStore {
  readonly backend: string;
  private readonly file: string;
  constructor(readonly dir: string) {
    this.file = path.join(dir, 'secrets.json');
    this.backend = `file (${this.file})`;
  }
  async get(account: string): Promise<string | undefined> {
    return (await this.read()).secrets[account];
  }
  async set(account: string, secret: string): Promise<void> {
    const data = await this.read();
    data.secrets[account] = secret;
    await this.write(data);
  }
  async delete(account: string): Promise<boolean> {
    const data = await this.read();
    if (!(account in data.secrets)) return false;
    delete data.secrets[account];
    await this.write(data);
    return true;
  }
  /** True once the "no keychain, using this file" notice was shown for this config root. */
  async noticeGiven(): Promise<boolean> {
    try {
      await nodeFsPromises().stat(path.join(this.dir, NOTICE_MARKER));
      return true;
    } catch {
      return false;
    }
  }
  /** Remembers that the fallback notice was shown. */
  async markNoticeGiven(): Promise<void> {
    await ensurePrivateDir(this.dir);
    await writeFileAtomic(path.join(this.dir, NOTICE_MARKER), new Date().toISOString() + '\n');
  }
  private async read(): Promise<SecretFile> {
    let text: string | undefined;
    try {
      text = await readTextIfExists(this.file);
    } catch (err) {
      throw new SecretStoreError(
        'secret_store_io',
        `cannot read the secret file ${this.file}: ${firstLine(err)}`,
        { cause: err },
      );
    }
    if (text === undefined) return { version: 1, secrets: {} };
    try {
      const parsed = JSON.parse(text) as Partial<SecretFile>;
      if (parsed && typeof parsed.secrets === 'object' && parsed.secrets !== null) {
        return { version: 1, secrets: { ...parsed.secrets } };
      }
    } catch {
      // fall through to the error below
    }
    throw new SecretStoreError(
      'secret_store_damaged',
      `the secret file ${this.file} is damaged; fix or delete it, then store the secrets again`,
    );
  }
  private async write(data: SecretFile): Promise<void> {
    await ensurePrivateDir(this.dir);
    if (Object.keys(data.secrets).length === 0) {
      await nodeFsPromises().rm(this.file, { force: true });
      return;
    }
    await writeFileAtomic(this.file, JSON.stringify(data, null, 2) + '\n', 0o600);
  }
}

/**
 * 'auto' mode: the keychain until it fails once, then the file store for the rest of the process.
 * The notice is printed once per config root (a marker file remembers it), so a headless box is
 * told where its secrets live without every scripted `get-token` repeating it.
 */
class FallbackSecretStore implements SecretStore {
  private active: SecretStore;
  private warned = false;
  constructor(
    keychain: SecretStore,
    private readonly file: FileSecretStore,
    private readonly warn: (line: string) => void,
  ) {
    this.active = keychain;
  }
  get backend(): string {
    return this.active.backend;
  }
  async get(account: string): Promise<string | undefined> {
    return this.run((store) => store.get(account));
  }
  async set(account: string, secret: string): Promise<void> {
    return this.run((store) => store.set(account, secret));
  }
  async delete(account: string): Promise<boolean> {
    return this.run((store) => store.delete(account));
  }
  private async run<T>(op: (store: SecretStore) => Promise<T>): Promise<T> {
    if (this.active !== this.file) {
      try {
        return await op(this.active);
      } catch (err) {
        if (!(err instanceof KeychainUnavailableError)) throw err;
        this.active = this.file;
        await this.noteFallback(firstLine(err.cause));
      }
    }
    return op(this.file);
  }
  /** Says once per config root (a marker file remembers) that secrets went to the file. */
  async noteFallback(why: string): Promise<void> {
    if (this.warned || (await this.file.noticeGiven())) return;
    this.warned = true;
    await this.file.markNoticeGiven();
    this.warn(
      `note: no OS keychain reachable (${why}); keeping secrets in ${this.file.backend.replace(/^file \((.*)\)$/, '$1')} (mode 0600). Set ${SECRET_STORE_ENV}=file to silence this, or unlock a keychain.`,
    );
  }
}

function keychainName(): string {
  if (process.platform === 'darwin') return 'macOS Keychain';
  if (process.platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service keyring';
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.replace(/^Platform failure: /, '');
}
