import type { GitLabApi } from '../gitlab/api.ts';
import type { Logger } from '../platform/logger.ts';
import type { JobContext, JobTestFailure } from './job-context.ts';
import type { StoredRuns } from './recorded-runs.ts';
import type { AnsweringProvider } from './providers/provider.ts';
import type { RepositoryTrees } from './repository-trees.ts';
import type { AnalysisStore } from './store/analysis-store.ts';

/** The collaborators the AI use cases (analyse a job, follow up, analyse a pipeline) share. */
export interface AiUseCaseDeps {
  gitlab: GitLabApi;
  store: AnalysisStore;
  logger: Logger;
  /** The current time as an ISO string (from the injected clock). */
  now: () => string;
  /** Character budget of the distilled log sent to a model. */
  budgetChars: number;
  /** The project's display name, '' when unknown. */
  projectName: (projectId: number) => string;
  /** The provider to ask (the configured one, with its offline fallback). */
  provider: () => Promise<AnsweringProvider>;
  /** The system prompt for configured providers. */
  systemPrompt: () => string;
  /** True when the built-in analyser is the configured provider. */
  isOffline: () => boolean;
  /** The job's recent flake history in words (group health), when the service keeps history. */
  flakeHistory?: (projectId: number, jobName: string) => Promise<string | undefined>;
  /** The repository's files per commit, to check and link the locations a log names. */
  repositoryTrees?: RepositoryTrees | undefined;
  /** The job's failed tests from its pipeline's JUnit report, when the service reads reports. */
  failedTests?: (pipelineId: number, jobId: number) => Promise<JobTestFailure[] | undefined>;
  /** What fixed the job's error before on its project, in words (triage), when known. */
  pastFixes?: PastFixesLookup;
  /** The pipeline history's pipelines and jobs, read before GitLab for earlier runs. */
  storedRuns?: StoredRuns | undefined;
}

/** A failed job's past fixes in words (server/triage/), or undefined. */
export type PastFixesLookup = (
  projectId: number,
  pipelineId: number,
  jobId: number,
  jobName: string,
) => Promise<string | undefined>;

/**
 * Whether a stored answer may be served as cached. A fallback answer is kept (it is useful and
 * says what it is) but does not count while a real provider is configured: the next request tries
 * the provider again.
 */
export function usableCache(
  cached: { isFallback: boolean } | undefined,
  deps: Pick<AiUseCaseDeps, 'isOffline'>,
): boolean {
  return cached !== undefined && !(cached.isFallback && !deps.isOffline());
}

/** The job's past fixes in words; undefined when none is known or triage cannot tell. */
export async function pastFixesOf(
  deps: Pick<AiUseCaseDeps, 'pastFixes'>,
  context: Pick<JobContext, 'projectId' | 'pipelineId' | 'jobId' | 'jobName'>,
): Promise<string | undefined> {
  try {
    return await deps.pastFixes?.(
      context.projectId,
      context.pipelineId,
      context.jobId,
      context.jobName,
    );
  } catch {
    return undefined;
  }
}

/**
 * The job's failed tests from its pipeline's JUnit report, or undefined when the report named
 * none or could not be read (the analysis then stands on the log alone).
 */
export async function failedTestsOf(
  deps: Pick<AiUseCaseDeps, 'failedTests'>,
  job: { pipelineId: number; jobId: number },
): Promise<JobTestFailure[] | undefined> {
  try {
    const tests = await deps.failedTests?.(job.pipelineId, job.jobId);
    return tests && tests.length > 0 ? tests : undefined;
  } catch {
    return undefined;
  }
}
