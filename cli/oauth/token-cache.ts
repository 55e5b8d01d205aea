import path from 'node:path';
import { SECRET_ACCOUNTS, type SecretStore } from '../../server/platform/secret-store.ts';
import { acquireLock, type LockOptions } from './cache-lock.ts';
import { TokenError } from './errors.ts';
import { nodeCrypto, nodeFsPromises } from '../../server/platform/builtins.ts';
import {
  ensurePrivateDir,
  readTextIfExists,
  writeFileAtomic,
} from '../../server/platform/files.ts';
import {
  CACHE_AAD,
  CACHE_FORMAT,
  decryptCache,
  type CacheContents,
  type CachedToken,
} from './cache-format.ts';

/** The on-disk envelope of token-cache.json (the plaintext is `CacheContents` as JSON). */
interface CacheEnvelope {
  format: typeof FORMAT;
  version: 1;
  cipher: 'aes-256-gcm';
  iv: string;
  tag: string;
  ciphertext: string;
}

const FORMAT = CACHE_FORMAT;
const AAD = Buffer.from(CACHE_AAD);

export { cacheKey, clientIdentity } from './cache-format.ts';
export type { CachedToken } from './cache-format.ts';

/** The profile name inside a cache key. */
export function profileOfKey(key: string): string | undefined {
  try {
    const parts = JSON.parse(key) as unknown;
    return Array.isArray(parts) && typeof parts[0] === 'string' ? parts[0] : undefined;
  } catch {
    return undefined;
  }
}

/** A read-modify-write session on the cache, open while the lock is held. */
export interface CacheTransaction {
  get(key: string): CachedToken | undefined;
  set(key: string, entry: CachedToken): void;
  delete(key: string): void;
  keys(): string[];
}

/**
 * The encrypted token cache shared by the CLI and the tray: `<home>/token-cache.json`, AES-256-GCM
 * with a random 256-bit key kept in the secret store. Lock-free lookups (atomic renames make every
 * read see a whole file); every change goes through `transaction`, which holds
 * `<home>/token-cache.lock` across read → (refresh) → write.
 */
export class TokenCache {
  readonly file: string;
  readonly lockFile: string;
  constructor(
    readonly home: string,
    private readonly store: SecretStore,
    private readonly notify: (line: string) => void = () => undefined,
  ) {
    this.file = path.join(home, 'token-cache.json');
    this.lockFile = path.join(home, 'token-cache.lock');
  }

  /** A cached entry without taking the lock; a missing, damaged or undecryptable cache is a miss. */
  async lookup(key: string): Promise<CachedToken | undefined> {
    const text = await this.readFile();
    if (text === undefined) return undefined;
    const keyText = await this.store.get(SECRET_ACCOUNTS.tokenCacheKey);
    if (!keyText) return undefined;
    const contents = decryptCache(text, keyText);
    return contents?.entries[key];
  }

  /**
   * Runs `fn` with the lock held on freshly read contents and writes them back if `fn` changed
   * anything. A damaged or undecryptable cache is moved aside (and said so) and starts empty.
   */
  async transaction<T>(fn: (tx: CacheTransaction) => Promise<T>, lock: LockOptions): Promise<T> {
    await ensurePrivateDir(this.home);
    const release = await acquireLock(this.lockFile, lock);
    try {
      let keyText = await this.store.get(SECRET_ACCOUNTS.tokenCacheKey);
      const text = await this.readFile();
      let contents: CacheContents = { version: 1, entries: {} };
      if (text !== undefined) {
        const opened = keyText ? decryptCache(text, keyText) : undefined;
        if (opened) contents = opened;
        else
          await this.moveAside(
            keyText
              ? 'it is damaged or was encrypted with another key'
              : 'its key is missing from the secret store',
          );
      }
      let dirty = false;
      const entries = contents.entries;
      const tx: CacheTransaction = {
        get: (key) => entries[key],
        set: (key, entry) => {
          entries[key] = entry;
          dirty = true;
        },
        delete: (key) => {
          if (key in entries) {
            delete entries[key];
            dirty = true;
          }
        },
        keys: () => Object.keys(entries),
      };
      const result = await fn(tx);
      if (dirty) {
        if (!keyText) {
          keyText = nodeCrypto().randomBytes(32).toString('base64');
          await this.store.set(SECRET_ACCOUNTS.tokenCacheKey, keyText);
        }
        await writeFileAtomic(this.file, encrypt(contents, keyText), 0o600);
      }
      return result;
    } finally {
      await release();
    }
  }

  private async readFile(): Promise<string | undefined> {
    try {
      return await readTextIfExists(this.file);
    } catch (err) {
      throw new TokenError(
        'general',
        `cannot read the token cache ${this.file}: ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }

  private async moveAside(why: string): Promise<void> {
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await nodeFsPromises().rename(this.file, aside);
    this.notify(
      `warning: the token cache could not be opened (${why}); moved it to ${aside} and started a new one — cached tokens must be fetched again`,
    );
  }
}

function encrypt(contents: CacheContents, keyText: string): string {
  const { createCipheriv, randomBytes } = nodeCrypto();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyText, 'base64'), iv);
  cipher.setAAD(AAD);
  const ciphertext = Buffer.concat([
    cipher.update(JSON.stringify(contents), 'utf8'),
    cipher.final(),
  ]);
  const envelope: CacheEnvelope = {
    format: FORMAT,
    version: 1,
    cipher: 'aes-256-gcm',
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    ciphertext: ciphertext.toString('base64'),
  };
  return JSON.stringify(envelope) + '\n';
}
