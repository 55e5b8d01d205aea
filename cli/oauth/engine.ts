/**
 * The token engine: profile → cached token, or refresh, or a new token through the profile's flow.
 * Shared by the CLI and the Electron tray, so it has no CLI globals: no process.exit, no stdout;
 * every edge (clock, fetch, browser, secret store, user-facing lines, sleep) can be injected.
 * Only light modules load here; openid-client and the flows load when the cache cannot answer.
 */
import { systemClock, type Clock } from '../../server/platform/clock.ts';
import { appHome } from '../../server/platform/paths.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../../server/platform/secret-store.ts';
import { isTokenError, TokenError } from './errors.ts';
import type { FlowContext, GrantedToken, NoticeKind } from './flows/flow-context.ts';
import type * as FlowsModuleNs from './flows/index.ts';
import {
  getProfile,
  issuerOf,
  loadProfiles,
  normaliseScopes,
  splitScopes,
  type FlowName,
  type Profile,
} from './profiles.ts';
import { openSecretStore, type SecretStoreMode } from '../../server/platform/os-secret-store.ts';
import {
  cacheKey,
  clientIdentity,
  profileOfKey,
  TokenCache,
  type CachedToken,
  type CacheTransaction,
} from './token-cache.ts';
import { toTokenResponse, type TokenResponse } from './cached-token.ts';
import { isUserFlow, usableAt } from './cache-format.ts';

export { REFRESH_MARGIN_MS } from './cache-format.ts';
/** Default for `timeoutMs` (GET-TOKEN.md: `--timeout` defaults to 60s). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** What `getToken` is asked for. */
export interface GetTokenOptions {
  /** Profile name. */
  profile: string;
  /** Space-separated scopes overriding the profile's. */
  scope?: string;
  /** Flow overriding the profile's (default client-credentials). */
  flow?: FlowName;
  /** Skip reading the cache; the new token is still stored. */
  force?: boolean;
  /** Neither read nor write the cache. */
  noCache?: boolean;
  /**
   * Give up after this long; reaching it is a 'timeout' TokenError. Unset: network waits and
   * non-interactive flows get 60 s, and the wait for a user to sign in is bounded by the flow
   * (the device code's lifetime, or `BROWSER_WAIT_MS`).
   */
  timeoutMs?: number;
  /** Redirect URI overriding the profile's (browser flows). */
  redirectUri?: string;
  /** The user-assigned managed identity overriding the profile's (managed-identity flow). */
  managedIdentityClientId?: string;
  /**
   * A file holding a JWT to send as the client assertion (workload identity federation), over
   * the profile's; `AZURE_FEDERATED_TOKEN_FILE` is the caller's to pass.
   */
  federatedTokenFile?: string;
  /**
   * AZURE_FEDERATED_TOKEN_FILE as the caller's environment has it: used only by profiles with
   * neither a client secret nor a certificate, the way Azure's workload identity webhook expects.
   */
  federatedTokenFileFromEnv?: string;
  /** Config root (default `appHome()`). */
  home?: string;
  /** Secret-store backend (default: $PIPELINE_SUMMARY_SECRET_STORE, else auto). */
  store?: SecretStoreMode;
  /** Cancels the operation (e.g. the tray menu closed). */
  signal?: AbortSignal;
  /**
   * False when nobody can answer a sign-in (kubectl's exec plugin without a terminal): a flow that
   * needs a person fails with 'auth_failed' instead of waiting; a refresh token is still used.
   */
  interactive?: boolean;
}

