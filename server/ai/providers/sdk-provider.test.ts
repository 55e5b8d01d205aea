import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  messageText,
  startFakeLlmServer,
  unusedBaseUrl,
  type FakeLlmServer,
} from '../testing/fake-llm-server.ts';
import { distillLog } from '../distill/log-distiller.ts';
import { minimalContext } from '../job-context.ts';
import { ProviderFailure, type ProviderRequest } from './provider.ts';
import { createRemoteProvider } from './sdk-provider.ts';
import { rejectionOf } from '../../platform/testing/rejection.ts';

const KEY = 'sk-test-0123456789abcdef';
const request: ProviderRequest = {
  system: 'You are a CI expert.',
  messages: [
    { role: 'user', content: 'Why did it fail?' },
    { role: 'assistant', content: 'Because.' },
    { role: 'user', content: 'And then?' },
  ],
  // Remote providers send the prose; the task is what the offline analyser would read instead.
  task: {
    kind: 'analyse-job',
    context: minimalContext({ projectId: 1, pipelineId: 2, jobId: 3 }),
    distilled: distillLog('Error: boom'),
  },
};

const failure = (promise: Promise<unknown>) => rejectionOf(promise, ProviderFailure);

describe.each(['openai', 'anthropic'] as const)('%s provider over the AI SDK', (kind) => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlmServer(kind);
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.mode = 'ok';
    fake.calls.length = 0;
  });
  const provider = (over: { timeoutMs?: number; baseUrl?: string; apiKey?: string } = {}) =>
    createRemoteProvider({
      name: kind,
      baseUrl: over.baseUrl ?? fake.baseUrl,
      model: 'test-model',
      apiKey: over.apiKey ?? KEY,
      timeoutMs: over.timeoutMs ?? 5000,
      maxRetries: 0,
    });

  it('sends the system prompt, the conversation and the key, and returns the answer', async () => {
    const text = await provider().generate(request);
    expect(text).toBe(`**Root cause:** fake ${kind} answer number 1.`);
    const call = fake.calls[0]!;
    expect(call.body.model).toBe('test-model');
    if (kind === 'openai') {
      expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(call.body.messages?.[0]).toMatchObject({ role: 'system' });
      expect(messageText(call.body.messages?.[0]?.content)).toBe('You are a CI expert.');
    } else {
      expect(call.headers['x-api-key']).toBe(KEY);
      expect(JSON.stringify(call.body.system)).toContain('You are a CI expert.');
    }
    const turns = call.body.messages!.filter((m) => m.role !== 'system');
    expect(turns.map((m) => [m.role, messageText(m.content)])).toEqual([
      ['user', 'Why did it fail?'],
      ['assistant', 'Because.'],
      ['user', 'And then?'],
    ]);
  });

  it('streams the answer in pieces', async () => {
    fake.reply = () => 'The cache key changed because the lock file moved.';
    const deltas: string[] = [];
    const text = await provider().generate(request, { onDelta: (d) => deltas.push(d) });
    expect(text).toBe('The cache key changed because the lock file moved.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    expect(fake.calls[0]!.body.stream).toBe(true);
    fake.reply = (_c, n) => `**Root cause:** fake ${kind} answer number ${n}.`;
  });

  it('reports a dropped connection or a refused port as unreachable', async () => {
    fake.mode = 'down';
    const dropped = await failure(provider().generate(request));
    expect(dropped.unreachable).toBe(true);
    expect(dropped.appError.code).toBe('upstream_unavailable');
    expect(dropped.message).toMatch(/could not be reached.*Check the base URL/);
    const refused = await failure(provider({ baseUrl: await unusedBaseUrl() }).generate(request));
    expect(refused.unreachable).toBe(true);
    expect(refused.message).toContain('(ECONNREFUSED)');
  });

  it('times out a slow provider, streaming or not', async () => {
    fake.mode = 'slow';
    const slow = await failure(provider({ timeoutMs: 300 }).generate(request));
    expect(slow.appError.code).toBe('upstream_timeout');
    expect(slow.unreachable).toBe(true);
    expect(slow.message).toMatch(/did not answer within 0 s/);
    const stalled = await failure(
      provider({ timeoutMs: 300 }).generate(request, { onDelta: () => {} }),
    );
    expect(stalled.appError.code).toBe('upstream_timeout');
  });

  it('explains garbage, bad keys, wrong models and rate limits without leaking the key', async () => {
    fake.mode = 'garbage';
    const garbage = await failure(provider().generate(request));
    expect(garbage.unreachable).toBe(false);
    expect(garbage.message).toMatch(/not a valid .* answer\. Check the base URL/);

    fake.mode = 'unauthorized';
    const auth = await failure(provider().generate(request));
    expect(auth.message).toMatch(/rejected the API key \(HTTP 401\).*Check AI_API_KEY/);
    expect(auth.unreachable).toBe(false);

    fake.mode = 'not-found';
    const missing = await failure(provider().generate(request));
    expect(missing.message).toMatch(/HTTP 404: model 'test-model' not found\. Check the base URL/);

    fake.mode = 'rate-limited';
    const limited = await failure(provider().generate(request));
    expect(limited.unreachable).toBe(true);
    expect(limited.appError.retryAfterMs).toBe(7000);

    for (const f of [garbage, auth, missing, limited]) {
      expect(f.message).not.toContain(KEY);
      expect(f.message).toContain("model 'test-model'");
      expect(f.message).not.toMatch(/\n\s+at /);
    }
  });
});

describe('anthropic provider without a key', () => {
  it('says what to set instead of calling out', async () => {
    const p = createRemoteProvider({
      name: 'anthropic',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: undefined,
      timeoutMs: 1000,
      maxRetries: 0,
    });
    const f = await failure(p.generate(request));
    expect(f.message).toMatch(/has no API key\. Set AI_API_KEY/);
  });
});
