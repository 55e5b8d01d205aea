import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import { AppError } from '../platform/errors.ts';
import { errorBody } from './error-middleware.ts';

/** A bound HTTP(S) server and how to stop it. */
export interface RunningServer {
  server: http.Server;
  url: string;
  port: number;
  /** Stops accepting connections and closes idle and open ones (SSE streams included). */
  close(): Promise<void>;
}

/** True when `err` says the port was taken by another program (EADDRINUSE). */
export function isPortInUse(err: unknown): boolean {
  const cause = err instanceof Error ? (err.cause as NodeJS.ErrnoException | undefined) : undefined;
  return cause?.code === 'EADDRINUSE';
}

/** Where to listen; `tls` (PEM cert and key) serves HTTPS directly. */
export interface ListenOptions {
  port: number;
  host: string;
  tls?: { cert: string | Buffer; key: string | Buffer };
}

/** Binds `app` to host:port (port 0 = any free port). A port in use becomes a clear AppError. */
export function listen(app: Koa, options: ListenOptions): Promise<RunningServer> {
  const server: http.Server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, app.callback())
    : http.createServer(app.callback());
  // SSE streams are long-lived; do not let Node time them out.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(
          new AppError(
            'bad_request',
            `Port ${options.port} on ${options.host} is already in use; pick another with --port`,
            // The errno stays on the cause so callers (the desktop app's port dialog) test a code.
            { cause: err },
          ),
        );
      } else if (err.code === 'EACCES') {
        reject(
          new AppError('bad_request', `No permission to listen on ${options.host}:${options.port}`),
        );
      } else if (err.code === 'EADDRNOTAVAIL') {
        reject(
          new AppError('bad_request', `Address ${options.host} is not available on this machine`),
        );
      } else {
        reject(err);
      }
    });
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        server,
        port,
        url: `${options.tls ? 'https' : 'http'}://${hostForUrl}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

const CLIENT_ERROR_MESSAGES: Record<number, string> = {
  400: 'Malformed HTTP request',
  408: 'Request timed out',
  431: 'Request headers are too large',
};

/**
 * Node answers unparseable requests itself, before Koa sees them, with an empty 400/431. Answer in
 * the service's error shape instead (Node's `clientError` event; docs: nodejs.org/api/http.html).
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(errorBody(status, CLIENT_ERROR_MESSAGES[status]!));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
