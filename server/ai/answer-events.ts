import type { AnalysisTask } from './analysis-task.ts';
import type { ProviderName } from './config.ts';
import type { AnsweringProvider } from './providers/provider.ts';

/** One provider call of an analysis, a follow-up or a pipeline analysis: who answered, and how. */
export interface AnswerEvent {
  task: AnalysisTask['kind'];
  /** Who answered: the offline analyser when it stood in, else the configured provider. */
  provider: ProviderName;
  /** `fallback` when the offline analyser answered because the configured provider was down. */
  outcome: 'answered' | 'fallback' | 'failed';
}

/**
 * `provider` as is, except that each `answer` is told to `onAnswer` once it settles (metrics count
 * analyses by provider). Served-from-cache analyses never reach a provider, so they are not told.
 */
export function reportingAnswers(
  provider: AnsweringProvider,
  onAnswer: ((event: AnswerEvent) => void) | undefined,
): AnsweringProvider {
  if (!onAnswer) return provider;
  return {
    name: provider.name,
    model: provider.model,
    baseUrl: provider.baseUrl,
    generate: (request, options) => provider.generate(request, options),
    async answer(request, options) {
      let answer;
      try {
        answer = await provider.answer(request, options);
      } catch (err) {
        onAnswer({ task: request.task.kind, provider: provider.name, outcome: 'failed' });
        throw err;
      }
      const outcome = answer.fallback ? 'fallback' : 'answered';
      onAnswer({ task: request.task.kind, provider: answer.provider, outcome });
      return answer;
    },
  };
}
