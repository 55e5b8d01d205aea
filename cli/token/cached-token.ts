/**
 * The cached-token path of get-token, and the cache rules it shares with the engine: cache keys,
 * client identity, AES-256-GCM opening, when an entry is still usable, and the printed response.
 *
 * Scripts call get-token in loops, so a cache hit must cost little more than starting Node
 * (bench/token.bench.ts: ≤ 1.25× `node -e 0`). Both binaries try `answerFromCache` before loading
 * anything else; it imports no module of ours but paths.ts, takes Node built-ins through
 * process.getBuiltinModule (no ESM facades), reads three small files and decrypts one. Whenever it
 * is not sure — a flag it does not handle, a keychain to ask, a miss, anything odd — it answers
 * undefined and the full command runs, so it never decides anything the engine would decide
 * differently.
 */
import { appHome } from '../../server/platform/paths.ts';
import type { Profile } from './profiles.ts';
import type { CachedToken } from './token-cache.ts';

/** A cached token is refreshed when it expires within this margin (or half its lifetime if shorter). */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/** Tag of the cache file format (token-cache.json's `format`). */
export const CACHE_FORMAT = 'pipeline-summary-token-cache';
/** Binds the ciphertext to its purpose, so a blob encrypted with the same key elsewhere won't open. */
export const CACHE_AAD = `${CACHE_FORMAT}/v1`;
/** The secret-store account of the cache key (SECRET_ACCOUNTS.tokenCacheKey; a test keeps them equal). */
export const CACHE_KEY_ACCOUNT = 'token-cache-key';

/** The token response get-token prints with `-o json|yaml` (GET-TOKEN.md), fields in this order. */
export interface TokenResponse {
  token_type: string;
  /** Space-separated scopes granted. */
  scope: string;
  /** Seconds left until expiry, at the time of output. */
  expires_in: number;
  access_token: string;
  /** Empty when the server issued none (client-credentials). */
  refresh_token: string;
  /** ISO 8601 UTC. */
  expires_at: string;
}

/** get-token's output formats. */
export const OUTPUT_FORMATS = ['token', 'json', 'yaml'] as const;
/** One of `OUTPUT_FORMATS`. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The decrypted cache: entries by `cacheKey`. */
export interface CacheContents {
  version: 1;
  entries: Record<string, CachedToken>;
}

/** Splits a space-separated scope string. */
export function splitScopes(value: string): string[] {
  return value.split(/\s+/).filter(Boolean);
}

/** Scopes as a set in a stable order, so "b a" and "a  b" name the same cache entry. */
export function normaliseScopes(scopes: string[]): string[] {
  return [...new Set(scopes.filter(Boolean))].sort();
}

/** The cache key of a profile + scope set (+ resource/audience). */
export function cacheKey(profile: Profile, scopes: string[]): string {
  return JSON.stringify([
    profile.name,
    scopes.join(' '),
    profile.resource ?? '',
    profile.audience ?? '',
  ]);
}

/** The client identity a token belongs to, stored in each entry. */
export function clientIdentity(profile: Profile): string {
  return JSON.stringify([
    profile.issuer ?? profile.tenant ?? '',
    profile.tokenEndpoint ?? '',
    profile.clientId,
  ]);
}

/** True when `entry` may be served at `now` without refreshing. */
export function usableAt(entry: CachedToken, now: number): boolean {
  const margin = Math.min(REFRESH_MARGIN_MS, (entry.expiresAt - entry.obtainedAt) / 2);
  return entry.expiresAt - now > margin;
}

/** The decrypted contents, or undefined when the file is not a cache this key can open. */
export function decryptCache(text: string, keyText: string): CacheContents | undefined {
  try {
    const envelope = JSON.parse(text) as Record<string, string | number>;
    if (envelope.format !== CACHE_FORMAT || envelope.version !== 1) return undefined;
    const key = Buffer.from(keyText, 'base64');
    if (key.length !== 32) return undefined;
    const { createDecipheriv } = process.getBuiltinModule('node:crypto');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      key,
      Buffer.from(String(envelope.iv), 'base64'),
    );
    decipher.setAAD(Buffer.from(CACHE_AAD));
    decipher.setAuthTag(Buffer.from(String(envelope.tag), 'base64'));
    const plain = Buffer.concat([
      decipher.update(Buffer.from(String(envelope.ciphertext), 'base64')),
      decipher.final(),
    ]).toString('utf8');
    const contents = JSON.parse(plain) as CacheContents;
    if (typeof contents.entries !== 'object' || contents.entries === null) return undefined;
    return { version: 1, entries: contents.entries };
  } catch {
    return undefined;
  }
}

