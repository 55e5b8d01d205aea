import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { MemorySecretStore } from '../platform/testing/memory-secret-store.ts';
import { aiConfigFrom } from './config.ts';
import { createAiService } from './ai-service.ts';
import { AnalysisStore } from './store/analysis-store.ts';
import {
  messageText,
  startFakeLlmServer,
  unusedBaseUrl,
  type FakeLlmServer,
} from './testing/fake-llm-server.ts';
import { jobBody, readSse, startAiHarness, type AiHarness } from './testing/harness.ts';

const KEY = 'sk-live-abcdef0123456789';

async function json<T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> {
  return (await (await res).json()) as T;
}

describe.each(['openai', 'anthropic'] as const)('AI routes with a fake %s provider', (kind) => {
  let fake: FakeLlmServer;
  let h: AiHarness;
  beforeAll(async () => {
    fake = await startFakeLlmServer(kind);
    h = await startAiHarness({
      config: { provider: kind, baseUrl: fake.baseUrl, model: 'ci-model', apiKey: KEY },
    });
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.mode = 'ok';
    fake.slowMs = 2000;
    fake.calls.length = 0;
  });
  const userText = (n: number) =>
    (fake.calls[n]!.body.messages ?? [])
      .filter((m) => m.role !== 'system')
      .map((m) => messageText(m.content));

  it('sends the system prompt, job facts and the distilled log, and caches the answer', async () => {
    const a = await json<{ analysis: string; cached: boolean }>(
      h.post('/ai/analyse', jobBody(9001)),
    );
    expect(a).toMatchObject({
      analysis: `**Root cause:** fake ${kind} answer number 1.`,
      cached: false,
    });
    const prompt = userText(0)[0]!;
    expect(prompt).toContain('Job: `test:unit` (#9001), stage `test`, status failed');
    expect(prompt).toContain('Commit: bbbbbbbb “Apply discounts before tax” by Ada');
    expect(prompt).toContain('The last successful run of this job on `main` was job #8990');
    expect(prompt).toContain(
      'Last command before the first error: `npm test -- --ci --reporters=default`',
    );
    expect(prompt).toContain('Received: 100.5');
    expect(prompt).not.toContain('\x1b[');
    expect(prompt.length).toBeLessThan(30_000);
    expect(JSON.stringify(fake.calls[0]!.body)).toContain('senior CI/CD engineer');
    expect((await json(h.post('/ai/analyse', jobBody(9001)))).cached).toBe(true);
    expect(fake.calls).toHaveLength(1);
  });

  it('threads follow-ups through the whole conversation', async () => {
    await h.post('/ai/followup', jobBody(9001, { question: 'First question?' }));
    await h.post('/ai/followup', jobBody(9001, { question: 'Second question?' }));
    const turns = userText(1);
    expect(turns).toHaveLength(5);
    expect(turns[1]).toBe(`**Root cause:** fake ${kind} answer number 1.`);
    expect(turns[2]).toContain('First question?');
    expect(turns[3]).toBe(`**Root cause:** fake ${kind} answer number 1.`);
    expect(turns[4]).toContain('Second question?');
    const cache = await json<{ conversation: { answer: string }[] }>(
      h.get('/ai/cache?projectId=7&jobId=9001'),
    );
    expect(cache.conversation.map((c) => c.answer)).toEqual([
      `**Root cause:** fake ${kind} answer number 1.`,
      `**Root cause:** fake ${kind} answer number 2.`,
    ]);
  });

  it('makes one provider call for concurrent analyses of the same job', async () => {
    fake.mode = 'slow';
    fake.slowMs = 300;
    const [a, b, c] = await Promise.all([
      json<{ analysis: string }>(h.post('/ai/analyse', jobBody(9003, { jobName: 'test:api' }))),
      json<{ analysis: string }>(h.post('/ai/analyse', jobBody(9003, { jobName: 'test:api' }))),
      readSse(await h.post('/ai/analyse', jobBody(9003, { jobName: 'test:api', stream: true }))),
    ]);
    expect(fake.calls).toHaveLength(1);
    expect(b.analysis).toBe(a.analysis);
    expect(c.at(-1)!.data.analysis).toBe(a.analysis);
  });

  it('streams the answer as SSE while the provider writes it', async () => {
    fake.reply = () => 'Streaming explains the failing test step by step.';
    const events = await readSse(
      await h.post('/ai/analyse', jobBody(9002, { jobName: 'lint', stream: true })),
    );
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.data.text).join('')).toBe(
      'Streaming explains the failing test step by step.',
    );
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: {
        analysis: 'Streaming explains the failing test step by step.',
        cached: false,
        timestamp: expect.any(String),
      },
    });
    expect(fake.calls[0]!.body.stream).toBe(true);
    fake.reply = (_c, n) => `**Root cause:** fake ${kind} answer number ${n}.`;
  });

  it('falls back to the offline analysis, marked, when the provider is down, and retries next time', async () => {
    fake.mode = 'down';
    const fallback = await json<{ analysis: string; cached: boolean }>(
      h.post('/ai/analyse', jobBody(8990)),
    );
    expect(fallback.analysis).toMatch(
      /^> \*\*The configured AI provider could not be used, so this is the built-in offline analysis instead\.\*\*/,
    );
    expect(fallback.analysis).toContain('could not be reached');
    expect(fallback.analysis).toContain('**Root cause category:**');
    // Kept (it says what it is), but not served as the provider's cached answer.
    expect((await json(h.get('/ai/cache?projectId=7&jobId=8990'))).analysis).toBe(
      fallback.analysis,
    );
    fake.mode = 'ok';
    const real = await json<{ analysis: string; cached: boolean }>(
      h.post('/ai/analyse', jobBody(8990)),
    );
    expect(real).toMatchObject({
      cached: false,
      analysis: expect.stringMatching(/^\*\*Root cause:\*\* fake/),
    });
    expect((await json(h.post('/ai/analyse', jobBody(8990)))).cached).toBe(true);
  });

  it('answers a misconfigured provider with a clear 502 and stores nothing', async () => {
    for (const [mode, text] of [
      ['garbage', /not a valid .* answer\. Check the base URL/],
      ['unauthorized', /rejected the API key \(HTTP 401\)/],
      ['not-found', /HTTP 404.*Check the base URL .* and the model name/],
    ] as const) {
      fake.mode = mode;
      const res = await h.post('/ai/analyse', jobBody(9002, { jobName: 'lint', force: true }));
      expect(res.status).toBe(502);
      const body = await json<{ error: string; statusCode: number }>(res);
      expect(body.error).toMatch(text);
      expect(body.error).toContain("model 'ci-model'");
      expect(body.error).not.toContain(KEY);
    }
    // The streamed analysis of job 9002 from the earlier test is still the stored one.
    expect((await json(h.get('/ai/cache?projectId=7&jobId=9002'))).analysis).toBe(
      'Streaming explains the failing test step by step.',
    );
    expect(h.logs()).not.toContain(KEY);
  });
});

