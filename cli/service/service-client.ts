/**
 * The running Pipeline Summary Service as the CLI's tools see it (`explain`, `mcp`): JSON over
 * HTTP, the access token of a shared service as a Bearer token, and the service's one error shape
 * (`{error, statusCode, timestamp}`, server/http/error-middleware.ts) turned into a coded
 * `ServiceError` that keeps the service's own message.
 */
import type { ErrorBody } from '../../server/contract.ts';

/** How a call to the service failed. */
export type ServiceErrorCode =
  | 'unreachable' // nothing answers at the URL (or not this service)
  | 'timeout' // it did not answer in time
  | 'unauthorized' // a shared service wants its access token, or refused the one sent
  | 'not_found' // 404: unknown project, pipeline or job (or route)
  | 'bad_request' // 400: the service refused the input
  | 'failed'; // any other error status

/** A failed call; `message` is the service's own words where it gave some. */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** Where the service is and how to authenticate to it. */
export interface ServiceClientOptions {
  /** e.g. `http://127.0.0.1:5100` (no trailing slash needed). */
  baseUrl: string;
  /** The access token of a shared (LAN-mode) service, sent with every request when given. */
  token?: string | undefined;
  /**
   * Asked once, after a 401 when no token was given: the token this machine's own service keeps
   * in the secret store. Undefined when there is none.
   */
  lookupToken?: () => Promise<string | undefined>;
  /** Per-request timeout (default 30 s); `post` calls may pass a longer one (an AI analysis). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A query value; undefined ones are left out. */
export type QueryValue = string | number | boolean | undefined;

const DEFAULT_TIMEOUT_MS = 30_000;

/** JSON calls to one running service. */
export class ServiceClient {
  /** The service's base URL without a trailing slash. */
  readonly baseUrl: string;
  private token: string | undefined;
  private lookedUp = false;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ServiceClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** True when the service answers its liveness route (which needs no token) within `timeoutMs`. */
  async isUp(timeoutMs = 1_000): Promise<boolean> {
    try {
      const res = await this.fetch(`${this.baseUrl}/api/health`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await res.json()) as { status?: unknown };
      return res.ok && body.status === 'healthy';
    } catch {
      return false;
    }
  }

  /** GET `path` (under the base URL) with `query`; resolves to the parsed JSON body. */
  get<T>(path: string, query: Record<string, QueryValue> = {}, timeoutMs?: number): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return this.send<T>(url, { method: 'GET' }, timeoutMs);
  }

  /** POST `body` as JSON to `path`; resolves to the parsed JSON answer. */
  post<T>(path: string, body: unknown, timeoutMs?: number): Promise<T> {
    return this.send<T>(
      new URL(`${this.baseUrl}${path}`),
      { method: 'POST', body: JSON.stringify(body), contentType: 'application/json' },
      timeoutMs,
    );
  }

  private async send<T>(
    url: URL,
    request: { method: string; body?: string; contentType?: string },
    timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  ): Promise<T> {
    let res = await this.request(url, request, timeoutMs);
    let text = await res.text();
    // A shared service on this machine: its token is in our secret store too (same user).
    if (
      isAccessRefusal(res.status, errorMessage(text)) &&
      this.token === undefined &&
      !this.lookedUp &&
      this.options.lookupToken
    ) {
      this.lookedUp = true;
      this.token = await this.options.lookupToken().catch(() => undefined);
      if (this.token !== undefined) {
        res = await this.request(url, request, timeoutMs);
        text = await res.text();
      }
    }
    if (res.ok) {
      try {
        return JSON.parse(text) as T;
      } catch (err) {
        throw new ServiceError(
          'unreachable',
          `${this.baseUrl} answered ${url.pathname} with something other than JSON: is it a Pipeline Summary service?`,
          res.status,
          { cause: err },
        );
      }
    }
    throw this.failure(res.status, text, url);
  }

  private async request(
    url: URL,
    request: { method: string; body?: string; contentType?: string },
    timeoutMs: number,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (request.contentType) headers['content-type'] = request.contentType;
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    try {
      return await this.fetch(url, {
        method: request.method,
        headers,
        body: request.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') {
        throw new ServiceError(
          'timeout',
          `The service at ${this.baseUrl} did not answer within ${Math.round(timeoutMs / 1000)} s`,
          undefined,
          { cause: err },
        );
      }
      throw new ServiceError(
        'unreachable',
        `No Pipeline Summary service answers at ${this.baseUrl}: start one with 'pipeline-summary serve'`,
        undefined,
        { cause: err },
      );
    }
  }

  private failure(status: number, text: string, url: URL): ServiceError {
    const message =
      errorMessage(text) ?? `The service answered ${url.pathname} with HTTP ${status}`;
    if (isAccessRefusal(status, message)) {
      return new ServiceError(
        'unauthorized',
        status === 401 && this.token === undefined
          ? `The service at ${this.baseUrl} is shared and needs its access token: set PIPELINE_SUMMARY_ACCESS_TOKEN`
          : status === 401
            ? `The service at ${this.baseUrl} refused the access token (${message})`
            : message,
        status,
      );
    }
    // GitLab refused the service's own token: the service says so in its message.
    if (status === 401 || status === 403) return new ServiceError('unauthorized', message, status);
    if (status === 404) return new ServiceError('not_found', message, status);
    if (status === 400) return new ServiceError('bad_request', message, status);
    return new ServiceError('failed', message, status);
  }
}

/** The `error` of the service's error shape, when `text` is one. */
function errorMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    return typeof body.error === 'string' && body.error !== '' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True when a shared service refused the caller itself (server/http/access.ts: a 401 without or
 * with a wrong access token, a 429 after too many wrong ones) rather than passing on GitLab's 401
 * for its own token; only the access check speaks of the access token.
 */
function isAccessRefusal(status: number, message: string | undefined): boolean {
  return (status === 401 || status === 429) && /access token/i.test(message ?? '');
}
