/** One Server-Sent Event. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Reads an SSE body from fetch (EventSource cannot POST): splits frames on blank lines, joins
 * multi-line `data:`, ignores comments and `retry:`/`id:`. Calls `onEvent` per frame, in order.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onEvent: (e: SseEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (frame: string) => {
    let event = 'message';
    const data: string[] = [];
    for (const raw of frame.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) onEvent({ event, data: data.join('\n') });
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let at: number;
    while ((at = buffer.indexOf('\n\n')) !== -1) {
      flush(buffer.slice(0, at));
      buffer = buffer.slice(at + 2);
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) flush(buffer);
}