describe('AI routes when the fallback is switched off', () => {
  let fake: FakeLlmServer;
  let h: AiHarness;
  beforeAll(async () => {
    fake = await startFakeLlmServer('openai');
    h = await startAiHarness({
      config: {
        provider: 'openai',
        baseUrl: fake.baseUrl,
        model: 'm',
        fallbackToOffline: false,
        timeoutMs: 300,
      },
    });
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });

  it('answers 504 for a slow provider and 502 for an unreachable one, storing nothing', async () => {
    fake.mode = 'slow';
    const slow = await h.post('/ai/analyse', jobBody(9001));
    expect(slow.status).toBe(504);
    expect((await json<{ error: string }>(slow)).error).toMatch(/did not answer within 0 s/);
    await h.service.updateProvider({ baseUrl: await unusedBaseUrl() });
    const down = await h.post('/ai/analyse', jobBody(9001));
    expect(down.status).toBe(502);
    expect((await json<{ error: string }>(down)).error).toMatch(
      /could not be reached \(ECONNREFUSED\)/,
    );
    expect((await h.get('/ai/cache?projectId=7&jobId=9001')).status).toBe(404);
  });
});

describe('AI provider settings', () => {
  let fake: FakeLlmServer;
  let h: AiHarness;
  const secrets = new MemorySecretStore();
  beforeAll(async () => {
    fake = await startFakeLlmServer('openai');
    h = await startAiHarness({ secretStore: secrets, persistStore: true });
  });
  afterAll(async () => {
    await h.close();
    await fake.close();
  });

  it('switches provider at runtime and keeps the key in the secret store only', async () => {
    const status = await json(
      h.put('/ai/provider', {
        provider: 'openai',
        baseUrl: `${fake.baseUrl}/`,
        model: 'llama3',
        apiKey: KEY,
      }),
    );
    expect(status).toEqual({
      provider: 'openai',
      model: 'llama3',
      baseUrl: fake.baseUrl,
      apiKeySet: true,
      apiKeySource: 'secret-store',
      secretStore: 'memory',
      pinnedByEnvironment: false,
      fallbackToOffline: true,
      providers: ['offline', 'openai', 'anthropic'],
    });
    expect(JSON.stringify(status)).not.toContain(KEY);
    expect(await secrets.get('ai-api-key:openai')).toBe(KEY);
    await h.post('/ai/analyse', jobBody(9001));
    expect(fake.calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.calls[0]!.body.model).toBe('llama3');
    for (const f of readdirSync(h.dataDir)) {
      expect(readFileSync(path.join(h.dataDir, f)).includes(KEY)).toBe(false);
    }
    expect(h.logs()).not.toContain(KEY);

    const cleared = await json(h.put('/ai/provider', { apiKey: null }));
    expect(cleared).toMatchObject({ apiKeySet: false, apiKeySource: null });
    expect(await secrets.get('ai-api-key:openai')).toBeUndefined();
    // Switching provider resets the model and URL to the new provider's defaults.
    expect(await json(h.put('/ai/provider', { provider: 'anthropic' }))).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      baseUrl: 'https://api.anthropic.com/v1',
    });
    // The choice outlives a restart when no env/flag names a provider, and env/flags win when one does.
    const reopened = AnalysisStore.open(path.join(h.dataDir, 'analyses.db'), silentLogger);
    const restarted = createAiService({
      gitlab: h.gitlab,
      store: reopened,
      logger: silentLogger,
      config: {},
      projectName: () => undefined,
    });
    const pinned = createAiService({
      gitlab: h.gitlab,
      store: reopened,
      logger: silentLogger,
      config: aiConfigFrom({ AI_PROVIDER: 'ollama', AI_MODEL: 'qwen2.5' }),
      projectName: () => undefined,
    });
    try {
      expect(await restarted.providerStatus()).toMatchObject({
        provider: 'anthropic',
        pinnedByEnvironment: false,
      });
      expect(await pinned.providerStatus()).toMatchObject({
        provider: 'openai',
        model: 'qwen2.5',
        baseUrl: 'http://127.0.0.1:11434/v1',
        pinnedByEnvironment: true,
      });
    } finally {
      reopened.close();
    }
  });
});
