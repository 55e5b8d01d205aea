import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

/** A running HTTP CONNECT proxy on loopback. */
export interface ConnectProxy {
  url: string;
  /** Host names clients asked to reach, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy that only tunnels (CONNECT) to the listed host names, all to `target` on
 * loopback; anything else is refused with 403, so a test never reaches the real network. A CLI
 * spawned with NODE_USE_ENV_PROXY=1 and HTTPS_PROXY pointing here talks TLS to "login.microsoftonline.us"
 * and lands on the test identity provider.
 */
export async function startConnectProxy(hosts: string[], target: number): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    res.writeHead(405).end();
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const host = (req.url ?? '').replace(/:\d+$/, '').toLowerCase();
    tunnels.push(host);
    if (!hosts.includes(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(target, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
