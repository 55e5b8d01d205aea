import type { ErrorBody } from '../../server/contract.ts';

/** An API failure with the service's own message (its `{error, statusCode}` body) when it sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** How the renderer reaches the service: injected so tests can pass a fake. */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Options of a JSON request. */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).error === 'string' &&
    typeof (value as ErrorBody).statusCode === 'number'
  );
}

/** Builds `/api/...` with a query string. */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

/** A small JSON client for the service's API. */
export class ApiClient {
  constructor(private readonly fetchImpl: Fetch = (i, init) => fetch(i, init)) {}

  /** Performs a request and parses JSON; throws ApiError with the service's message on failure. */
  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    let res: Response;
    try {
      res = await this.fetchImpl(apiUrl(path, options.query), {
        method: options.method ?? 'GET',
        headers:
          options.body === undefined
            ? { Accept: 'application/json' }
            : { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw new ApiError(
        'Cannot reach the Pipeline Summary service. Is it running? (pipeline-summary serve)',
        0,
      );
    }
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (e.g. a proxy's HTML error page); handled below.
    }
    if (!res.ok) {
      throw new ApiError(
        isErrorBody(json)
          ? json.error
          : `The service answered ${res.status} ${res.statusText}`.trim(),
        res.status,
      );
    }
    if (json === undefined)
      throw new ApiError('The service sent an empty or malformed answer', res.status);
    return json as T;
  }

  /** GET */
  get<T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal): Promise<T> {
    return this.request<T>(path, { query, signal });
  }

  /** POST with a JSON body */
  post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    return this.request<T>(path, { method: 'POST', body, signal });
  }
}

/** The message to show for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The client every view uses. */
export const api = new ApiClient();
