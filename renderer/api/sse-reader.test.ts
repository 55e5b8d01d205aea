// @vitest-environment node
// Stream parsing needs no DOM; and jsdom under the vmThreads pool has no ReadableStream global.
import { describe, expect, it } from 'vitest';
import type { SseEvent } from './sse-reader.ts';
import { readSse } from './sse-reader.ts';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
}

describe('readSse', () => {
  it('parses named events split across chunks, multi-line data and comments', async () => {
    const events: SseEvent[] = [];
    await readSse(
      streamOf([
        'retry: 3000\n\n: keep-alive\n\nevent: del',
        'ta\ndata: {"text":"Hel"}\n\nevent: delta\r\ndata: {"text":"lo"}\r\n\r\n',
        'data: line 1\ndata: line 2\n\nevent: done\ndata: {}',
      ]),
      (e) => events.push(e),
    );
    expect(events).toEqual([
      { event: 'delta', data: '{"text":"Hel"}' },
      { event: 'delta', data: '{"text":"lo"}' },
      { event: 'message', data: 'line 1\nline 2' },
      { event: 'done', data: '{}' },
    ]);
  });
});
