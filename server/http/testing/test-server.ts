import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { silentLogger } from '../../platform/logger.ts';
import { createApp, type AppDeps } from '../app.ts';

/** What a route test gives the app: its routes, and any other dependency it cares about. */
export type TestAppDeps = Partial<AppDeps> & Pick<AppDeps, 'routes'>;

/** The app with `deps`, a silent logger and a placeholder version unless the test gives its own. */
export function createTestApp(deps: TestAppDeps): Koa {
  return createApp({
    logger: silentLogger,
    version: { version: '1', gitCommit: 'a', buildDate: 'b' },
    ...deps,
  });
}

/** A test app listening on loopback. */
export interface TestServer {
  server: http.Server;
  port: number;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  close(): Promise<void>;
}

/** Serves `createTestApp(deps)` on 127.0.0.1 at a free port. */
export async function serveTestApp(deps: TestAppDeps): Promise<TestServer> {
  const server = http.createServer(createTestApp(deps).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
