/**
 * The token cache's format, shared by the cached-token fast path, the cache and the profiles: what
 * an entry holds, how it is keyed, when it is still usable, and how the file is opened. It imports
 * only the leaf aes-gcm.ts (Node built-ins come through process.getBuiltinModule), so every module
 * of the engine can depend on it without forming a cycle, and the cached path's bundle stays small.
 */
import { openAes256Gcm } from './aes-gcm.ts';

/** A cached token is refreshed when it expires within this margin (or half its lifetime if shorter). */
export const REFRESH_MARGIN_MS = 5 * 60_000;

/** Tag of the cache file format (token-cache.json's `format`). */
export const CACHE_FORMAT = 'pipeline-summary-token-cache';
/** Binds the ciphertext to its purpose, so a blob encrypted with the same key elsewhere won't open. */
export const CACHE_AAD = `${CACHE_FORMAT}/v1`;
/** The secret-store account of the cache key (SECRET_ACCOUNTS.tokenCacheKey; a test keeps them equal). */
export const CACHE_KEY_ACCOUNT = 'token-cache-key';

/**
 * The flows get-token runs; each cache entry records the one that obtained it. The OAuth 2.0
 * flows, and `managed-identity`: Azure's token endpoint on the machine itself (IMDS, App Service).
 */
export const FLOWS = [
  'client-credentials',
  'interactive',
  'device-code',
  'authorization-code',
  'managed-identity',
] as const;
/** One of `FLOWS`. */
export type FlowName = (typeof FLOWS)[number];

/** True for the flows that need a person (a browser sign-in or a device code). */
export function isUserFlow(flow: FlowName): boolean {
  return flow === 'interactive' || flow === 'device-code' || flow === 'authorization-code';
}

/** One cached token response. Times are ms since the epoch. */
export interface CachedToken {
  accessToken: string;
  tokenType: string;
  /** Scopes the server granted, space-separated (may differ from those asked for). */
  scope: string;
  refreshToken?: string;
  idToken?: string;
  expiresAt: number;
  obtainedAt: number;
  flow: FlowName;
  /** Which client at which server the token belongs to; an edited profile misses old entries. */
  client: string;
}

/** The decrypted cache: entries by `cacheKey`. */
export interface CacheContents {
  version: 1;
  entries: Record<string, CachedToken>;
}

/**
 * The profile fields a cache entry depends on (a `Profile` has them all): its key and its client
 * identity are built from these alone.
 */
export interface CacheProfile {
  name: string;
  issuer?: string;
  tenant?: string;
  tokenEndpoint?: string;
  /** Absent only for managed-identity profiles, which need no app registration. */
  clientId?: string;
  /** The user-assigned managed identity's client id (managed-identity flow). */
  managedIdentityClientId?: string;
  resource?: string;
  audience?: string;
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
export function cacheKey(profile: CacheProfile, scopes: string[]): string {
  return JSON.stringify([
    profile.name,
    scopes.join(' '),
    profile.resource ?? '',
    profile.audience ?? '',
  ]);
}

/**
 * The client identity a token belongs to, stored in each entry. A user-assigned managed identity
 * is part of it (appended only when set, so entries of other profiles keep their identity).
 */
export function clientIdentity(profile: CacheProfile): string {
  const identity = [profile.issuer ?? profile.tenant ?? '', profile.tokenEndpoint ?? ''];
  identity.push(profile.clientId ?? '');
  if (profile.managedIdentityClientId) identity.push(`mi:${profile.managedIdentityClientId}`);
  return JSON.stringify(identity);
}

/** True when `entry` may be served at `now` without refreshing. */
export function usableAt(entry: CachedToken, now: number): boolean {
  const margin = Math.min(REFRESH_MARGIN_MS, (entry.expiresAt - entry.obtainedAt) / 2);
  return entry.expiresAt - now > margin;
}

/**
 * The decrypted contents, or undefined when the file is not a cache this key can open. The
 * engine's own shape (256-bit key, 96-bit IV, 128-bit tag) is opened in plain JavaScript
 * (aes-gcm.ts), sparing the cached path node:crypto's load; anything else goes to node:crypto.
 */
export function decryptCache(text: string, keyText: string): CacheContents | undefined {
  try {
    const envelope = JSON.parse(text) as Record<string, string | number>;
    if (envelope.format !== CACHE_FORMAT || envelope.version !== 1) return undefined;
    const key = Buffer.from(keyText, 'base64');
    if (key.length !== 32) return undefined;
    const iv = Buffer.from(String(envelope.iv), 'base64');
    const tag = Buffer.from(String(envelope.tag), 'base64');
    const ciphertext = Buffer.from(String(envelope.ciphertext), 'base64');
    const aad = Buffer.from(CACHE_AAD);
    let plain: string;
    if (iv.length === 12 && tag.length === 16) {
      const opened = openAes256Gcm(key, iv, ciphertext, tag, aad);
      if (!opened) return undefined;
      plain = Buffer.from(opened.buffer, opened.byteOffset, opened.length).toString('utf8');
    } else {
      const { createDecipheriv } = process.getBuiltinModule('node:crypto');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      plain = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    }
    const contents = JSON.parse(plain) as CacheContents;
    if (typeof contents.entries !== 'object' || contents.entries === null) return undefined;
    return { version: 1, entries: contents.entries };
  } catch {
    return undefined;
  }
}
