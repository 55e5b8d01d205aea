import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonBody } from './body.ts';
import { listen, type RunningServer } from './listen.ts';
import { createTestApp } from './testing/test-server.ts';

let running: RunningServer;

beforeAll(async () => {
  const app = createTestApp({
    routes: [
      (router) =>
        router.post('/echo', async (ctx) => {
          ctx.body = { got: await readJsonBody(ctx, 1024) };
        }),
    ],
  });
  running = await listen(app, { host: '127.0.0.1', port: 0 });
});
afterAll(() => running.close());

/** Writes raw bytes and reads whatever comes back until the server closes (or 3 s pass). */
function raw(chunks: (string | Buffer)[]): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(running.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (c) => (answer += c));
    socket.on('error', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.setTimeout(3_000, () => socket.destroy());
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        socket.write(chunk);
        await new Promise((r) => setTimeout(r, 2));
      }
    });
  });
}

const jsonBody = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('HTTP edge cases answered in the error shape (issue 9, item 6)', () => {
  it('answers an oversize chunked body with 413, not a reset connection', async () => {
    const piece = Buffer.alloc(512, 'a');
    const chunk = Buffer.concat([Buffer.from('200\r\n'), piece, Buffer.from('\r\n')]);
    const answer = await raw([
      `POST /api/echo HTTP/1.1\r\nHost: 127.0.0.1:${running.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ...Array.from({ length: 16 }, () => chunk),
      '0\r\n\r\n',
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(jsonBody(answer)).toMatchObject({ statusCode: 413, error: /larger than 1024 bytes/ });
  });

  it("gives Node's own 400 and 431 answers the JSON error body", async () => {
    const bad = await raw(['GARBAGE\r\n\r\n']);
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(jsonBody(bad)).toMatchObject({ statusCode: 400, error: 'Malformed HTTP request' });
    const huge = await raw([
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(jsonBody(huge)).toMatchObject({ statusCode: 431 });
    expect(Object.keys(jsonBody(huge)).sort()).toEqual(['error', 'statusCode', 'timestamp']);
  });
});
