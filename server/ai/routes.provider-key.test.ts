import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../platform/testing/memory-secret-store.ts';
import { startFakeLlmServer, type FakeLlmServer } from './testing/fake-llm-server.ts';
import { jobBody, startAiHarness, type AiHarness } from './testing/harness.ts';

const KEY = 'sk-live-redirect-0123456789';

async function json<T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> {
  return (await (await res).json()) as T;
}

// The OpenAI API authenticates with `Authorization: Bearer <key>`
// (https://platform.openai.com/docs/api-reference/authentication): whoever gets the request gets the key.
describe('the AI key cannot be redirected (issue 9, item 1)', () => {
  let home: FakeLlmServer;
  let elsewhere: FakeLlmServer;
  let h: AiHarness;
  const secrets = new MemorySecretStore();
  beforeAll(async () => {
    home = await startFakeLlmServer('openai');
    elsewhere = await startFakeLlmServer('openai');
  });
  afterAll(async () => {
    await home.close();
    await elsewhere.close();
  });
  beforeEach(async () => {
    await h?.close();
    h = await startAiHarness({ secretStore: secrets });
    home.calls.length = 0;
    elsewhere.calls.length = 0;
    const set = await json(
      h.put('/ai/provider', { provider: 'openai', baseUrl: home.baseUrl, apiKey: KEY }),
    );
    expect(set).toMatchObject({ apiKeySet: true });
  });
  afterAll(() => h.close());

  it('drops the stored key when only the base URL moves', async () => {
    const moved = await json(h.put('/ai/provider', { baseUrl: elsewhere.baseUrl }));
    expect(moved).toMatchObject({ baseUrl: elsewhere.baseUrl, apiKeySet: false });
    expect(await secrets.get('ai-api-key:openai')).toBeUndefined();
    await h.post('/ai/analyse', { ...jobBody(9001), force: true });
    for (const call of elsewhere.calls) {
      expect(JSON.stringify(call.headers)).not.toContain(KEY);
    }
  });

  it('drops it when the provider changes without a new key', async () => {
    await secrets.set('ai-api-key:anthropic', 'sk-ant-older-key');
    const moved = await json(h.put('/ai/provider', { provider: 'anthropic' }));
    expect(moved).toMatchObject({ provider: 'anthropic', apiKeySet: false });
  });

  it('keeps it for a model change, and takes a new key sent with the new URL', async () => {
    expect(await json(h.put('/ai/provider', { model: 'other-model' }))).toMatchObject({
      apiKeySet: true,
    });
    expect(await json(h.put('/ai/provider', { baseUrl: `${home.baseUrl}/` }))).toMatchObject({
      apiKeySet: true,
    });
    const withKey = await json(
      h.put('/ai/provider', { baseUrl: elsewhere.baseUrl, apiKey: 'sk-for-elsewhere' }),
    );
    expect(withKey).toMatchObject({ baseUrl: elsewhere.baseUrl, apiKeySet: true });
    await h.post('/ai/analyse', { ...jobBody(9001), force: true });
    expect(elsewhere.calls[0]!.headers.authorization).toBe('Bearer sk-for-elsewhere');
  });
});

describe('a key from the environment', () => {
  it('is not sent to a base URL set later from the dashboard', async () => {
    const home = await startFakeLlmServer('openai');
    const elsewhere = await startFakeLlmServer('openai');
    const h = await startAiHarness({
      config: { provider: 'openai', baseUrl: home.baseUrl, model: 'm', apiKey: KEY },
    });
    try {
      await json(h.put('/ai/provider', { baseUrl: elsewhere.baseUrl }));
      await h.post('/ai/analyse', { ...jobBody(9001), force: true });
      for (const call of elsewhere.calls) {
        expect(JSON.stringify(call.headers)).not.toContain(KEY);
      }
    } finally {
      await h.close();
      await home.close();
      await elsewhere.close();
    }
  });
});
