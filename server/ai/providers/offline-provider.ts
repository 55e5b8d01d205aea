import { answerOffline } from '../offline/follow-up.ts';
import { analyseOffline } from '../offline/report.ts';
import { pipelineOfflineReport } from '../pipeline-analysis.ts';
import type { AnalysisTask } from '../analysis-task.ts';
import type { AiProvider } from './provider.ts';

/** The built-in analyser's answer to a task: deterministic, instant, no network. */
export function answerTaskOffline(task: AnalysisTask): string {
  switch (task.kind) {
    case 'analyse-job':
      return analyseOffline(task.distilled, task.context);
    case 'follow-up':
      return answerOffline({
        question: task.question,
        distilled: task.distilled,
        context: task.context,
        analysis: task.analysis,
      });
    case 'analyse-pipeline':
      return pipelineOfflineReport(task.pipeline, task.groups, task.skipped);
  }
}

/** The built-in analyser as a provider; it reads the task's facts and ignores the prose. */
export const offlineProvider: AiProvider = {
  name: 'offline',
  model: '',
  baseUrl: undefined,
  async generate(request, options) {
    const text = answerTaskOffline(request.task);
    options?.onDelta?.(text);
    return text;
  },
};
