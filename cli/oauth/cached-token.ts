/**
 * The cached-token path of get-token and the printed token response. The cache rules it shares
 * with the engine (keys, client identity, AES-256-GCM opening, when an entry is still usable) are
 * in cache-format.ts.
 *
 * Scripts call get-token in loops, so a cache hit must cost little more than starting Node
 * (bench/token.bench.ts: ≤ 1.25× `node -e 0`). Both binaries try `answerFromCache` before loading
 * anything else; it imports no module of ours but paths.ts, cache-format.ts, exec-credential.ts
 * (kubectl calls it for every command) and secret-service-reader.ts (the Linux keychain over
 * D-Bus, without the 3 MB keyring addon), takes Node built-ins through process.getBuiltinModule
 * (no ESM facades), reads three small files — or two and one keychain item — and decrypts one.
 * Whenever it is not sure — a flag it does not handle, another platform's keychain, a locked
 * item, a miss, anything odd — it answers undefined and the full command runs, so it never
 * decides anything the engine would decide differently.
 */
import { appHome, keychainService } from '../../server/platform/paths.ts';
import {
  sessionBusPath,
  startSecretServiceRead,
  type SecretServiceRead,
} from '../../server/platform/secret-service-reader.ts';
import {
  CACHE_KEY_ACCOUNT,
  cacheKey,
  clientIdentity,
  decryptCache,
  normaliseScopes,
  splitScopes,
  usableAt,
  type CachedToken,
} from './cache-format.ts';
import {
  EXEC_INFO_ENV,
  formatExecCredential,
  readExecInfo,
  type ExecInfo,
} from './exec-credential.ts';
import type { Profile } from './profiles.ts';

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

/** get-token's output formats; `exec-credential` is kubectl's (exec-credential.ts). */
export const OUTPUT_FORMATS = ['token', 'json', 'yaml', 'exec-credential'] as const;
/** One of `OUTPUT_FORMATS`. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

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
 * so no YAML library has to load on the cached path); `exec-credential` is the ExecCredential
 * kubectl asked for in `exec` (default: v1).
 */
export function formatTokenResponse(
  response: TokenResponse,
  format: OutputFormat,
  exec?: ExecInfo,
): string {
  if (format === 'token') return response.access_token + '\n';
  if (format === 'exec-credential') {
    const info = exec ?? (readExecInfo(undefined) as ExecInfo);
    return formatExecCredential(response.access_token, response.expires_at, info);
  }
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

/** Starts reading one Secret Service secret (server/platform/secret-service-reader.ts); tests pass a fake. */
export type StartSecretServiceRead = (
  busPath: string,
  attributes: Record<string, string>,
) => SecretServiceRead;

/**
 * get-token's answer from the cache for `argv` (the arguments after the command), or undefined
 * when the full command must run. Handles `-p/--profile`, `-s/--scope`, `-o/--output`, `--silent`
 * and `--store`: the cache key comes from the secret file, or on Linux from the Secret Service
 * (read over D-Bus in plain JavaScript, without loading the keyring addon) where the engine's
 * store would look first. Never rejects.
 */
export async function answerFromCache(
  argv: string[],
  env: NodeJS.ProcessEnv,
  now = Date.now(),
  startRead: StartSecretServiceRead = startSecretServiceRead,
): Promise<string | undefined> {
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
  if (store !== 'file' && store !== 'auto' && store !== 'keychain') return undefined;
  let exec: ExecInfo | undefined;
  if (format === 'exec-credential') {
    const info = readExecInfo(env[EXEC_INFO_ENV]);
    if (typeof info === 'string') return undefined; // the full command explains it
    exec = info;
  }
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
  // Where the engine's store (server/platform/os-secret-store.ts) would find the cache key:
  // 'keychain' and 'auto' with a session bus ask the Secret Service first; 'auto' without one uses
  // the file once the one-time notice was given; other platforms' keychains are the engine's.
  let busPath: string | undefined;
  if (store !== 'file') {
    if (process.platform !== 'linux') return undefined;
    const bus =
      env.DBUS_SESSION_BUS_ADDRESS ||
      (env.XDG_RUNTIME_DIR && fs.existsSync(`${env.XDG_RUNTIME_DIR}/bus`));
    if (bus) busPath = sessionBusPath(env);
    else if (store === 'keychain') return undefined;
    else if (!fs.existsSync(`${secretsDir}/.keychain-fallback-noticed`)) return undefined;
    if (bus && !busPath) return undefined;
  }
  // Ask the Secret Service first: it answers while this process reads and parses the files.
  const keychainKey = busPath
    ? startRead(busPath, { service: keychainService(home, env), username: CACHE_KEY_ACCOUNT })
    : undefined;
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
    const cacheText = read(`${home}/token-cache.json`);
    if (cacheText === undefined) return undefined;
    const keyText = keychainKey
      ? await keychainKey.result
      : (
          JSON.parse(read(`${secretsDir}/secrets.json`) ?? 'null') as {
            secrets?: Record<string, string>;
          } | null
        )?.secrets?.[CACHE_KEY_ACCOUNT];
    if (!keyText) return undefined;
    const entry = decryptCache(cacheText, keyText)?.entries[cacheKey(profile, scopes)];
    if (!entry || entry.client !== clientIdentity(profile) || !usableAt(entry, now)) {
      return undefined;
    }
    return formatTokenResponse(toTokenResponse(entry, now), format as OutputFormat, exec);
  } catch {
    return undefined;
  } finally {
    keychainKey?.cancel();
  }
}
