import type { AnalyseResponse } from '../contract.ts';
import { AppError } from '../platform/errors.ts';
import { distillLog } from './distill/log-distiller.ts';
import { loadCheckedJobContext, readJobLog, type JobIdentity } from './job-context.ts';
import { gatherJobFacts } from './job-facts.ts';
import { analysisMessages } from './prompt.ts';
import type { DeltaListener, SingleFlight } from './single-flight.ts';
import { pastFixesOf, usableCache, type AiUseCaseDeps, failedTestsOf } from './use-case-deps.ts';

/** POST /api/ai/analyse input. */
export interface AnalyseInput extends JobIdentity {
  log?: string | undefined;
  /** Re-analyse even when a cached analysis exists. */
  force?: boolean | undefined;
}

/** The log of the last green run of the job, when there is one and GitLab gives it; best effort. */
async function greenLog(
  deps: AiUseCaseDeps,
  input: AnalyseInput,
  greenJobId: number | undefined,
): Promise<string | undefined> {
  if (greenJobId === undefined || greenJobId === input.jobId) return undefined;
  try {
    const text = await deps.gitlab.getJobTrace(input.projectId, greenJobId);
    return text.trim() === '' ? undefined : text;
  } catch (err) {
    deps.logger.debug({ err, jobId: greenJobId }, 'log of the last green run unavailable');
    return undefined;
  }
}

async function runAnalysis(
  deps: AiUseCaseDeps,
  input: AnalyseInput,
  onDelta: DeltaListener | undefined,
): Promise<AnalyseResponse> {
  const context = await loadCheckedJobContext(
    deps.gitlab,
    input,
    deps.projectName(input.projectId),
    deps.logger,
    input.log !== undefined,
    deps.storedRuns,
  );
  context.flakeHistory = await deps.flakeHistory?.(input.projectId, context.jobName);
  const failedTests = await failedTestsOf(deps, {
    pipelineId: context.pipelineId,
    jobId: input.jobId,
  });
  if (failedTests) context.failedTests = failedTests;
  context.pastFixes = await pastFixesOf(deps, context);
  const raw = await readJobLog(deps.gitlab, input, input.log);
  const baseline = await greenLog(deps, input, context.previousSuccess?.jobId);
  const distilled = distillLog(raw, { budgetChars: deps.budgetChars, baseline });
  // Follow-ups read a stored excerpt that may no longer show the runner's image line.
  if (distilled.image) context.image = distilled.image;
  await gatherJobFacts(
    { gitlab: deps.gitlab, repositoryTrees: deps.repositoryTrees, logger: deps.logger },
    context,
    distilled,
  );
  const provider = await deps.provider();
  const answer = await provider.answer(
    {
      system: deps.systemPrompt(),
      messages: analysisMessages(context, distilled),
      task: { kind: 'analyse-job', context, distilled },
    },
    onDelta ? { onDelta } : {},
  );
  const timestamp = deps.now();
  deps.store.saveAnalysis({
    projectId: input.projectId,
    pipelineId: context.pipelineId,
    jobId: input.jobId,
    jobName: context.jobName,
    stage: context.stage,
    projectName: context.projectName,
    analysis: answer.text,
    provider: answer.provider,
    model: answer.model,
    isFallback: answer.fallback,
    distilledLog: distilled.text,
    contextJson: JSON.stringify(context),
    timestamp,
  });
  return { analysis: answer.text, cached: false, timestamp };
}

/**
 * Analyses a failed job: serves the stored analysis unless forced, otherwise distils the log and
 * asks the provider; concurrent requests for one job share one answer.
 */
export async function analyseJob(
  deps: AiUseCaseDeps,
  flights: SingleFlight,
  input: AnalyseInput,
  onDelta: DeltaListener | undefined,
): Promise<AnalyseResponse> {
  if (!input.force) {
    const cached = deps.store.get(input.projectId, input.jobId);
    if (cached && usableCache(cached, deps)) {
      if (cached.pipelineId !== input.pipelineId) {
        throw new AppError(
          'bad_request',
          `Job ${input.jobId} belongs to pipeline ${cached.pipelineId}, not ${input.pipelineId}`,
        );
      }
      onDelta?.(cached.analysis);
      return { analysis: cached.analysis, cached: true, timestamp: cached.timestamp };
    }
  }
  return flights.run(
    `job:${input.projectId}:${input.jobId}`,
    (relay) => runAnalysis(deps, input, relay),
    onDelta,
  );
}
