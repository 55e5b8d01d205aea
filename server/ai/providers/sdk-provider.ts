import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, RetryError, streamText, type LanguageModel } from 'ai';
import { AppError } from '../../platform/errors.ts';
import { redactSecret } from '../../platform/redact.ts';
import type { ProviderName } from '../config.ts';
import {
  ProviderFailure,
  type AiProvider,
  type GenerateOptions,
  type ProviderRequest,
} from './provider.ts';

// The AI SDK prints provider warnings to the console by default; the service logs through pino.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** Settings of a remote provider. */
export interface RemoteProviderSettings {
  name: Exclude<ProviderName, 'offline'>;
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** Injected so tests and timeouts are controllable. */
  fetch?: typeof fetch;
  /** Longest answer, in tokens. */
  maxOutputTokens?: number;
}

const LABEL: Record<RemoteProviderSettings['name'], string> = {
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
};

function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 6; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(?:E[A-Z_]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Removes the API key from text a provider sent back, in case it echoes the request. */
function redact(text: string, apiKey: string | undefined): string {
  let out = text.replace(/\s+/g, ' ').trim();
  if (apiKey && apiKey.length >= 4)
    out = redactSecret(out.split(apiKey).join('[redacted]'), apiKey);
  return out.replace(/\b(?:sk|key|token)-[A-Za-z0-9_-]{8,}/g, '[redacted]').slice(0, 200);
}

function providerMessage(body: string | undefined, apiKey: string | undefined): string {
  if (!body) return '';
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    const msg =
      typeof parsed.error === 'string'
        ? parsed.error
        : typeof parsed.error?.message === 'string'
          ? parsed.error.message
          : typeof parsed.message === 'string'
            ? parsed.message
            : '';
    return msg ? `: ${redact(msg, apiKey)}` : '';
  } catch {
    return '';
  }
}

/**
 * Turns whatever the SDK threw into a ProviderFailure whose message names the provider and what
 * to check, without stack traces or keys.
 */
export function toProviderFailure(
  err: unknown,
  s: RemoteProviderSettings,
  timedOut: boolean,
): ProviderFailure {
  const who = `The ${LABEL[s.name]} AI provider (model '${s.model}' at ${s.baseUrl})`;
  if (err instanceof ProviderFailure) return err;
  if (timedOut) {
    return new ProviderFailure(
      new AppError(
        'upstream_timeout',
        `${who} did not answer within ${Math.round(s.timeoutMs / 1000)} s. Check that the server is up and the model is loaded, or raise AI_TIMEOUT_MS.`,
      ),
      true,
    );
  }
  const inner = RetryError.isInstance(err) ? err.lastError : err;
  // A 2xx whose body could not be parsed is garbage, handled at the end.
  if (
    APICallError.isInstance(inner) &&
    inner.statusCode !== undefined &&
    (inner.statusCode < 200 || inner.statusCode >= 300)
  ) {
    const status = inner.statusCode;
    const detail = providerMessage(inner.responseBody, s.apiKey);
    if (status === 401 || status === 403) {
      return new ProviderFailure(
        new AppError(
          'upstream_unavailable',
          `${who} rejected the API key (HTTP ${status})${detail}. Check AI_API_KEY or the key saved in the AI settings.`,
        ),
        false,
      );
    }
    if (status === 404) {
      return new ProviderFailure(
        new AppError(
          'upstream_unavailable',
          `${who} answered HTTP 404${detail}. Check the base URL (it usually ends in /v1) and the model name.`,
        ),
        false,
      );
    }
    if (status === 429 || status >= 500) {
      const retryAfter = Number(inner.responseHeaders?.['retry-after']);
      return new ProviderFailure(
        new AppError(
          'upstream_unavailable',
          status === 429
            ? `${who} is rate limiting requests (HTTP 429)${detail}. Try again later.`
            : `${who} failed (HTTP ${status})${detail}. Try again later, or check the provider's status.`,
          Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {},
        ),
        true,
      );
    }
    return new ProviderFailure(
      new AppError(
        'upstream_unavailable',
        `${who} rejected the request (HTTP ${status})${detail}. Check the model name and the provider settings.`,
      ),
      false,
    );
  }
  const code = networkCode(inner);
  const parsedBadly = APICallError.isInstance(inner) && inner.statusCode !== undefined;
  if (!parsedBadly && (code || (APICallError.isInstance(inner) && inner.isRetryable))) {
    return new ProviderFailure(
      new AppError(
        'upstream_unavailable',
        `${who} could not be reached${code ? ` (${code})` : ''}. Check the base URL and that the server is running.`,
      ),
      true,
    );
  }
  return new ProviderFailure(
    new AppError(
      'upstream_unavailable',
      `${who} sent a response that is not a valid ${s.name === 'anthropic' ? 'Messages API' : 'chat completions'} answer. Check the base URL points at ${s.name === 'anthropic' ? 'an Anthropic Messages endpoint' : 'an OpenAI-compatible /v1 endpoint'}.`,
    ),
    false,
  );
}

function buildModel(s: RemoteProviderSettings): LanguageModel {
  if (s.name === 'anthropic') {
    return createAnthropic({
      baseURL: s.baseUrl,
      // An explicit empty key stops the SDK from reading ANTHROPIC_API_KEY behind our back.
      apiKey: s.apiKey ?? '',
      ...(s.fetch ? { fetch: s.fetch } : {}),
    }).languageModel(s.model);
  }
  return createOpenAICompatible({
    name: 'openai',
    baseURL: s.baseUrl,
    ...(s.apiKey ? { apiKey: s.apiKey } : {}),
    ...(s.fetch ? { fetch: s.fetch } : {}),
  }).chatModel(s.model);
}

/** A remote model behind the Vercel AI SDK: OpenAI-compatible chat completions or Anthropic Messages. */
export function createRemoteProvider(s: RemoteProviderSettings): AiProvider {
  const model = buildModel(s);
  return {
    name: s.name,
    model: s.model,
    baseUrl: s.baseUrl,
    async generate(request: ProviderRequest, options: GenerateOptions = {}): Promise<string> {
      if (s.name === 'anthropic' && !s.apiKey) {
        throw new ProviderFailure(
          new AppError(
            'upstream_unavailable',
            `The Anthropic AI provider has no API key. Set AI_API_KEY or save a key in the AI settings.`,
          ),
          false,
        );
      }
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), s.timeoutMs);
      const signal = options.signal
        ? AbortSignal.any([options.signal, timeout.signal])
        : timeout.signal;
      const call = {
        model,
        system: request.system,
        messages: request.messages,
        maxRetries: s.maxRetries,
        abortSignal: signal,
        maxOutputTokens: s.maxOutputTokens ?? 2000,
        temperature: 0.2,
      };
      try {
        let text: string;
        if (options.onDelta) {
          // Errors arrive as stream parts below; the SDK would also print them to the console.
          const result = streamText({ ...call, onError: () => {} });
          text = '';
          for await (const part of result.fullStream) {
            if (part.type === 'text-delta') {
              text += part.text;
              options.onDelta(part.text);
            } else if (part.type === 'error') {
              throw part.error;
            } else if (part.type === 'abort') {
              throw new Error('aborted');
            }
          }
        } else {
          text = (await generateText(call)).text;
        }
        if (text.trim() === '') throw new Error('empty answer');
        return text;
      } catch (err) {
        throw toProviderFailure(err, s, timeout.signal.aborted);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
