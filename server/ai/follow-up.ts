import type { FollowupResponse } from '../contract.ts';
import { AppError } from '../platform/errors.ts';
import { distillLog, type DistilledLog } from './distill/log-distiller.ts';
import {
  loadCheckedJobContext,
  readJobLog,
  type JobContext,
  type JobIdentity,
} from './job-context.ts';
import { followupMessages } from './prompt.ts';
import type { DeltaListener, SerialQueue } from './single-flight.ts';
import { failedTestsOf, pastFixesOf, type AiUseCaseDeps } from './use-case-deps.ts';

/** POST /api/ai/followup input. */
export interface FollowupInput extends JobIdentity {
  question: string;
  log?: string | undefined;
  previousAnalysis?: string | undefined;
}

function parseContext(json: string | null): JobContext | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as JobContext;
  } catch {
    return undefined;
  }
}

async function runFollowup(
  deps: AiUseCaseDeps,
  input: FollowupInput,
  onDelta: DeltaListener | undefined,
): Promise<FollowupResponse> {
  const { store, budgetChars } = deps;
  const cached = store.get(input.projectId, input.jobId);
  const previous = cached?.analysis ?? input.previousAnalysis;
  if (!previous) {
    throw new AppError(
      'bad_request',
      `Job ${input.jobId} has not been analysed yet; analyse it before asking follow-up questions`,
    );
  }
  let context = parseContext(cached?.contextJson ?? null);
  let distilled: DistilledLog;
  if (input.log !== undefined) {
    distilled = distillLog(input.log, { budgetChars });
  } else if (cached?.distilledLog) {
    // Re-distilling an excerpt keeps it as it is and restores the structure the offline
    // analyser reads.
    distilled = distillLog(cached.distilledLog, { budgetChars });
  } else {
    distilled = distillLog(await readJobLog(deps.gitlab, input, undefined), { budgetChars });
  }
  context ??= await loadCheckedJobContext(
    deps.gitlab,
    input,
    deps.projectName(input.projectId),
    deps.logger,
    true,
    deps.storedRuns,
  );
  context.flakeHistory ??= await deps.flakeHistory?.(input.projectId, context.jobName);
  context.pastFixes ??= await pastFixesOf(deps, context);
  // An analysis stored before its report was read (or a context rebuilt here) learns the tests now.
  context.failedTests ??= await failedTestsOf(deps, context);
  const provider = await deps.provider();
  const answer = await provider.answer(
    {
      system: deps.systemPrompt(),
      messages: followupMessages(
        context,
        distilled,
        previous,
        cached?.conversation ?? [],
        input.question,
      ),
      task: { kind: 'follow-up', context, distilled, analysis: previous, question: input.question },
    },
    onDelta ? { onDelta } : {},
  );
  const timestamp = deps.now();
  store.appendFollowup(
    input.projectId,
    input.jobId,
    {
      question: input.question,
      answer: answer.text,
      timestamp,
      provider: answer.provider,
      isFallback: answer.fallback,
    },
    cached
      ? undefined
      : {
          projectId: input.projectId,
          pipelineId: input.pipelineId,
          jobId: input.jobId,
          jobName: context.jobName,
          stage: context.stage,
          projectName: context.projectName,
          analysis: previous,
          provider: 'client',
          model: '',
          isFallback: false,
          distilledLog: distilled.text,
          contextJson: JSON.stringify(context),
          timestamp,
        },
  );
  return { answer: answer.text, timestamp };
}

/**
 * Answers a question about an analysed job; questions on one job are answered one after another
 * so the stored conversation keeps its order.
 */
export function followUp(
  deps: AiUseCaseDeps,
  queue: SerialQueue,
  input: FollowupInput,
  onDelta: DeltaListener | undefined,
): Promise<FollowupResponse> {
  return queue.run(`${input.projectId}:${input.jobId}`, () => runFollowup(deps, input, onDelta));
}
