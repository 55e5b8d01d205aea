import type { AppError } from '../../platform/errors.ts';
import type { AnalysisTask, ChatMessage } from '../analysis-task.ts';
import type { ProviderName } from '../config.ts';

/** A request to a provider: prose for models plus the task it was written from. */
export interface ProviderRequest {
  system: string;
  messages: ChatMessage[];
  task: AnalysisTask;
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

/** An answer and who gave it: the configured provider, or the offline analyser standing in. */
export interface Answer {
  text: string;
  provider: ProviderName;
  model: string;
  /** True when the offline analyser answered because the configured provider was unreachable. */
  fallback: boolean;
}

/** A provider that also reports who answered; the use cases talk to this. */
export interface AnsweringProvider extends AiProvider {
  /** Resolves to the answer and its author; rejects with an AppError. */
  answer(request: ProviderRequest, options?: GenerateOptions): Promise<Answer>;
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
