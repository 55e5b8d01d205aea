import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { reportingAnswers, type AnswerEvent } from './answer-events.ts';
import { distillLog } from './distill/log-distiller.ts';
import { minimalContext } from './job-context.ts';
import type { Answer, AnsweringProvider, ProviderRequest } from './providers/provider.ts';

const request: ProviderRequest = {
  system: 'You are a CI expert.',
  messages: [{ role: 'user', content: 'Why did the job fail?' }],
  task: {
    kind: 'analyse-job',
    context: minimalContext({ projectId: 1, pipelineId: 2, jobId: 3, jobName: 'build' }),
    distilled: distillLog('$ npm ci\nnpm ERR! code ENOTFOUND\n'),
  },
};

/** A provider configured as `openai` that answers with `answer`, or fails when it is an error. */
function provider(answer: Answer | Error): AnsweringProvider {
  return {
    name: 'openai',
    model: 'ci-model',
    baseUrl: 'http://127.0.0.1:9',
    generate: async () => (answer instanceof Error ? Promise.reject(answer) : answer.text),
    answer: async () => (answer instanceof Error ? Promise.reject(answer) : answer),
  };
}

describe('reportingAnswers', () => {
  it('tells who answered: the provider, or the offline analyser standing in', async () => {
    const events: AnswerEvent[] = [];
    const real = { text: 'DNS', provider: 'openai', model: 'ci-model', fallback: false } as const;
    const stoodIn = { text: 'DNS', provider: 'offline', model: 'rules', fallback: true } as const;
    expect(await reportingAnswers(provider(real), (e) => events.push(e)).answer(request)).toBe(
      real,
    );
    await reportingAnswers(provider(stoodIn), (e) => events.push(e)).answer(request);
    expect(events).toEqual([
      { task: 'analyse-job', provider: 'openai', outcome: 'answered' },
      { task: 'analyse-job', provider: 'offline', outcome: 'fallback' },
    ]);
  });

  it('tells a failed answer and still rejects with its error', async () => {
    const events: AnswerEvent[] = [];
    const failure = new AppError('not_configured', 'The openai key is wrong');
    const wrapped = reportingAnswers(provider(failure), (e) => events.push(e));
    await expect(wrapped.answer(request)).rejects.toBe(failure);
    expect(events).toEqual([{ task: 'analyse-job', provider: 'openai', outcome: 'failed' }]);
    expect([wrapped.name, wrapped.model, wrapped.baseUrl]).toEqual([
      'openai',
      'ci-model',
      'http://127.0.0.1:9',
    ]);
  });
});
