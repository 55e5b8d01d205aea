import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the scripted server saw it. */
export interface ReceivedRequest {
  method: string;
  /** The raw path, percent-encoding kept (e.g. `/api/v4/groups/acme%2Fx`). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The server's `now()` when the request arrived (a test's virtual clock, if given). */
  at: number;
}

/** What the server does with one request. */
export type ScriptedReply =
  | {
      status?: number;
      headers?: Record<string, string>;
      json?: unknown;
      body?: string | Buffer;
      /** Real milliseconds to hold the answer (for concurrency tests). */
      delayMs?: number;
    }
  /** Destroys the socket without answering (ECONNRESET / socket hang up). */
  | { reset: true }
  /** Never answers (timeouts). */
  | { hang: true }
  /** Promises `declaredLength` bytes, sends `body`, then drops the connection. */
  | { truncate: string; declaredLength: number; headers?: Record<string, string> };

/** Answers a request; may wait (e.g. on a gate the test opens). */
export type Responder = (request: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>;

/**
 * A tiny GitLab stand-in on loopback for the client's tests: each route answers from a script, every
 * request is recorded, and in-flight requests are counted. (The full simulator lives in
 * server/simulator/; this one exists to produce failures on demand.)
 */
export class ScriptedGitLabServer {
  /** Starts on 127.0.0.1 and a free port; `now` stamps requests and the `Date` header. */
  static async start(options: { now?: () => number } = {}): Promise<ScriptedGitLabServer> {
    const fake = new ScriptedGitLabServer(options.now ?? Date.now);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  readonly requests: ReceivedRequest[] = [];
  /** Requests received and not yet answered. */
  inFlight = 0;
  /** The most requests ever in flight at once. */
  maxInFlight = 0;
  private readonly routes: Array<{ match: string | RegExp; responder: Responder }> = [];
  private readonly server: Server;

  private constructor(private readonly now: () => number) {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://scripted');
      const rawPath = (req.url ?? '/').split('?')[0]!;
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: rawPath,
        query: url.searchParams,
        headers: req.headers,
        at: this.now(),
      };
      this.requests.push(request);
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      let counted = true;
      const done = () => {
        if (!counted) return;
        counted = false;
        this.inFlight -= 1;
      };
      res.on('close', done);
      void this.answer(request)
        .then(async (reply) => {
          if ('reset' in reply) {
            req.socket.destroy();
            return;
          }
          if ('hang' in reply) return;
          const date = new Date(this.now()).toUTCString();
          if ('truncate' in reply) {
            res.writeHead(200, {
              'content-type': 'application/json',
              'content-length': String(reply.declaredLength),
              date,
              ...reply.headers,
            });
            res.write(reply.truncate, () => setImmediate(() => req.socket.destroy()));
            return;
          }
          if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
          const body =
            reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? Buffer.alloc(0));
          res.writeHead(reply.status ?? 200, {
            date,
            ...(reply.json !== undefined ? { 'content-type': 'application/json' } : {}),
            ...reply.headers,
          });
          res.end(body);
        })
        .catch(() => req.socket.destroy());
    });
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /**
   * Scripts a path (exact raw path, or a RegExp on it). A list of replies is played in order, the
   * last one repeating; a function decides per request.
   */
  on(match: string | RegExp, script: Responder | ScriptedReply[]): this {
    let responder: Responder;
    if (typeof script === 'function') responder = script;
    else {
      let next = 0;
      responder = () => script[Math.min(next++, script.length - 1)]!;
    }
    this.routes.unshift({ match, responder });
    return this;
  }

  /** Recorded requests for one raw path. */
  requestsTo(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Stops the server, dropping open connections (hanging requests included). */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: ReceivedRequest): Promise<ScriptedReply> {
    const route = this.routes.find(({ match }) =>
      typeof match === 'string' ? match === request.path : match.test(request.path),
    );
    if (!route) return { status: 404, json: { message: '404 Not Found' } };
    return route.responder(request);
  }
}
