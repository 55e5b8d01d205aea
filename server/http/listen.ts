import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { AppError } from '../platform/errors.ts';

/** A bound HTTP server and how to stop it. */
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

/** Binds `app` to host:port (port 0 = any free port). A port in use becomes a clear AppError. */
export function listen(app: Koa, options: { port: number; host: string }): Promise<RunningServer> {
  const server = http.createServer(app.callback());
  // SSE streams are long-lived; do not let Node time them out.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
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
        url: `http://${hostForUrl}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
