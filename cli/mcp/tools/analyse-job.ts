import { z } from 'zod';
import { explainJob } from '../../explain/explain-job.ts';
import { renderExplanation } from '../../explain/render-explanation.ts';
import { serviceJobSource } from '../../explain/service-source.ts';
import { bounded, pipelineTool } from '../pipeline-tool.ts';
import { JOB_INPUT } from './job-input.ts';

/** Longest answer (characters): an analysis is a page of Markdown, rarely more. */
const MAX_ANSWER_CHARS = 16_000;

/** analyse_job: what `pipeline-summary explain` prints, through the service. */
export const analyseJobTool = pipelineTool({
  name: 'analyse_job',
  title: 'Explain why a job failed',
  description:
    "Why a failed job failed: the failing step, the decisive log lines and an analysis by the service's configured AI provider (else its built-in offline analyser) with the likely cause and next steps. A stored analysis is returned unless force is true. Refuses a job that did not fail.",
  input: {
    ...JOB_INPUT,
    force: z
      .boolean()
      .optional()
      .describe('Analyse again even when an analysis is stored (costs a model call)'),
  },
  // It asks the provider and stores the answer in the service, never in GitLab.
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  async run(args, client) {
    const source = await serviceJobSource(client);
    const project = String(args.projectId).replace(/^\/+|\/+$/g, '');
    const explanation = await explainJob(
      source,
      { kind: 'id', project, jobId: args.jobId },
      { force: args.force ?? false },
    );
    return bounded(renderExplanation(explanation, { tty: false }), MAX_ANSWER_CHARS);
  },
});