/** The edges of the engine; each defaults to the real thing. */
export interface TokenEngineEdges {
  clock?: Clock;
  fetch?: typeof globalThis.fetch;
  /** Opens a URL in the browser; default: the `open` package. */
  openBrowser?: (url: string) => Promise<void>;
  secretStore?: SecretStore;
  /**
   * Lines for the user: 'action' ones (sign-in URL, device code) must reach them for browser and
   * device flows to work; 'info' ones are notices. Default: dropped.
   */
  notify?: (line: string, kind?: NoticeKind) => void;
  /** Waits between device-code polls and managed-identity retries. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Environment of the managed-identity flow (IDENTITY_ENDPOINT, …); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Where a token came from. */
export type TokenSource = 'cache' | 'refreshed' | 'issued';

/** `getToken`'s answer. */
export interface TokenResult {
  response: TokenResponse;
  source: TokenSource;
  profile: string;
  flow: FlowName;
  /** The OIDC id_token, when the flow returned one (never printed by the CLI). */
  idToken?: string;
}

/**
 * An access token for a profile: from the cache when it has one not about to expire (no lock, no
 * network); otherwise — holding the cache lock across read → refresh → write so parallel callers
 * make one request and a rotated refresh token is never replayed — by the refresh-token grant, or
 * through the flow. Browser and device flows wait for the user without the lock and store after.
 */
export async function getToken(
  options: GetTokenOptions,
  edges: TokenEngineEdges = {},
): Promise<TokenResult> {
  const env = await prepare(options, edges);
  const { profile, key, cache, clock } = env;
  const flow = options.flow ?? profile.flow ?? 'client-credentials';
  if (!options.noCache && !options.force) {
    const hit = await cache.lookup(key);
    if (hit && env.usable(hit)) return result(hit, 'cache', profile, clock);
  }
  const userFlow = isUserFlow(flow);
  return withDeadline(options, profile, clock, userFlow, async (run) => {
    const ctx = await env.flowContext(flow, run);
    const noSignIn = () => {
      if (!userFlow || options.interactive !== false) return;
      throw new TokenError(
        'auth_failed',
        `profile '${profile.name}' needs a sign-in (${flow}), but nobody can answer one here (KUBERNETES_EXEC_INFO says interactive: false); run 'get-token -p ${profile.name}' in a terminal first, or set interactiveMode: IfAvailable in the kubeconfig`,
      );
    };
    if (options.noCache) {
      noSignIn();
      return result(
        toEntry(await env.flows.issue(ctx), flow, profile, clock, undefined, env.scopes),
        'issued',
        profile,
        clock,
      );
    }
    if (!(options.force && userFlow)) {
      const answer = await cache.transaction(async (tx) => {
        if (!options.force) {
          const entry = tx.get(key);
          if (entry && env.usable(entry)) return result(entry, 'cache', profile, clock);
          if (entry?.refreshToken && entry.client === env.client) {
            const refreshed = await env.tryRefresh(tx, entry, ctx);
            if (refreshed) return refreshed;
          }
        }
        if (userFlow) return undefined;
        return env.store(tx, await env.flows.issue(ctx), flow, 'issued');
      }, run.lock);
      if (answer) return answer;
    }
    // The user may take minutes: run the flow without the lock, then store the result.
    noSignIn();
    const token = await env.flows.issue(ctx);
    return cache.transaction(async (tx) => env.store(tx, token, flow, 'issued'), run.lock);
  });
}

/**
 * Refreshes a profile's cached token now (the `refresh` command): the refresh-token grant, or a new
 * client-credentials token when the entry has no refresh token. A missing entry, or one of a browser
 * flow without refresh token, is an error telling the user to run get-token.
 */
export async function refreshToken(
  options: Omit<GetTokenOptions, 'force' | 'noCache' | 'flow'>,
  edges: TokenEngineEdges = {},
): Promise<TokenResult> {
  const env = await prepare(options, edges);
  const { profile, key, cache, clock } = env;
  return withDeadline(options, profile, clock, false, async (run) =>
    cache.transaction(async (tx) => {
      const entry = tx.get(key);
      if (!entry || entry.client !== env.client) {
        throw new TokenError(
          'general',
          `no cached token for profile '${profile.name}'${scopeNote(env.scopes)} to refresh; run 'get-token -p ${profile.name}' first`,
        );
      }
      const ctx = await env.flowContext(entry.flow, run);
      if (entry.refreshToken) {
        const refreshed = await env.tryRefresh(tx, entry, ctx);
        if (refreshed) return refreshed;
      }
      if (isUserFlow(entry.flow)) {
        throw new TokenError(
          'auth_failed',
          `the cached token of profile '${profile.name}' cannot be refreshed (no valid refresh token); sign in again with 'get-token -p ${profile.name} --force'`,
        );
      }
      return env.store(tx, await env.flows.issue(ctx), entry.flow, 'issued');
    }, run.lock),
  );
}

/** A profile's cached entry as stored (even expired), without network: for `inspect`. */
export async function readCachedToken(
  options: Pick<GetTokenOptions, 'profile' | 'scope' | 'home' | 'store'>,
  edges: Pick<TokenEngineEdges, 'secretStore' | 'notify'> = {},
): Promise<{ profile: Profile; entry: CachedToken | undefined }> {
  const env = await prepare(options, edges);
  const entry = await env.cache.lookup(env.key);
  return { profile: env.profile, entry: entry?.client === env.client ? entry : undefined };
}

/** Every profile in the config root, sorted by name (for the tray's menu and `profile list`). */
export async function listProfiles(home: string = appHome()): Promise<Profile[]> {
  return [...(await loadProfiles(home)).values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Removes every cached token of a profile (after `profile remove`); resolves to how many. */
export async function forgetProfileTokens(
  profile: string,
  options: { home?: string; store?: SecretStoreMode; timeoutMs?: number } = {},
  edges: Pick<TokenEngineEdges, 'secretStore' | 'notify'> = {},
): Promise<number> {
  const home = options.home ?? appHome();
  const store =
    edges.secretStore ?? (await openSecretStore({ home, mode: options.store, warn: edges.notify }));
  const cache = new TokenCache(home, store, edges.notify);
  return cache.transaction(
    async (tx) => {
      const keys = tx.keys().filter((k) => profileOfKey(k) === profile);
      for (const k of keys) tx.delete(k);
      return keys.length;
    },
    { deadline: Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) },
  );
}

type FlowsModule = typeof FlowsModuleNs;

interface Run {
  signal: AbortSignal;
  /** Clock time the operation times out; Infinity when a user wait has no --timeout. */
  deadline: number;
  explicitTimeoutMs: number | undefined;
  requestTimeoutMs: number;
  lock: { deadline: number; signal: AbortSignal };
}

async function prepare(
  options: Pick<
    GetTokenOptions,
    | 'profile'
    | 'scope'
    | 'home'
    | 'store'
    | 'redirectUri'
    | 'managedIdentityClientId'
    | 'federatedTokenFile'
    | 'federatedTokenFileFromEnv'
  >,
  edges: TokenEngineEdges,
) {
  const home = options.home ?? appHome();
  const clock = edges.clock ?? systemClock;
  const notify = edges.notify ?? (() => undefined);
  const stored = await getProfile(home, options.profile);
  const profile: Profile = { ...stored };
  if (options.redirectUri) profile.redirectUri = options.redirectUri;
  if (options.managedIdentityClientId) {
    profile.managedIdentityClientId = options.managedIdentityClientId;
  }
  const scopes =
    options.scope !== undefined ? normaliseScopes(splitScopes(options.scope)) : profile.scopes;
  const secrets =
    edges.secretStore ?? (await openSecretStore({ home, mode: options.store, warn: notify }));
  const cache = new TokenCache(home, secrets, notify);
  const client = clientIdentity(profile);
  let flowsModule: Promise<FlowsModule> | undefined;
  const loadFlows = () => (flowsModule ??= import('./flows/index.ts'));

  const processEnv = edges.env ?? process.env;
  const env = {
    profile,
    scopes,
    cache,
    clock,
    client,
    key: cacheKey(profile, scopes),
    usable(entry: CachedToken | undefined): boolean {
      return !!entry && entry.client === client && usableAt(entry, clock.now());
    },
    flows: {
      // The managed-identity flow is plain HTTP: it does not load openid-client.
      issue: async (ctx: FlowContext) =>
        ctx.flow === 'managed-identity'
          ? (await import('./flows/managed-identity.ts')).managedIdentityToken(ctx)
          : (await loadFlows()).issueToken(ctx),
      refresh: async (ctx: FlowContext, token: string) =>
        (await loadFlows()).refreshGrant(ctx, token),
    },
    async flowContext(flow: FlowName, run: Run): Promise<FlowContext> {
      // A managed identity has no secret of ours: don't pay a keychain read for nothing.
      const clientSecret =
        flow === 'managed-identity'
          ? undefined
          : await secrets.get(SECRET_ACCOUNTS.clientSecret(profile.name));
      const clientCertificate =
        flow !== 'managed-identity' && profile.clientAuth === 'private_key_jwt'
          ? await secrets.get(SECRET_ACCOUNTS.clientCertificate(profile.name))
          : undefined;
      return {
        profile,
        flow,
        scopes,
        clientSecret,
        clientCertificate,
        federatedTokenFile:
          options.federatedTokenFile ??
          profile.federatedTokenFile ??
          (clientSecret === undefined && profile.clientAuth !== 'private_key_jwt'
            ? options.federatedTokenFileFromEnv
            : undefined),
        home,
        signal: run.signal,
        deadline: run.deadline,
        explicitTimeoutMs: run.explicitTimeoutMs,
        requestTimeoutMs: run.requestTimeoutMs,
        trace: {},
        clock,
        fetch: edges.fetch ?? globalThis.fetch,
        env: processEnv,
        openBrowser: edges.openBrowser ?? openWithSystemBrowser,
        notify,
        sleep: edges.sleep ?? sleep,
      };
    },
    /** Stores a granted token under the key and returns it as a result. */
    store(
      tx: CacheTransaction,
      token: GrantedToken,
      flow: FlowName,
      source: TokenSource,
      previous?: CachedToken,
    ): TokenResult {
      const entry = toEntry(token, flow, profile, clock, previous, scopes);
      tx.set(env.key, entry);
      return result(entry, source, profile, clock);
    },
    /**
     * The refresh-token grant for a cached entry. A refused refresh token (invalid_grant: revoked,
     * expired, or already rotated away) is dropped, and undefined tells the caller to sign in anew.
     */
    async tryRefresh(
      tx: CacheTransaction,
      entry: CachedToken,
      ctx: FlowContext,
    ): Promise<TokenResult | undefined> {
      try {
        const token = await env.flows.refresh({ ...ctx, flow: entry.flow }, entry.refreshToken!);
        return env.store(tx, token, entry.flow, 'refreshed', entry);
      } catch (err) {
        if (!isTokenError(err, 'auth_failed')) throw err;
        tx.delete(env.key);
        notify(
          `the cached refresh token of profile '${profile.name}' was refused; getting a new token`,
        );
        return undefined;
      }
    },
  };
  return env;
}

/**
 * Runs `fn` with an abort signal that fires at the timeout (reason: a 'timeout' TokenError), timed
 * on the injected clock so tests move time instead of waiting for it. Without an explicit
 * timeout, a user sign-in (`interactive`) has no overall deadline: each request still waits at
 * most 60 s, and the flow bounds the wait for the user.
 */
async function withDeadline<T>(
  options: Pick<GetTokenOptions, 'timeoutMs' | 'signal'>,
  profile: Profile,
  clock: Clock,
  interactive: boolean,
  fn: (run: Run) => Promise<T>,
): Promise<T> {
  const explicit = options.timeoutMs;
  const timeoutMs = explicit ?? DEFAULT_TIMEOUT_MS;
  const bounded = explicit !== undefined || !interactive;
  const deadline = bounded ? clock.now() + timeoutMs : Infinity;
  const controller = new AbortController();
  const after = clock.after?.bind(clock) ?? systemClock.after;
  const cancel = bounded
    ? after(timeoutMs, () => {
        controller.abort(
          new TokenError(
            'timeout',
            interactive
              ? `no token for profile '${profile.name}' within ${formatDuration(timeoutMs)} (--timeout): the sign-in was not completed in time; run again and approve sooner, or raise --timeout`
              : `no token for profile '${profile.name}' within ${formatDuration(timeoutMs)}: ${issuerOf(profile) ?? profile.tokenEndpoint} did not answer; check it is up, retry, or raise --timeout`,
          ),
        );
      })
    : () => undefined;
  const signal = options.signal
    ? AbortSignal.any([controller.signal, options.signal])
    : controller.signal;
  try {
    // The cache lock is taken between processes, so it waits on real time.
    const lock = { deadline: Date.now() + timeoutMs, signal };
    return await raceAbort(
      fn({ signal, deadline, explicitTimeoutMs: explicit, requestTimeoutMs: timeoutMs, lock }),
      signal,
    );
  } finally {
    cancel();
  }
}

/** Settles with `promise`, or rejects with the abort reason as soon as `signal` fires. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function toEntry(
  token: GrantedToken,
  flow: FlowName,
  profile: Profile,
  clock: Clock,
  previous: CachedToken | undefined,
  requested: string[],
): CachedToken {
  const now = clock.now();
  const lifetime = token.expiresIn ?? jwtLifetime(token.accessToken, now) ?? 3600;
  const entry: CachedToken = {
    accessToken: token.accessToken,
    tokenType: token.tokenType,
    // A response without `scope` granted what was asked (RFC 6749 §5.1): Entra omits it for
    // client credentials.
    scope: token.scope ?? previous?.scope ?? requested.join(' '),
    // Without a new refresh token in the answer, the old one stays valid (RFC 6749 §6).
    refreshToken: token.refreshToken ?? previous?.refreshToken,
    idToken: token.idToken ?? previous?.idToken,
    expiresAt: now + lifetime * 1000,
    obtainedAt: now,
    flow,
    client: clientIdentity(profile),
  };
  if (entry.refreshToken === undefined) delete entry.refreshToken;
  if (entry.idToken === undefined) delete entry.idToken;
  return entry;
}

/** Seconds until a JWT access token's `exp`, for servers that omit `expires_in`. */
function jwtLifetime(token: string, now: number): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const exp = (
      JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }
    ).exp;
    return typeof exp === 'number' ? Math.max(0, Math.floor(exp - now / 1000)) : undefined;
  } catch {
    return undefined;
  }
}

function result(
  entry: CachedToken,
  source: TokenSource,
  profile: Profile,
  clock: Clock,
): TokenResult {
  const out: TokenResult = {
    response: toTokenResponse(entry, clock.now()),
    source,
    profile: profile.name,
    flow: entry.flow,
  };
  if (entry.idToken) out.idToken = entry.idToken;
  return out;
}

function scopeNote(scopes: string[]): string {
  return scopes.length > 0 ? ` with scopes '${scopes.join(' ')}'` : '';
}

function formatDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.round(ms / 1000)}s`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function openWithSystemBrowser(url: string): Promise<void> {
  const { default: open } = await import('open');
  const child = await open(url);
  // Don't let the browser launcher keep the CLI alive once the token is printed.
  child.unref();
}
