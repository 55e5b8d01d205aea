import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake provider behaves for the next requests. */
export type FakeLlmMode =
  | 'ok'
  /** Drops the connection without answering. */
  | 'down'
  /** Waits `slowMs` before answering (streams stall after the first chunk). */
  | 'slow'
  /** 200 with a body that is not a chat answer. */
  | 'garbage'
  | 'unauthorized'
  | 'not-found'
  | 'server-error'
  | 'rate-limited';

/** A request the fake received. */
export interface RecordedCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    system?: unknown;
    messages?: { role: string; content: unknown }[];
  };
}

/** A running fake OpenAI-compatible or Anthropic endpoint on loopback. */
export interface FakeLlmServer {
  /** Base URL to configure, ending in /v1. */
  readonly baseUrl: string;
  readonly calls: RecordedCall[];
  mode: FakeLlmMode;
  slowMs: number;
  /** The answer text for a call (default: a fixed sentence numbered by call). */
  reply: (call: RecordedCall, n: number) => string;
  close(): Promise<void>;
}

/** The text content of a recorded message, whatever shape the SDK sent it in. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: { text?: string }) => (typeof p?.text === 'string' ? p.text : ''))
      .join('');
  }
  return '';
}

function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 12) out.push(text.slice(i, i + 12));
  return out;
}

/** Starts a fake provider speaking OpenAI chat completions or Anthropic Messages (both with streaming). */
export async function startFakeLlmServer(kind: 'openai' | 'anthropic'): Promise<FakeLlmServer> {
  const timers = new Set<NodeJS.Timeout>();
  const state: FakeLlmServer = {
    baseUrl: '',
    calls: [],
    mode: 'ok',
    slowMs: 2000,
    reply: (_call, n) => `**Root cause:** fake ${kind} answer number ${n}.`,
    close: async () => {},
  };
  const wait = (ms: number, res: http.ServerResponse) =>
    new Promise<boolean>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve(!res.destroyed);
      }, ms);
      timers.add(t);
      res.on('close', () => {
        clearTimeout(t);
        timers.delete(t);
        resolve(false);
      });
    });

  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    const expected = kind === 'openai' ? '/v1/chat/completions' : '/v1/messages';
    let body: RecordedCall['body'] = {};
    try {
      body = JSON.parse(raw) as RecordedCall['body'];
    } catch {
      // recorded as empty
    }
    const call: RecordedCall = { path: req.url ?? '', headers: req.headers, body };
    state.calls.push(call);
    const n = state.calls.length;
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    if (req.url !== expected) return json(404, { error: { message: `no route ${req.url}` } });
    switch (state.mode) {
      case 'down':
        req.socket.destroy();
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html><body>502 proxy error, please log in</body></html>');
        return;
      case 'unauthorized':
        return json(401, { error: { message: 'Incorrect API key provided', type: 'auth' } });
      case 'not-found':
        return json(404, { error: { message: `model '${body.model}' not found` } });
      case 'server-error':
        return json(503, { error: { message: 'overloaded' } });
      case 'rate-limited':
        return json(429, { error: { message: 'slow down' } }, { 'retry-after': '7' });
      case 'slow':
        if (!body.stream && !(await wait(state.slowMs, res))) return;
        break;
      case 'ok':
        break;
    }
    const text = state.reply(call, n);
    const model = body.model ?? 'fake-model';
    if (!body.stream) {
      if (kind === 'openai') {
        return json(200, {
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model,
          choices: [
            { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        });
      }
      return json(200, {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 20 },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string | undefined, data: unknown) =>
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    const pieces = chunks(text);
    if (kind === 'openai') {
      const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model };
      send(undefined, {
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      });
      for (const [i, piece] of pieces.entries()) {
        send(undefined, {
          ...base,
          choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
        });
        if (i === 0 && state.mode === 'slow' && !(await wait(state.slowMs, res))) return;
      }
      send(undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      res.end('data: [DONE]\n\n');
      return;
    }
    send('message_start', {
      type: 'message_start',
      message: {
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    });
    send('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    for (const [i, piece] of pieces.entries()) {
      send('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: piece },
      });
      if (i === 0 && state.mode === 'slow' && !(await wait(state.slowMs, res))) return;
    }
    send('content_block_stop', { type: 'content_block_stop', index: 0 });
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    send('message_stop', { type: 'message_stop' });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return state;
}

/** A loopback URL where nothing listens (connection refused). */
export async function unusedBaseUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
