import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.ts';
import { silentLogger } from '../../platform/logger.ts';
import { distillLog } from '../distill/log-distiller.ts';
import { minimalContext } from '../job-context.ts';
import {
  startFakeLlmServer,
  unusedBaseUrl,
  type FakeLlmServer,
} from '../testing/fake-llm-server.ts';
import { withOfflineFallback } from './fallback-provider.ts';
import { offlineProvider } from './offline-provider.ts';
import type { ProviderRequest } from './provider.ts';
import { createRemoteProvider, type RemoteProviderSettings } from './sdk-provider.ts';

const request: ProviderRequest = {
  system: 'You are a CI expert.',
  messages: [{ role: 'user', content: 'Why did the job fail?' }],
  task: {
    kind: 'analyse-job',
    context: minimalContext({ projectId: 1, pipelineId: 2, jobId: 3, jobName: 'build' }),
    distilled: distillLog(
      '$ npm ci\nnpm ERR! code ENOTFOUND\nnpm ERR! network request to https://registry.npmjs.org/left-pad failed\n',
    ),
  },
};

describe('offline fallback around a remote provider', () => {
  let fake: FakeLlmServer;
  const remote = (over: Partial<RemoteProviderSettings> = {}) =>
    createRemoteProvider({
      name: 'openai',
      baseUrl: fake.baseUrl,
      model: 'ci-model',
      apiKey: 'sk-test-0123456789',
      timeoutMs: 5000,
      maxRetries: 0,
      ...over,
    });
  beforeAll(async () => {
    fake = await startFakeLlmServer('openai');
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.mode = 'ok';
    fake.calls.length = 0;
    fake.reply = () => 'The registry lookup failed: ENOTFOUND for registry.npmjs.org.';
  });

  it('passes the primary answer and its stream through, and says the primary answered', async () => {
    const deltas: string[] = [];
    const answer = await withOfflineFallback(remote(), offlineProvider, silentLogger).answer(
      request,
      { onDelta: (d) => deltas.push(d) },
    );
    expect(answer).toEqual({
      text: 'The registry lookup failed: ENOTFOUND for registry.npmjs.org.',
      provider: 'openai',
      model: 'ci-model',
      fallback: false,
    });
    expect(deltas.join('')).toBe(answer.text);
    expect(fake.calls).toHaveLength(1);
  });

  it('answers offline, marked, when the primary is unreachable before the first delta', async () => {
    const deltas: string[] = [];
    const wrapped = withOfflineFallback(
      remote({ baseUrl: await unusedBaseUrl() }),
      offlineProvider,
      silentLogger,
    );
    const answer = await wrapped.answer(request, { onDelta: (d) => deltas.push(d) });
    expect(answer).toMatchObject({ provider: 'offline', model: '', fallback: true });
    expect(answer.text).toMatch(
      /^> \*\*The configured AI provider could not be used, so this is the built-in offline analysis instead\.\*\* .*could not be reached \(ECONNREFUSED\)/,
    );
    expect(answer.text).toContain('npm ERR! code ENOTFOUND');
    expect(deltas).toEqual([answer.text]);
  });

  it('re-throws when the primary fails after it has streamed text', async () => {
    // Slow mode sends the first chunk and then stalls past the timeout: unreachable, mid-stream.
    fake.mode = 'slow';
    const deltas: string[] = [];
    const wrapped = withOfflineFallback(remote({ timeoutMs: 300 }), offlineProvider, silentLogger);
    const failure = await wrapped.answer(request, { onDelta: (d) => deltas.push(d) }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe('upstream_timeout');
    expect(deltas.join('')).toBe('The registry');
    expect(deltas.join('')).not.toContain('offline analysis');
  });

  it('does not fall back when the primary is misconfigured', async () => {
    fake.mode = 'unauthorized';
    const failure = await withOfflineFallback(remote(), offlineProvider, silentLogger)
      .answer(request)
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect((failure as AppError).message).toMatch(/rejected the API key \(HTTP 401\)/);
  });
});
