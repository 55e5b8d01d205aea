// What a provider is asked, as plain types: the provider port carries them and the use cases build
// them, so this module imports no use case and the port depends on none.
import type { GitLabPipeline } from '../gitlab/wire.ts';
import type { DistilledLog } from './distill/log-distiller.ts';
import type { ProblemGroup } from './findings.ts';
import type { JobContext } from './job-context.ts';

/** One chat turn sent to a model. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * What is being asked, as facts rather than prose: models read the messages built from it, the
 * built-in analyser reads the facts themselves.
 */
export type AnalysisTask =
  | { kind: 'analyse-job'; context: JobContext; distilled: DistilledLog }
  | {
      kind: 'follow-up';
      context: JobContext;
      distilled: DistilledLog;
      analysis: string;
      question: string;
    }
  | {
      kind: 'analyse-pipeline';
      pipeline: GitLabPipeline;
      groups: ProblemGroup[];
      /** Failed jobs left out of the analysis (too many). */
      skipped: number;
    };
