import type { AppError } from '../../platform/errors.ts';
import type { ProviderName } from '../config.ts';

/** One chat turn sent to a model. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** A request to a provider: prose for models, plus the offline answer computed from the log. */
export interface ProviderRequest {
  system: string;
  messages: ChatMessage[];
  /**
   * The built-in analyser's answer to the same request. The offline provider returns it; remote
   * providers ignore it (the service uses it as the fallback when they are unreachable).
   */
  offlineAnswer: () => string;
}

/** Options of one generation. */
export interface GenerateOptions {
  /** Called with each piece of text as it arrives (streaming). */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/** The provider port: the offline analyser and every remote model implement it. */
export interface AiProvider {
  readonly name: ProviderName;
  readonly model: string;
  readonly baseUrl: string | undefined;
  /** Resolves to the full answer; rejects with a ProviderFailure. */
  generate(request: ProviderRequest, options?: GenerateOptions): Promise<string>;
}

/** A provider call that failed, with what a user should check and whether to fall back. */
export class ProviderFailure extends Error {
  override readonly name = 'ProviderFailure';
  constructor(
    /** The error to show (names the provider and what to check; never the key). */
    readonly appError: AppError,
    /** True when the provider could not be reached or was overloaded, rather than misconfigured. */
    readonly unreachable: boolean,
  ) {
    super(appError.message);
  }
}

/** The built-in analyser as a provider: deterministic, instant, no network. */
export const offlineProvider: AiProvider = {
  name: 'offline',
  model: '',
  baseUrl: undefined,
  async generate(request, options) {
    const text = request.offlineAnswer();
    options?.onDelta?.(text);
    return text;
  },
};
