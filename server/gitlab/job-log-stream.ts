import { AppError } from '../platform/errors.ts';
import type { GitLabApi } from './api.ts';
import { gitLabStatusError } from './error-wording.ts';
import type { HeaderBag } from './rate-limit-headers.ts';
import { RequestBudget } from './request-budget.ts';
import type { GitLabRequestInfo } from './transport.ts';

/** The end of a job log, read without holding the whole log in memory. */
export interface JobLogTail {
  /** The last `maxBytes` of the log (from a line start when cut), as text. */
  trace: string;
  /** True when the log was longer than `maxBytes` and only its tail is in `trace`. */
  truncated: boolean;
  /** Size of the whole log in bytes. */
  bytes: number;
}

/** How job logs are read from one GitLab. */
export interface JobLogReaderOptions {
  /** GitLab base URL, as the client normalised it (no trailing slash, no /api/v4). */
  baseUrl: string;
  token?: string;
  /** Default `private` (PRIVATE-TOKEN header), else OAuth `Bearer`. */
  tokenType?: 'private' | 'bearer';
  /** The host's request budget, shared with the client (default `RequestBudget.forHost`). */
  budget?: RequestBudget;
  /** The most of a log that is kept: its tail (default 8 MiB). */
  maxBytes?: number;
  /** Logs read from GitLab at once (default 2); they hold a budget slot while streaming. */
  maxConcurrent?: number;
  /** Reads allowed to wait for a slot (default 16); one more is refused with a 503. */
  maxWaiting?: number;
  /** Time for one whole log (default 60 s). */
  timeoutMs?: number;
  /** Told of each log request once it ends, like the client's `onRequest` (metrics). */
  onRequest?: (info: GitLabRequestInfo) => void;
}

/**
 * Reads job logs (`GET /projects/:id/jobs/:job_id/trace`, docs.gitlab.com/api/jobs/#get-a-log-file)
 * as a stream, keeping only the last `maxBytes`: a 100 MiB log costs at most the cap in memory,
 * and at most `maxConcurrent` logs are read at once, so a few huge logs cannot exhaust the heap.
 */
export class JobLogReader {
  private readonly apiRoot: string;
  private readonly headers: Record<string, string>;
  private readonly budget: RequestBudget;
  private readonly maxBytes: number;
  private readonly maxConcurrent: number;
  private readonly maxWaiting: number;
  private readonly timeoutMs: number;
  private readonly host: string;
  private readonly onRequest: ((info: GitLabRequestInfo) => void) | undefined;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(options: JobLogReaderOptions) {
    this.apiRoot = `${options.baseUrl}/api/v4/`;
    this.host = new URL(options.baseUrl).host;
    this.headers = { accept: 'text/plain' };
    if (options.token) {
      if (options.tokenType === 'bearer') this.headers.authorization = `Bearer ${options.token}`;
      else this.headers['private-token'] = options.token;
    }
    this.budget =
      options.budget ??
      RequestBudget.forHost(new URL(options.baseUrl).origin, { authenticated: !!options.token });
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.maxConcurrent = options.maxConcurrent ?? 2;
    this.maxWaiting = options.maxWaiting ?? 16;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.onRequest = options.onRequest;
  }

  /** Logs being read right now (tests, diagnostics). */
  get inFlight(): number {
    return this.active;
  }

  /** Reads the tail of one job's log. */
  async tail(projectId: number, jobId: number, signal?: AbortSignal): Promise<JobLogTail> {
    await this.enter();
    try {
      return await this.read(projectId, jobId, signal);
    } finally {
      this.leave();
    }
  }

  private enter(): Promise<void> {
    if (this.active < this.maxConcurrent) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxWaiting) {
      throw new AppError('overloaded', 'Too many job logs are being read; try again shortly', {
        retryAfterMs: 2_000,
      });
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  private async read(projectId: number, jobId: number, signal?: AbortSignal): Promise<JobLogTail> {
    const what = `the log of job ${jobId} of GitLab project ${projectId}`;
    const url = `${this.apiRoot}projects/${projectId}/jobs/${jobId}/trace`;
    const release = await this.budget.acquire({ signal, maxPauseMs: 60_000 });
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const started = performance.now();
    let status = 0;
    try {
      let response: Response;
      try {
        response = await fetch(url, {
          headers: this.headers,
          redirect: 'manual',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        throw this.networkError(err, what, timeout);
      }
      status = response.status;
      const headers = Object.fromEntries(response.headers) as HeaderBag;
      this.budget.observe(headers);
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw this.statusError(response.status, headers, what);
      }
      const chunks: Uint8Array[] = [];
      let kept = 0;
      let bytes = 0;
      try {
        for await (const chunk of response.body) {
          bytes += chunk.length;
          chunks.push(chunk);
          kept += chunk.length;
          // Drop whole chunks from the front while what remains still covers the cap.
          while (chunks.length > 1 && kept - chunks[0]!.length >= this.maxBytes) {
            kept -= chunks.shift()!.length;
          }
        }
      } catch (err) {
        throw this.networkError(err, what, timeout);
      }
      return tailOf(Buffer.concat(chunks), bytes, this.maxBytes);
    } finally {
      release();
      this.onRequest?.({
        method: 'GET',
        path: new URL(url).pathname,
        kind: 'job_log',
        status,
        durationMs: Math.round(performance.now() - started),
      });
    }
  }

  private statusError(status: number, headers: HeaderBag, what: string): AppError {
    if (status === 429 || status >= 500) {
      return new AppError(
        'upstream_unavailable',
        `GitLab at ${this.host} could not send ${what} (HTTP ${status}); try again shortly`,
        { upstreamStatus: status },
      );
    }
    // The client's wording for 401/403/404/redirects, so both read the same.
    return gitLabStatusError(status, headers, capitalise(what), new URL(this.apiRoot));
  }

  private networkError(err: unknown, what: string, timeout: AbortSignal): unknown {
    if (timeout.aborted) {
      return new AppError(
        'upstream_timeout',
        `GitLab at ${this.host} did not send ${what} within ${Math.round(this.timeoutMs / 1000)}s`,
      );
    }
    if ((err as { name?: string })?.name === 'AbortError') return err;
    // The cause's text can carry the URL and headers: keep only its code.
    const code = (err as { cause?: { code?: unknown } })?.cause?.code;
    return new AppError(
      'upstream_unavailable',
      `GitLab at ${this.host} is unreachable for ${what}${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
}

/** The last `maxBytes` of `all`, starting after a line break so no line or character is cut. */
function tailOf(all: Buffer, bytes: number, maxBytes: number): JobLogTail {
  if (all.length <= maxBytes) return { trace: all.toString('utf8'), truncated: false, bytes };
  let start = all.length - maxBytes;
  const newline = all.indexOf(0x0a, start);
  if (newline !== -1 && newline < all.length - 1) start = newline + 1;
  else while (start < all.length && (all[start]! & 0xc0) === 0x80) start++; // not mid-character
  return { trace: all.subarray(start).toString('utf8'), truncated: true, bytes };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * `gitlab` as is, except that `getJobTrace` reads through `logs`: the AI service reads job logs
 * too, and must not buffer a 100 MiB log or bypass the bound on concurrent log reads.
 */
export function withCappedJobLogs(gitlab: GitLabApi, logs: JobLogReader): GitLabApi {
  const getJobTrace = async (projectId: number, jobId: number, signal?: AbortSignal) =>
    (await logs.tail(projectId, jobId, signal)).trace;
  return new Proxy(gitlab, {
    get(target, key) {
      if (key === 'getJobTrace') return getJobTrace;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
