import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { createApp } from '../http/app.ts';
import { SseHub } from './sse-hub.ts';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function serve(hub: SseHub) {
  const app = createApp({
    logger: silentLogger,
    version: { version: '0', gitCommit: 'x', buildDate: 'y' },
    routes: [(router) => router.get('/events/pipelines', (ctx) => hub.subscribe(ctx))],
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(async () => {
    hub.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events/pipelines`;
}

/** Reads SSE events from a fetch response until `count` events arrived. */
async function readEvents(
  res: Response,
  count: number,
): Promise<{ event: string; data: string }[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { event: string; data: string }[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data !== undefined) events.push({ event, data });
      else if (/^retry: \d+$/m.test(block)) events.push({ event: 'retry', data: block.slice(7) });
    }
  }
  await reader.cancel();
  return events;
}

describe('SseHub', () => {
  it('sends named failure events to current subscribers without replaying them to newcomers', async () => {
    const hub = new SseHub();
    const url = await serve(hub);
    hub.publish('{"n":1}');
    const first = await fetch(url);
    const reading = readEvents(first, 3);
    await new Promise((r) => setTimeout(r, 50));
    hub.broadcast('pipeline-failed', '{"id":"e1"}');
    expect((await reading).map((e) => e.event)).toEqual([
      'retry',
      'pipeline-update',
      'pipeline-failed',
    ]);
    const later = await readEvents(await fetch(url), 2);
    expect(later.map((e) => e.event)).toEqual(['retry', 'pipeline-update']);
  });

  it('pushes the activity right after its summary, to subscribers and to newcomers', async () => {
    const hub = new SseHub();
    hub.publish('{"n":1}', '{"buckets":[1]}');
    const url = await serve(hub);
    const res = await fetch(url);
    const pending = readEvents(res, 5);
    await new Promise((r) => setTimeout(r, 50));
    hub.publish('{"n":2}', '{"buckets":[2]}');
    expect(await pending).toEqual([
      { event: 'retry', data: '3000' },
      { event: 'pipeline-update', data: '{"n":1}' },
      { event: 'pipeline-activity', data: '{"buckets":[1]}' },
      { event: 'pipeline-update', data: '{"n":2}' },
      { event: 'pipeline-activity', data: '{"buckets":[2]}' },
    ]);
  });

  it('sends the headers, a retry hint and the current summary at once, then each update', async () => {
    const hub = new SseHub();
    hub.publish('{"n":1}');
    const url = await serve(hub);
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('connection')).toBe('keep-alive');
    const pending = readEvents(res, 3);
    await new Promise((r) => setTimeout(r, 50));
    hub.publish('{"n":2}');
    expect(await pending).toEqual([
      { event: 'retry', data: '3000' },
      { event: 'pipeline-update', data: '{"n":1}' },
      { event: 'pipeline-update', data: '{"n":2}' },
    ]);
  });

  it('sends heartbeats with a timestamp', async () => {
    const hub = new SseHub({ heartbeatMs: 30, now: () => Date.parse('2026-11-21T12:00:00Z') });
    const res = await fetch(await serve(hub));
    const events = await readEvents(res, 2);
    expect(events[1]).toEqual({
      event: 'heartbeat',
      data: '{"timestamp":"2026-11-21T12:00:00.000Z"}',
    });
  });

  it('forgets subscribers that disconnect', async () => {
    const hub = new SseHub();
    const url = await serve(hub);
    const controller = new AbortController();
    const res = await fetch(url, { signal: controller.signal });
    await readEvents(res, 1).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    for (let i = 0; i < 50 && hub.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(hub.size).toBe(0);
  });

  it('holds at most the newest frame for a client that stops reading', async () => {
    const hub = new SseHub();
    const url = await serve(hub);
    // A raw client that never reads: the kernel buffers fill, then the server must not queue more.
    const req = http.get(url);
    const res = await new Promise<http.IncomingMessage>((r) => req.on('response', r));
    res.pause();
    const big = JSON.stringify({ pad: 'x'.repeat(256 * 1024) });
    for (let i = 0; i < 60; i++) {
      hub.publish(big.replace('"pad"', `"i${i}"`));
      await new Promise((r) => setImmediate(r));
    }
    // Socket buffers hold some frames; what the process itself holds stays near two frames.
    expect(hub.bufferedBytes()).toBeLessThan(3 * big.length);
    req.destroy();
  });

  it('answers a clear 503 past the subscriber cap, and takes newcomers again once one leaves', async () => {
    const hub = new SseHub({ maxSubscribers: 2 });
    const url = await serve(hub);
    const first = new AbortController();
    const open = [
      await fetch(url, { signal: first.signal }),
      await fetch(url, { signal: AbortSignal.timeout(5_000) }),
    ];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const refused = await fetch(url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    const body = (await refused.json()) as { error: string; statusCode: number };
    expect(body).toMatchObject({
      statusCode: 503,
      error: expect.stringMatching(/Too many live-update connections \(2\)/),
    });
    expect(hub.size).toBe(2);
    first.abort();
    for (let i = 0; i < 50 && hub.size > 1; i++) await new Promise((r) => setTimeout(r, 10));
    const again = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    expect(again.status).toBe(200);
  });
});