/** The response for a cached entry as seen at `now` (ms). */
export function toTokenResponse(entry: CachedToken, now: number): TokenResponse {
  return {
    token_type: entry.tokenType,
    scope: entry.scope,
    expires_in: Math.max(0, Math.floor((entry.expiresAt - now) / 1000)),
    access_token: entry.accessToken,
    refresh_token: entry.refreshToken ?? '',
    expires_at: new Date(entry.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/**
 * The printable output, ending in a newline. `token` is the access token alone; `json` is the
 * response as pretty JSON; `yaml` is flat YAML with every string double-quoted (valid YAML 1.2,
 * so no YAML library has to load on the cached path).
 */
export function formatTokenResponse(response: TokenResponse, format: OutputFormat): string {
  if (format === 'token') return response.access_token + '\n';
  if (format === 'json') return JSON.stringify(response, null, 2) + '\n';
  return (
    Object.entries(response)
      .map(([key, value]) => `${key}: ${typeof value === 'number' ? value : JSON.stringify(value)}`)
      .join('\n') + '\n'
  );
}

/** Writes a cached answer to stdout; a reader that has gone (`| head -c0`) is no error. */
export function printCachedAnswer(text: string): void {
  const fs = process.getBuiltinModule('node:fs');
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(fs.writeSync(1, rest));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
    // A non-blocking pipe that is full: let the stream queue the rest.
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') process.stdout.write(rest);
    else throw err;
  }
}

/**
 * get-token's answer from the cache for `argv` (the arguments after the command), or undefined
 * when the full command must run. Handles `-p/--profile`, `-s/--scope`, `-o/--output`, `--silent`
 * and `--store file|auto`, with the secret-file store only: the keychain is the engine's business.
 */
export function answerFromCache(
  argv: string[],
  env: NodeJS.ProcessEnv,
  now = Date.now(),
): string | undefined {
  let profileName = 'default';
  let scope: string | undefined;
  let format: string = 'token';
  let store = env.PIPELINE_SUMMARY_SECRET_STORE || 'auto';
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--silent') continue;
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('-')) return undefined;
    i++;
    if (flag === '-p' || flag === '--profile') profileName = value;
    else if (flag === '-s' || flag === '--scope') scope = value;
    else if (flag === '-o' || flag === '--output') format = value;
    else if (flag === '--store') store = value;
    else return undefined;
  }
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) return undefined;
  if (store !== 'file' && store !== 'auto') return undefined;
  const fs = process.getBuiltinModule('node:fs');
  const home = appHome(env);
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  };
  const secretsDir = `${home}/secrets`;
  if (store === 'auto') {
    // 'auto' means the file only where no keychain can answer and the one-time notice was given
    // (server/platform/os-secret-store.ts); anything else is the engine's to handle.
    if (process.platform !== 'linux' || env.DBUS_SESSION_BUS_ADDRESS) return undefined;
    if (env.XDG_RUNTIME_DIR && fs.existsSync(`${env.XDG_RUNTIME_DIR}/bus`)) return undefined;
    if (!fs.existsSync(`${secretsDir}/.keychain-fallback-noticed`)) return undefined;
  }
  try {
    const profiles = (
      JSON.parse(read(`${home}/profiles.json`) ?? 'null') as {
        profiles?: Record<string, Omit<Profile, 'name'>>;
      } | null
    )?.profiles;
    const stored = profiles?.[profileName];
    if (!stored || typeof stored !== 'object' || !Array.isArray(stored.scopes)) return undefined;
    const profile = { ...stored, name: profileName } as Profile;
    const scopes =
      scope !== undefined ? normaliseScopes(splitScopes(scope)) : normaliseScopes(profile.scopes);
    const keyText = (
      JSON.parse(read(`${secretsDir}/secrets.json`) ?? 'null') as {
        secrets?: Record<string, string>;
      } | null
    )?.secrets?.[CACHE_KEY_ACCOUNT];
    const cacheText = read(`${home}/token-cache.json`);
    if (!keyText || cacheText === undefined) return undefined;
    const entry = decryptCache(cacheText, keyText)?.entries[cacheKey(profile, scopes)];
    if (!entry || entry.client !== clientIdentity(profile) || !usableAt(entry, now)) {
      return undefined;
    }
    return formatTokenResponse(toTokenResponse(entry, now), format as OutputFormat);
  } catch {
    return undefined;
  }
}
