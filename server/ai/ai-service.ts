import type {
  AnalyseResponse,
  AnalyzedJobsResponse,
  CachedAnalysis,
  DeleteAnalysisResponse,
  FollowupResponse,
  HistoryResponse,
  PipelineAnalysisResponse,
  ProviderStatus,
  SystemPromptResponse,
  SystemPromptUpdateResponse,
} from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { systemClock, type Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { SecretStore } from '../platform/secret-store.ts';
import { analyseJob, type AnalyseInput } from './analyse-job.ts';
import { analysePipeline, type PipelineAnalyseInput } from './analyse-pipeline.ts';
import { reportingAnswers, type AnswerEvent } from './answer-events.ts';
import { createStoredAnalyses } from './stored-analyses.ts';
import type { AiConfig } from './config.ts';
import { followUp, type FollowupInput } from './follow-up.ts';
import { createProviderSettings, type ProviderUpdate } from './provider-settings.ts';
import { SerialQueue, SingleFlight } from './single-flight.ts';
import type { AnalysisStore } from './store/analysis-store.ts';
import { createSystemPrompt } from './system-prompt.ts';
import type { AiUseCaseDeps, PastFixesLookup } from './use-case-deps.ts';
import { repositoryTreesOf } from './job-facts.ts';
import type { StoredRuns } from './recorded-runs.ts';

export type { AnalyseInput } from './analyse-job.ts';
export type { AnswerEvent } from './answer-events.ts';
export type { PipelineAnalyseInput } from './analyse-pipeline.ts';
export type { FollowupInput } from './follow-up.ts';
export type { ProviderUpdate } from './provider-settings.ts';
// The response shapes live in the public contract (the dashboard reads them from there too).
export type { PipelineAnalysisResponse, ProviderStatus };

/** What the AI service needs from the rest of the app. */
export interface AiServiceDeps {
  gitlab: GitLabApi;
  /** Analyses, conversations and AI settings; opened (and closed) by the composition root. */
  store: AnalysisStore;
  logger: Logger;
  clock?: Clock;
  config: AiConfig;
  /** Where the provider API key is kept; without one a key set from the dashboard lasts until restart. */
  secretStore?: SecretStore;
  /** The project's display name, when the poller knows it. */
  projectName: (projectId: number) => string | undefined;
  /** Injected into the AI SDK (tests, proxies). */
  fetch?: typeof fetch;
  /** The job's recent flake history in words (group health), for the prompt and offline analyser. */
  flakeHistory?: (projectId: number, jobName: string) => Promise<string | undefined>;
  /** The job's failed tests from its pipeline's JUnit report, for the prompt and offline analyser. */
  failedTests?: AiUseCaseDeps['failedTests'];
  /** What fixed the job's error before (triage), for the prompt and the offline analyser. */
  pastFixes?: PastFixesLookup;
  /**
   * The pipeline history (server/history's PipelineHistory fits): earlier runs and attempts are
   * read there before GitLab is asked.
   */
  storedRuns?: StoredRuns;
  /** Told of each provider answer, given or failed (metrics count analyses by provider). */
  onAnswer?: (event: AnswerEvent) => void;
}

/** Options of a call that can stream its answer. */
export interface StreamOptions {
  onDelta?: (text: string) => void;
}

/** The AI analysis domain: analyses, follow-ups, history, prompt and provider settings. */
export interface AiService {
  analyse(input: AnalyseInput, options?: StreamOptions): Promise<AnalyseResponse>;
  followup(input: FollowupInput, options?: StreamOptions): Promise<FollowupResponse>;
  analysePipeline(
    input: PipelineAnalyseInput,
    options?: StreamOptions,
  ): Promise<PipelineAnalysisResponse>;
  analyzed(projectId: number): AnalyzedJobsResponse;
  getCached(projectId: number, jobId: number): CachedAnalysis;
  deleteCached(projectId: number, jobId: number): DeleteAnalysisResponse;
  history(page: number, pageSize: number): HistoryResponse;
  getSystemPrompt(): SystemPromptResponse;
  setSystemPrompt(prompt: string): SystemPromptUpdateResponse;
  resetSystemPrompt(): SystemPromptUpdateResponse;
  providerStatus(): Promise<ProviderStatus>;
  updateProvider(update: ProviderUpdate): Promise<ProviderStatus>;
}

/** Creates the AI service over an open analysis store; each use case lives in its own file. */
export function createAiService(deps: AiServiceDeps): AiService {
  const clock = deps.clock ?? systemClock;
  const { store, logger, config } = deps;
  const settings = createProviderSettings({
    store,
    config,
    logger,
    secretStore: deps.secretStore,
    fetch: deps.fetch,
  });
  const prompt = createSystemPrompt(store);
  const history = createStoredAnalyses(store, deps.projectName);
  const useCases: AiUseCaseDeps = {
    gitlab: deps.gitlab,
    store,
    logger,
    now: () => new Date(clock.now()).toISOString(),
    budgetChars: config.budgetChars ?? 24_000,
    projectName: (id) => deps.projectName(id) ?? '',
    provider: async () => reportingAnswers(await settings.provider(), deps.onAnswer),
    systemPrompt: () => prompt.current(),
    isOffline: () => settings.isOffline(),
    flakeHistory: deps.flakeHistory,
    repositoryTrees: repositoryTreesOf(deps.gitlab),
    failedTests: deps.failedTests,
    pastFixes: deps.pastFixes,
    storedRuns: deps.storedRuns,
  };
  const flights = new SingleFlight();
  const conversations = new SerialQueue();

  return {
    analyse: (input, options = {}) => analyseJob(useCases, flights, input, options.onDelta),
    followup: (input, options = {}) => followUp(useCases, conversations, input, options.onDelta),
    analysePipeline: (input, options = {}) =>
      analysePipeline(useCases, flights, input, options.onDelta),
    analyzed: (projectId) => history.analyzed(projectId),
    getCached: (projectId, jobId) => history.getCached(projectId, jobId),
    deleteCached: (projectId, jobId) => history.deleteCached(projectId, jobId),
    history: (page, pageSize) => history.history(page, pageSize),
    getSystemPrompt: () => prompt.get(),
    setSystemPrompt: (text) => prompt.set(text),
    resetSystemPrompt: () => prompt.reset(),
    providerStatus: () => settings.status(),
    updateProvider: (update) => settings.update(update),
  };
}
