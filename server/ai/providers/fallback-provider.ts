import type { Logger } from '../../platform/logger.ts';
import {
  ProviderFailure,
  type AiProvider,
  type AnsweringProvider,
  type GenerateOptions,
  type ProviderRequest,
} from './provider.ts';

/** The line an offline stand-in answer starts with, so a reader knows what they are reading. */
export function fallbackNotice(reason: string): string {
  return `> **The configured AI provider could not be used, so this is the built-in offline analysis instead.** ${reason}\n\n`;
}

function logFailure(logger: Logger, provider: AiProvider, err: ProviderFailure): void {
  logger.warn(
    { provider: provider.name, model: provider.model, error: err.message },
    'AI provider failed',
  );
}

/** `answer` under `provider`'s name and model, with `generate` giving just the answer's text. */
function presentedAs(provider: AiProvider, answer: AnsweringProvider['answer']): AnsweringProvider {
  return {
    name: provider.name,
    model: provider.model,
    baseUrl: provider.baseUrl,
    answer,
    generate: async (request, options) => (await answer(request, options)).text,
  };
}

/** Asks `provider` and reports it as the author; a ProviderFailure becomes its AppError. */
export function answeringAs(provider: AiProvider, logger: Logger): AnsweringProvider {
  const answer = async (request: ProviderRequest, options: GenerateOptions = {}) => {
    try {
      const text = await provider.generate(request, options);
      return { text, provider: provider.name, model: provider.model, fallback: false };
    } catch (err) {
      if (!(err instanceof ProviderFailure)) throw err;
      logFailure(logger, provider, err);
      throw err.appError;
    }
  };
  return presentedAs(provider, answer);
}

/**
 * Wraps `primary` so that, when it cannot be reached (down, slow, overloaded) before it has sent
 * any text, `offline` answers instead, marked as such. A misconfigured provider (bad key, wrong
 * URL) and a failure after the first piece of text are errors: the first needs fixing, and in the
 * second the user has already read part of a real answer that a different one must not replace.
 */
export function withOfflineFallback(
  primary: AiProvider,
  offline: AiProvider,
  logger: Logger,
): AnsweringProvider {
  const answer = async (request: ProviderRequest, options: GenerateOptions = {}) => {
    let streamed = false;
    const onDelta = options.onDelta;
    const relay = onDelta
      ? {
          ...options,
          onDelta: (t: string) => {
            streamed = true;
            onDelta(t);
          },
        }
      : options;
    try {
      const text = await primary.generate(request, relay);
      return { text, provider: primary.name, model: primary.model, fallback: false };
    } catch (err) {
      if (!(err instanceof ProviderFailure)) throw err;
      logFailure(logger, primary, err);
      if (!err.unreachable || streamed) throw err.appError;
      const text = fallbackNotice(err.message) + (await offline.generate(request));
      onDelta?.(text);
      return { text, provider: offline.name, model: offline.model, fallback: true };
    }
  };
  return presentedAs(primary, answer);
}
