import type { PipelineAnalysisResponse } from '../contract.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import { distillLog } from './distill/log-distiller.ts';
import type { JobFinding, ProblemGroup } from './findings.ts';
import { contextFromJob } from './job-context.ts';
import { diagnose } from './offline/diagnosis.ts';
import { groupFindings, pipelineMessages } from './pipeline-analysis.ts';
import { answerTaskOffline } from './providers/offline-provider.ts';
import type { DeltaListener, SingleFlight } from './single-flight.ts';
import { failedTestsOf, usableCache, type AiUseCaseDeps } from './use-case-deps.ts';

/** POST /api/ai/analyse-pipeline input. */
export interface PipelineAnalyseInput {
  projectId: number;
  pipelineId: number;
  force?: boolean | undefined;
}

/** At most this many failed jobs of one pipeline are read for a pipeline analysis. */
const MAX_PIPELINE_JOBS = 12;

/**
 * The pipeline's stages in order. GitLab creates a pipeline's jobs stage by stage, so a stage's
 * lowest job id orders it (a retried job gets a new id, but its stage keeps the others' ids).
 */
function stageOrder(jobs: GitLabJob[]): string[] {
  const first = new Map<string, number>();
  for (const j of jobs) first.set(j.stage, Math.min(j.id, first.get(j.stage) ?? Infinity));
  return [...first.entries()].sort((a, b) => a[1] - b[1]).map(([stage]) => stage);
}

/** The failed jobs of a pipeline, one per job name (its newest attempt), oldest first. */
function failedJobs(jobs: GitLabJob[]): GitLabJob[] {
  // GitLab is asked without retried jobs; keeping the newest per name also covers a server that
  // lists them anyway.
  const latest = new Map<string, GitLabJob>();
  for (const j of jobs) {
    const seen = latest.get(j.name);
    if (!seen || j.id > seen.id) latest.set(j.name, j);
  }
  return [...latest.values()].filter((j) => j.status === 'failed').sort((a, b) => a.id - b.id);
}

async function findings(
  deps: AiUseCaseDeps,
  input: PipelineAnalyseInput,
  source: string,
  chosen: GitLabJob[],
): Promise<JobFinding[]> {
  const perJobBudget = Math.max(
    3000,
    Math.floor(deps.budgetChars / Math.max(1, Math.min(chosen.length, 6))),
  );
  const projectName = deps.projectName(input.projectId);
  const out: JobFinding[] = [];
  // Three logs at a time: bounded load on GitLab, still quick for a dozen jobs.
  for (let i = 0; i < chosen.length; i += 3) {
    const batch = await Promise.all(
      chosen.slice(i, i + 3).map(async (job) => {
        const raw = await deps.gitlab.getJobTrace(input.projectId, job.id).catch((err: unknown) => {
          deps.logger.warn({ err, jobId: job.id }, 'job log unavailable for pipeline analysis');
          return '';
        });
        const distilled = distillLog(raw, { budgetChars: perJobBudget });
        const context = contextFromJob(job, input.projectId, projectName);
        context.source = source;
        const tests = await failedTestsOf(deps, { pipelineId: input.pipelineId, jobId: job.id });
        if (tests) context.failedTests = tests;
        return { job, context, distilled, diagnosis: diagnose(distilled, context) };
      }),
    );
    out.push(...batch);
  }
  return out;
}

const jobsOf = (groups: ProblemGroup[]): PipelineAnalysisResponse['jobs'] =>
  groups.flatMap((g, i) =>
    g.jobs.map((f) => ({
      jobId: f.job.id,
      jobName: f.job.name,
      stage: f.job.stage,
      problem: i + 1,
    })),
  );

async function runPipelineAnalysis(
  deps: AiUseCaseDeps,
  input: PipelineAnalyseInput,
  onDelta: DeltaListener | undefined,
): Promise<PipelineAnalysisResponse> {
  const pipeline = await deps.gitlab.getPipeline(input.projectId, input.pipelineId);
  const all = await deps.gitlab.listPipelineJobs(input.projectId, input.pipelineId);
  const failed = failedJobs(all);
  // Jobs that block the pipeline are read first when there are more than the cap.
  const chosen = [...failed]
    .sort((a, b) => Number(a.allow_failure) - Number(b.allow_failure))
    .slice(0, MAX_PIPELINE_JOBS)
    .sort((a, b) => a.id - b.id);
  const groups = groupFindings(
    await findings(deps, input, pipeline.source, chosen),
    stageOrder(all),
  );
  const task = {
    kind: 'analyse-pipeline' as const,
    pipeline,
    groups,
    skipped: failed.length - chosen.length,
  };
  const timestamp = deps.now();
  const jobs = jobsOf(groups);
  if (chosen.length === 0) {
    // Nothing failed: no question for a model.
    const text = answerTaskOffline(task);
    onDelta?.(text);
    return { analysis: text, cached: false, timestamp, jobs: [] };
  }
  const provider = await deps.provider();
  const answer = await provider.answer(
    {
      system: deps.systemPrompt(),
      messages: pipelineMessages(pipeline, deps.projectName(input.projectId), groups),
      task,
    },
    onDelta ? { onDelta } : {},
  );
  deps.store.savePipelineAnalysis({
    projectId: input.projectId,
    pipelineId: input.pipelineId,
    analysis: answer.text,
    provider: answer.provider,
    model: answer.model,
    isFallback: answer.fallback,
    jobsJson: JSON.stringify(jobs),
    timestamp,
  });
  return { analysis: answer.text, cached: false, timestamp, jobs };
}

/**
 * Analyses every failed job of a pipeline at once, merging jobs that fail the same way; serves
 * the stored analysis unless forced; concurrent requests share one answer.
 */
export async function analysePipeline(
  deps: AiUseCaseDeps,
  flights: SingleFlight,
  input: PipelineAnalyseInput,
  onDelta: DeltaListener | undefined,
): Promise<PipelineAnalysisResponse> {
  if (!input.force) {
    const cached = deps.store.getPipelineAnalysis(input.projectId, input.pipelineId);
    if (cached && usableCache(cached, deps)) {
      onDelta?.(cached.analysis);
      return {
        analysis: cached.analysis,
        cached: true,
        timestamp: cached.timestamp,
        jobs: JSON.parse(cached.jobsJson) as PipelineAnalysisResponse['jobs'],
      };
    }
  }
  return flights.run(
    `pipeline:${input.projectId}:${input.pipelineId}`,
    (relay) => runPipelineAnalysis(deps, input, relay),
    onDelta,
  );
}
