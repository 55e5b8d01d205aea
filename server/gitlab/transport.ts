/**
 * One GitLab host's requests, under every read of the client: the token (sent to GitLab's origin
 * only, never into a log line, an error message or an error's cause), the shared per-host request
 * budget, retries with full-jitter back-off, Retry-After, per-request timeouts, pagination with its
 * caps, validation of each answer against its schema, and mapping of GitLab's answers to AppErrors a
 * user can act on. `GitLabClient` (client.ts) names the resources on top of it.
 */
import got, { RequestError, TimeoutError, type Got, type OptionsOfTextResponseBody } from 'got';
import type { z } from 'zod';
import type { Clock } from '../platform/clock.ts';
import { systemClock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { FetchedImage } from './api.ts';
import { formatSeconds, gitLabStatusError, lowerFirst, networkReason } from './error-wording.ts';
import { streamImage } from './image-stream.ts';
import { MAX_PER_PAGE, nextPageUrl } from './pagination.ts';
import { headerValue, parseRetryAfter, serverNow, type HeaderBag } from './rate-limit-headers.ts';
import { realSleep, RequestBudget, type Sleep } from './request-budget.ts';
import { gitLabRequestKind, type GitLabRequestKind } from './request-kind.ts';
import { describeIssue } from './wire-schemas.ts';

/**
 * How the token is sent. `bearer` (the default) works for personal, project, group *and* OAuth 2.0
 * tokens; `PRIVATE-TOKEN` does not accept OAuth tokens (doc/api/rest/authentication.md).
 */
export type GitLabTokenType = 'private' | 'bearer';

/** One HTTP exchange with GitLab, for metrics (`status` is 0 when no response arrived). */
export interface GitLabRequestInfo {
  method: string;
  /** Path and query on the GitLab host, e.g. `/api/v4/projects/7/pipelines?page=2`. */
  path: string;
  /** Which resource it read (a closed set of words, for metric labels). */
  kind: GitLabRequestKind;
  status: number;
  durationMs: number;
}

/** Everything a GitLabClient is built from; only `baseUrl` is required. */
export interface GitLabClientOptions {
  /** e.g. `https://gitlab.example.com`; a trailing slash or `/api/v4` is accepted and dropped. */
  baseUrl: string;
  token?: string;
  /** Default `bearer`. */
  tokenType?: GitLabTokenType;
  logger?: Logger;
  /** Per-request timeout, whole response included (default 15 000). */
  timeoutMs?: number;
  /** Concurrent requests to the host (default 6); sizes the host budget when this client creates it. */
  maxConcurrency?: number;
  /** Retries of a failed GET on 5xx, 429, network errors and truncated bodies (default 3). */
  retries?: number;
  /** The host budget; default `RequestBudget.forHost(origin, …)`, shared by every client of the host. */
  budget?: RequestBudget;
  sleep?: Sleep;
  clock?: Clock;
  onRequest?: (info: GitLabRequestInfo) => void;
  /** Random source in [0, 1) for back-off jitter (default Math.random). */
  random?: () => number;
  /** First back-off step, before jitter (default 500 ms); doubles per attempt. */
  retryBaseDelayMs?: number;
  /** Largest back-off step, before jitter (default 8 000 ms). */
  retryMaxDelayMs?: number;
  /**
   * A Retry-After (or a host pause) longer than this is not waited out inside a request: the call
   * fails with `upstream_unavailable` and `retryAfterMs`, and the caller decides (default 60 000).
   */
  maxRetryAfterMs?: number;
}

type RetryableFailure = {
  /** For the final message, e.g. "HTTP 503" or "connection reset (ECONNRESET)". */
  reason: string;
  /** The host was paused already (Retry-After or a 429), so no extra back-off sleep. */
  hostPaused: boolean;
  retryAfterMs: number | undefined;
  cause: Error | undefined;
};

/** How a body is read: parsed as JSON, or kept as text (job logs). */
type BodyMode = 'json' | 'text';

const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * Bounds on one list, so an endless `x-next-page` chain or an oversize answer cannot grow memory
 * without bound: 100 pages of 100 is far beyond any project window this dashboard is meant for.
 */
export const LIST_CAPS = { pages: 100, items: 10_000 } as const;
/** The longest Retry-After we honour; a longer one is waited this long, then GitLab is re-probed. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * The requests to one GitLab host, with the budget, retries and error mapping every read shares.
 * Built from the client's options with the base URL already normalised.
 */
export class GitLabTransport {
  /** `scheme://host[:port][/relative-root]`, no trailing slash. */
  readonly baseUrl: string;
  /** The host budget this transport draws from. */
  readonly budget: RequestBudget;
  private readonly origin: string;
  private readonly apiRoot: URL;
  private readonly host: string;
  private readonly authHeaders: Record<string, string>;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly sleep: Sleep;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly retryBaseDelayMs: number;
  private readonly retryMaxDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly logger: Logger | undefined;
  private readonly onRequest: ((info: GitLabRequestInfo) => void) | undefined;
  private readonly http: Got;
  /** `http` with what every API request sends (token, JSON accept, timeout): see `send`. */
  private readonly api: Got;
  private readonly malformedSeen = new Set<string>();

  constructor(baseUrl: string, options: Omit<GitLabClientOptions, 'baseUrl'>) {
    this.baseUrl = baseUrl;
    this.apiRoot = new URL(`${this.baseUrl}/api/v4/`);
    this.origin = this.apiRoot.origin;
    this.host = this.apiRoot.host;
    this.token = options.token ? options.token : undefined;
    const tokenType = options.tokenType ?? 'bearer';
    this.authHeaders = !this.token
      ? {}
      : tokenType === 'bearer'
        ? { authorization: `Bearer ${this.token}` }
        : { 'private-token': this.token };
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retries = Math.max(0, options.retries ?? 3);
    this.sleep = options.sleep ?? realSleep;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
    this.retryMaxDelayMs = options.retryMaxDelayMs ?? 8_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.logger = options.logger;
    this.onRequest = options.onRequest;
    this.budget =
      options.budget ??
      RequestBudget.forHost(this.origin, {
        authenticated: this.token !== undefined,
        maxConcurrency: options.maxConcurrency,
        clock: options.clock,
        sleep: options.sleep,
      });
    this.http = got.extend({
      // Retries, redirects and HTTP errors are ours to decide: got's own would bypass the budget.
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      headers: { 'user-agent': 'pipeline-summary (+https://docs.gitlab.com/api/rest/)' },
    });
    // got merges every option given with a request into its defaults, key by key; options fixed
    // for the client's life are set once here, so a request passes only what varies. (Images use
    // `http`: the token must not go to another origin.)
    this.api = this.http.extend({
      headers: { accept: 'application/json', ...this.authHeaders },
      timeout: { request: this.timeoutMs },
      responseType: 'text',
    });
  }

  /**
   * Streams an image with the budget, and the token only when `target` is GitLab's own origin (see
   * image-stream.ts for the size, type and redirect limits).
   */
  async image(
    target: URL,
    options: { maxBytes: number; timeoutMs: number },
  ): Promise<FetchedImage> {
    const ownHost = target.origin === this.origin;
    const release = ownHost
      ? await this.budget.acquire({ maxPauseMs: this.maxRetryAfterMs })
      : null;
    const started = performance.now();
    let status = 0;
    try {
      return await streamImage(this.http, target, {
        headers: { accept: 'image/*', ...(ownHost ? this.authHeaders : {}) },
        maxBytes: options.maxBytes,
        timeoutMs: options.timeoutMs,
        onResponse: (answered, headers) => {
          status = answered;
          if (ownHost) this.budget.observe(headers);
        },
        safeCause: (err) => this.safeCause(err),
      });
    } finally {
      release?.();
      this.report(target, status, started, 0, 'GET', 'image');
    }
  }

  /** One JSON resource, checked against `schema`; `what` names it in messages. */
  async getJson<T>(
    schema: z.ZodType,
    path: string,
    what: string,
    signal?: AbortSignal,
    query: Record<string, string> = {},
  ): Promise<T> {
    const { data } = await this.send(this.apiUrl(path, query), what, 'json', signal);
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      const issue = describeIssue(parsed.error);
      this.logMalformedOnce(what, issue);
      throw new AppError(
        'upstream_unavailable',
        `GitLab at ${this.host} sent malformed data for ${lowerFirst(what)} (${issue})`,
      );
    }
    // The schema's output is the wire type with timestamps in UTC.
    return parsed.data as T;
  }

  /**
   * Every page of a list, each item checked against `schema`: a malformed item is dropped and
   * logged once. Stops at LIST_CAPS (telling `onCapped`) or at `limit`.
   */
  async listAll<T>(
    schema: z.ZodType,
    path: string,
    query: Record<string, string>,
    what: string,
    signal?: AbortSignal,
    limit?: number,
    onCapped?: (message: string) => void,
    /** An item past the end (e.g. older than a window): dropped, and paging stops after its page. */
    beyond?: (item: T) => boolean,
    /** Paging stops only after a page whose every item is past the end (ids out of time order). */
    wholePageBeyond = false,
  ): Promise<T[]> {
    const perPage = limit !== undefined && limit > 0 ? Math.min(MAX_PER_PAGE, limit) : MAX_PER_PAGE;
    let url: URL | undefined = this.apiUrl(path, { ...query, per_page: String(perPage) });
    const seen = new Set<string>();
    const items: T[] = [];
    while (url) {
      if (seen.has(url.href)) {
        throw new AppError(
          'upstream_unavailable',
          `GitLab at ${this.host} sent a pagination link it had already sent while listing ${lowerFirst(what)}; stopped to avoid a loop`,
        );
      }
      if (seen.size >= LIST_CAPS.pages || items.length >= LIST_CAPS.items) {
        const message = `Listing ${lowerFirst(what)} stopped at ${seen.size} pages and ${items.length} items (the cap per list); older items are left out`;
        this.logger?.warn({ gitlab: { host: this.host, path } }, message);
        onCapped?.(message);
        break;
      }
      seen.add(url.href);
      const { data, headers } = await this.send(url, what, 'json', signal);
      if (!Array.isArray(data)) {
        throw new AppError(
          'upstream_unavailable',
          `GitLab at ${this.host} answered with something other than a list for ${lowerFirst(what)}`,
        );
      }
      let beyondCount = 0;
      for (const raw of data as unknown[]) {
        if (limit !== undefined && items.length >= limit) break;
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          this.logMalformedOnce(what, describeIssue(parsed.error));
          continue;
        }
        if (beyond?.(parsed.data as T)) beyondCount++;
        else items.push(parsed.data as T);
      }
      const reachedEnd = wholePageBeyond ? beyondCount === data.length : beyondCount > 0;
      if ((limit !== undefined && items.length >= limit) || data.length === 0 || reachedEnd) break;
      url = nextPageUrl(url, headers, this.apiRoot);
    }
    return items;
  }

  /** One warning per kind of malformed data, so a hostile upstream cannot flood the log. */
  logMalformedOnce(what: string, issue: string): void {
    const key = `${what.replace(/\d+/g, '#')}|${issue}`;
    if (this.malformedSeen.has(key) || this.malformedSeen.size > 1_000) return;
    this.malformedSeen.add(key);
    this.logger?.warn(
      { gitlab: { host: this.host, issue } },
      `GitLab sent malformed data for ${lowerFirst(what)}; dropped it`,
    );
  }

  /** `path` under `/api/v4/` with `query`. */
  apiUrl(path: string, query: Record<string, string>): URL {
    const url = new URL(path, this.apiRoot);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  /** One GET with budget, retries and error mapping; `what` names the resource in messages. */
  async send(
    url: URL,
    what: string,
    mode: BodyMode,
    signal: AbortSignal | undefined,
    /** A JSON body to POST (GraphQL queries: read-only, so retrying them is as safe as a GET). */
    postBody?: string,
    /** Statuses answered to the caller with their body (JSON, else text) instead of mapped. */
    passed?: ReadonlySet<number>,
  ): Promise<{ data: unknown; headers: HeaderBag; status: number }> {
    let failure: RetryableFailure | undefined;
    for (let attempt = 0; attempt <= this.retries; attempt += 1) {
      if (failure && !failure.hostPaused) await this.sleep(this.backoffMs(attempt), signal);
      const release = await this.budget.acquire({ signal, maxPauseMs: this.maxRetryAfterMs });
      const started = performance.now();
      let status = 0;
      try {
        const response = await this.api(url, requestOptions(mode, postBody, signal));
        status = response.statusCode;
        const headers = response.headers;
        // Adapt the host budget before the slot is released, so the next caller sees the pause.
        this.budget.observe(headers);
        if (passed?.has(status)) return { data: lenientJson(response.body), headers, status };
        if (status >= 200 && status < 300) {
          if (mode === 'text') return { data: response.body, headers, status };
          try {
            return { data: JSON.parse(response.body) as unknown, headers, status };
          } catch (err) {
            failure = {
              reason: `HTTP ${status} with a truncated or invalid JSON body`,
              hostPaused: false,
              retryAfterMs: undefined,
              cause: this.safeCause(err),
            };
            continue;
          }
        }
        if (status === 429 || status >= 500) {
          failure = this.retryableStatus(status, headers, attempt);
          continue;
        }
        throw gitLabStatusError(status, headers, what, this.apiRoot);
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (signal?.aborted) throw signal.reason;
        if (err instanceof TimeoutError) {
          throw new AppError(
            'upstream_timeout',
            `GitLab at ${this.host} did not answer within ${formatSeconds(this.timeoutMs)} (${lowerFirst(what)})`,
            { cause: this.safeCause(err) },
          );
        }
        if (!(err instanceof RequestError)) throw err;
        failure = {
          reason: networkReason(err),
          hostPaused: false,
          retryAfterMs: undefined,
          cause: this.safeCause(err),
        };
      } finally {
        release();
        this.report(url, status, started, attempt, postBody === undefined ? 'GET' : 'POST');
      }
    }
    throw new AppError(
      'upstream_unavailable',
      `GitLab at ${this.host} is unavailable: ${failure!.reason} after ${this.retries + 1} attempts (${lowerFirst(what)})`,
      { cause: failure!.cause, retryAfterMs: failure!.retryAfterMs },
    );
  }

  private retryableStatus(status: number, headers: HeaderBag, attempt: number): RetryableFailure {
    const retryAfterMs =
      status === 429 || status === 503
        ? parseRetryAfter(headerValue(headers, 'retry-after'), serverNow(headers, this.clock.now()))
        : undefined;
    const reason = status === 429 ? 'HTTP 429 (rate limited)' : `HTTP ${status}`;
    if (retryAfterMs !== undefined) {
      // One 429 with `Retry-After: 86400` must not silence the service for a day: wait at most
      // MAX_RETRY_AFTER_MS, then the next request re-probes GitLab.
      const waitMs = Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
      this.budget.pauseFor(waitMs);
      if (waitMs > this.maxRetryAfterMs) {
        throw new AppError(
          'upstream_unavailable',
          `GitLab at ${this.host} answered ${reason} and asked to wait ${formatSeconds(retryAfterMs)}; trying again in ${formatSeconds(waitMs)}`,
          { retryAfterMs: waitMs },
        );
      }
      return { reason, hostPaused: true, retryAfterMs: waitMs, cause: undefined };
    }
    if (status === 429) {
      // Rate limited without a hint: the whole host backs off, not just this caller.
      this.budget.pauseFor(this.backoffMs(attempt + 1));
      return { reason, hostPaused: true, retryAfterMs: undefined, cause: undefined };
    }
    return { reason, hostPaused: false, retryAfterMs: undefined, cause: undefined };
  }

  /** Full-jitter exponential back-off (AWS architecture blog, "Exponential Backoff And Jitter"). */
  private backoffMs(attempt: number): number {
    const ceiling = Math.min(this.retryMaxDelayMs, this.retryBaseDelayMs * 2 ** (attempt - 1));
    return Math.round(this.random() * ceiling);
  }

  /** Logs one exchange (debug) and tells `onRequest`. */
  report(
    url: URL,
    status: number,
    started: number,
    attempt: number,
    method: 'GET' | 'POST' = 'GET',
    kind?: GitLabRequestKind,
  ): void {
    const path = `${url.pathname}${url.search}`;
    const info: GitLabRequestInfo = {
      method,
      path,
      kind: kind ?? gitLabRequestKind(url.pathname),
      status,
      durationMs: Math.round(performance.now() - started),
    };
    this.logger?.debug({ gitlab: { ...info, host: url.host, attempt } }, 'GitLab request');
    this.onRequest?.(info);
  }

  /**
   * A plain Error standing in for got's: got's errors carry the request options, headers included,
   * so they must never be logged or chained as a cause.
   */
  safeCause(err: unknown): Error {
    const source = err as { name?: unknown; message?: unknown; code?: unknown };
    const cause = new Error(this.redact(String(source?.message ?? err)));
    cause.name = typeof source?.name === 'string' ? source.name : 'Error';
    if (typeof source?.code === 'string') Object.assign(cause, { code: source.code });
    return cause;
  }

  private redact(text: string): string {
    return this.token ? text.split(this.token).join('[redacted]') : text;
  }
}

/** A refusal's body: JSON when it parses, else its text (a proxy's page), at most 2 KiB of it. */
function lenientJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body.slice(0, 2048);
  }
}

/** What a request adds to the `api` instance's defaults (GET of JSON needs nothing). */
function requestOptions(
  mode: BodyMode,
  postBody: string | undefined,
  signal: AbortSignal | undefined,
): OptionsOfTextResponseBody {
  const options: OptionsOfTextResponseBody = {};
  if (postBody !== undefined) {
    options.method = 'POST';
    options.body = postBody;
    options.headers = { 'content-type': 'application/json' };
  }
  if (mode === 'text') options.headers = { ...options.headers, accept: 'text/plain' };
  if (signal !== undefined) options.signal = signal;
  return options;
}
