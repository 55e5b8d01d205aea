import { describe, expect, it } from 'vitest';
import { aiConfigFrom } from './config.ts';

describe('aiConfigFrom', () => {
  it('reads the AI_* variables and lets flags win', () => {
    expect(aiConfigFrom({})).toEqual({});
    expect(
      aiConfigFrom(
        {
          AI_PROVIDER: 'OpenAI',
          AI_BASE_URL: 'http://127.0.0.1:1234/v1/',
          AI_MODEL: 'm1',
          AI_API_KEY: ' k ',
          AI_TIMEOUT_MS: '3000',
        },
        { model: 'm2' },
      ),
    ).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:1234/v1',
      model: 'm2',
      apiKey: 'k',
      timeoutMs: 3000,
    });
    expect(aiConfigFrom({ AI_PROVIDER: 'anthropic' }, { provider: 'offline' }).provider).toBe(
      'offline',
    );
  });

  it('rejects unknown providers, bad URLs and bad timeouts with actionable messages', () => {
    expect(() => aiConfigFrom({ AI_PROVIDER: 'gemini' })).toThrow(
      /AI provider must be one of offline, openai, anthropic \(got 'gemini'\)/,
    );
    expect(() => aiConfigFrom({ AI_BASE_URL: 'localhost:11434' })).toThrow(/http or https/);
    expect(() => aiConfigFrom({ AI_BASE_URL: 'http://u:p@host/v1' })).toThrow(/credentials/);
    expect(() => aiConfigFrom({ AI_TIMEOUT_MS: '0' })).toThrow(
      /AI_TIMEOUT_MS must be a positive integer/,
    );
  });
});
