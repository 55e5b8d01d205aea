import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { createProviderSettings } from './provider-settings.ts';
import { AnalysisStore } from './store/analysis-store.ts';

describe('provider settings', () => {
  const store = AnalysisStore.open(':memory:', silentLogger);
  afterEach(() => store.setSettings({ 'ai.provider': undefined }));

  it('builds the remote provider once per settings version, not per request', async () => {
    const settings = createProviderSettings({
      store,
      logger: silentLogger,
      config: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-one-123456' },
    });
    const first = await settings.provider();
    expect(await settings.provider()).toBe(first);
    expect(first).toMatchObject({ name: 'openai', model: 'gpt-4o-mini' });
    await settings.update({ model: 'llama3' });
    const second = await settings.provider();
    expect(second).not.toBe(first);
    expect(second.model).toBe('llama3');
    expect(await settings.provider()).toBe(second);
  });

  it('answers with the built-in analyser when offline is chosen', async () => {
    const settings = createProviderSettings({ store, logger: silentLogger, config: {} });
    expect(settings.isOffline()).toBe(true);
    expect((await settings.provider()).name).toBe('offline');
  });
});
