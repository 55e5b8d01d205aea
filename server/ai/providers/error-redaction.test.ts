import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { toProviderFailure, type RemoteProviderSettings } from './sdk-provider.ts';

const KEY = 'sk-proj-AbCdEf0123456789ghIJ';
const settings: RemoteProviderSettings = {
  name: 'openai',
  baseUrl: 'http://127.0.0.1:9/v1',
  model: 'm',
  apiKey: KEY,
  timeoutMs: 1000,
  maxRetries: 0,
};

/** A provider's 401 whose message echoes the key (OpenAI quotes the key it was given). */
function failureEchoing(echo: string) {
  const err = new APICallError({
    message: 'Unauthorized',
    url: `${settings.baseUrl}/chat/completions`,
    requestBodyValues: {},
    statusCode: 401,
    responseBody: JSON.stringify({ error: { message: `Incorrect API key provided: ${echo}.` } }),
  });
  return toProviderFailure(err, settings, false);
}

describe('provider error text relayed to callers and logs (issue 9, item 6)', () => {
  it.each([
    ['upper case', KEY.toUpperCase()],
    ['URL-encoded with another casing', encodeURIComponent(KEY.toLowerCase())],
    ['base64', Buffer.from(KEY).toString('base64')],
    ['masked', `sk-proj-********${KEY.slice(-12)}`],
  ])('never carries the key echoed %s', (_form, echo) => {
    const failure = failureEchoing(echo);
    expect(failure.message).toMatch(
      /rejected the API key \(HTTP 401\): Incorrect API key provided/,
    );
    expect(failure.message).toContain('[redacted]');
    expect(failure.message.toLowerCase()).not.toContain(echo.toLowerCase());
  });
});
