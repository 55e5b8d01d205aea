import path from 'node:path';
import { systemClock, type Clock } from '../platform/clock.ts';
import type {
  AnalyseResponse,
  AnalyzedJobsResponse,
  CachedAnalysis,
  DeleteAnalysisResponse,
  FollowupResponse,
  HistoryResponse,
  PipelineAnalysisResponse,
  ProviderStatus,
  ProviderUpdateRequest,
  SystemPromptResponse,
  SystemPromptUpdateResponse,
} from '../contract.ts';
import { AppError } from '../platform/errors.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { GitLabJob } from '../gitlab/wire.ts';
import type { Logger } from '../platform/logger.ts';
import { SECRET_ACCOUNTS, type SecretStore } from '../platform/secret-store.ts';
import {
  DEFAULTS,
  normaliseBaseUrl,
  PROVIDER_NAMES,
  type AiConfig,
  type ProviderName,
} from './config.ts';
import { distillLog, type DistilledLog } from './distill/log-distiller.ts';
import {
  contextFromJob,
  loadJobContext,
  type JobContext,
  type JobIdentity,
} from './job-context.ts';
import { analyseOffline, answerOffline, diagnose } from './offline-analyser.ts';
import {
  groupFindings,
  pipelineMessages,
  pipelineOfflineReport,
  type JobFinding,
} from './pipeline-analysis.ts';
import {
  analysisMessages,
  DEFAULT_SYSTEM_PROMPT,
  followupMessages,
  MAX_SYSTEM_PROMPT_CHARS,
} from './prompt.ts';
import {
  offlineProvider,
  ProviderFailure,
  type AiProvider,
  type ProviderRequest,
} from './providers/provider.ts';
import { createRemoteProvider } from './providers/sdk-provider.ts';
import { AnalysisStore } from './store/analysis-store.ts';

/** What the AI service needs from the rest of the app. */
export interface AiServiceDeps {
  gitlab: GitLabApi;
  /** The analysis store, opened by the composition root (which also closes it). */
  store?: AnalysisStore;
  /** Folder for analyses.db when no `store` is given (the service then owns and closes it). */
  dataDir?: string;
  logger: Logger;
  clock?: Clock;
  config: AiConfig;
  /** Where the provider API key is kept; without one a key set from the dashboard lasts until restart. */
  secretStore?: SecretStore;
  /** The project's display name, when the poller knows it. */
  projectName?: (projectId: number) => string | undefined;
  /** Injected into the AI SDK (tests, proxies). */
  fetch?: typeof fetch;
}

/** POST /api/ai/analyse input. */
export interface AnalyseInput extends JobIdentity {
  log?: string | undefined;
  /** Re-analyse even when a cached analysis exists. */
  force?: boolean | undefined;
}

/** POST /api/ai/followup input. */
export interface FollowupInput extends JobIdentity {
  question: string;
  log?: string | undefined;
  previousAnalysis?: string | undefined;
}

/** POST /api/ai/analyse-pipeline input. */
export interface PipelineAnalyseInput {
  projectId: number;
  pipelineId: number;
  force?: boolean | undefined;
}

// The response shapes live in the public contract (the dashboard reads them from there too).
export type { PipelineAnalysisResponse, ProviderStatus };

/** PUT /api/ai/provider input; `apiKey: null` deletes the stored key. */
export type ProviderUpdate = ProviderUpdateRequest;

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
  close(): void;
}

const SETTING = {
  systemPrompt: 'system_prompt',
  provider: 'ai.provider',
  model: 'ai.model',
  baseUrl: 'ai.base_url',
} as const;

/** History page sizes are clamped into this range. */
export const MAX_PAGE_SIZE = 100;
/** At most this many failed jobs of one pipeline are read for a pipeline analysis. */
const MAX_PIPELINE_JOBS = 12;

interface ProviderSettings {
  provider: ProviderName;
  model: string | undefined;
  baseUrl: string | undefined;
}

/** An answer in the making, shared by concurrent requests for the same thing. */
interface Flight<T> {
  promise: Promise<T>;
  text: string;
  listeners: Set<(delta: string) => void>;
}

/** Creates the AI service over an injected store, or opens `analyses.db` in `dataDir` at once. */
export function createAiService(deps: AiServiceDeps): AiService {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger;
  const config = deps.config;
  const ownsStore = deps.store === undefined;
  if (!deps.store && deps.dataDir === undefined)
    throw new Error('createAiService needs a store or a dataDir');
  const store = deps.store ?? AnalysisStore.open(path.join(deps.dataDir!, 'analyses.db'), logger);
  const budgetChars = config.budgetChars ?? 24_000;
  const now = () => new Date(clock.now()).toISOString();
  const nameOf = (projectId: number) => deps.projectName?.(projectId) ?? '';
  const memoryKeys = new Map<ProviderName, string>();
  const flights = new Map<string, Flight<unknown>>();
  const followupChains = new Map<string, Promise<unknown>>();

  // Env/flags that name a provider win at startup; otherwise the dashboard's saved choice applies.
  const pinned = config.provider !== undefined;
  let settings: ProviderSettings = pinned
    ? { provider: config.provider!, model: config.model, baseUrl: config.baseUrl }
    : {
        provider: (store.getSetting(SETTING.provider) as ProviderName | undefined) ?? 'offline',
        model: store.getSetting(SETTING.model),
        baseUrl: store.getSetting(SETTING.baseUrl),
      };
  if (!PROVIDER_NAMES.includes(settings.provider)) settings.provider = 'offline';
  let envKeyApplies = pinned;

  async function resolveKey(
    provider: ProviderName,
  ): Promise<{ key: string | undefined; source: ProviderStatus['apiKeySource'] }> {
    if (provider === 'offline') return { key: undefined, source: null };
    if (envKeyApplies && config.apiKey && provider === config.provider) {
      return { key: config.apiKey, source: 'environment' };
    }
    if (deps.secretStore) {
      try {
        const key = await deps.secretStore.get(SECRET_ACCOUNTS.aiApiKey(provider));
        if (key) return { key, source: 'secret-store' };
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'secret store unavailable for the AI key');
      }
    }
    const key = memoryKeys.get(provider);
    return key ? { key, source: 'memory' } : { key: undefined, source: null };
  }

  async function currentProvider(): Promise<AiProvider> {
    const s = settings;
    if (s.provider === 'offline') return offlineProvider;
    const { key } = await resolveKey(s.provider);
    return createRemoteProvider({
      name: s.provider,
      baseUrl: s.baseUrl ?? DEFAULTS[s.provider].baseUrl,
      model: s.model ?? DEFAULTS[s.provider].model,
      apiKey: key,
      timeoutMs: config.timeoutMs ?? 120_000,
      maxRetries: config.maxRetries ?? 1,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  }

  const systemPrompt = () => store.getSetting(SETTING.systemPrompt) ?? DEFAULT_SYSTEM_PROMPT;

  /**
   * Asks the provider; when it is unreachable (down, slow, overloaded) answers with the offline
   * analyser instead and says so at the top of the answer.
   */
  async function ask(
    provider: AiProvider,
    request: ProviderRequest,
    onDelta: ((t: string) => void) | undefined,
  ): Promise<{ text: string; fallback: boolean }> {
    let streamed = false;
    const relay = onDelta
      ? (t: string) => {
          streamed = true;
          onDelta(t);
        }
      : undefined;
    try {
      return {
        text: await provider.generate(request, relay ? { onDelta: relay } : {}),
        fallback: false,
      };
    } catch (err) {
      if (!(err instanceof ProviderFailure)) throw err;
      logger.warn(
        { provider: provider.name, model: provider.model, error: err.message },
        'AI provider failed',
      );
      if (!err.unreachable || config.fallbackToOffline === false) throw err.appError;
      const notice = `> **The configured AI provider could not be used, so this is the built-in offline analysis instead.** ${err.message}\n\n`;
      const text = notice + request.offlineAnswer();
      // Clients treat the final answer as authoritative; a partial stream is followed by a break.
      onDelta?.(streamed ? `\n\n---\n\n${text}` : text);
      return { text, fallback: true };
    }
  }

  /** Runs `work` once per key; concurrent callers share it and its streamed text. */
  function shared<T>(
    key: string,
    work: (onDelta: ((t: string) => void) | undefined) => Promise<T>,
    options: StreamOptions,
  ): Promise<T> {
    let flight = flights.get(key) as Flight<T> | undefined;
    if (!flight) {
      const f: Flight<T> = {
        promise: undefined as unknown as Promise<T>,
        text: '',
        listeners: new Set(),
      };
      const streaming = options.onDelta !== undefined;
      f.promise = work(
        streaming
          ? (delta) => {
              f.text += delta;
              for (const l of f.listeners) l(delta);
            }
          : undefined,
      ).finally(() => flights.delete(key));
      flights.set(key, f as Flight<unknown>);
      flight = f;
    } else if (options.onDelta && flight.text) {
      options.onDelta(flight.text);
    }
    if (options.onDelta) {
      const listener = options.onDelta;
      flight.listeners.add(listener);
      void flight.promise.finally(() => flight.listeners.delete(listener)).catch(() => {});
    }
    return flight.promise;
  }

  async function jobContext(
    id: JobIdentity,
    logGiven: boolean,
  ): Promise<{ context: JobContext; job: GitLabJob | undefined }> {
    const loaded = await loadJobContext(deps.gitlab, id, nameOf(id.projectId), logger, {
      tolerateUnavailable: logGiven,
    });
    if (loaded.job && loaded.job.pipeline.id !== id.pipelineId) {
      throw new AppError(
        'bad_request',
        `Job ${id.jobId} belongs to pipeline ${loaded.job.pipeline.id}, not ${id.pipelineId}`,
      );
    }
    // Prefer GitLab's names; keep the caller's when GitLab could not be asked.
    if (!loaded.job) {
      loaded.context.jobName = id.jobName ?? loaded.context.jobName;
      loaded.context.stage = id.stage ?? loaded.context.stage;
    }
    return loaded;
  }

  async function readLog(id: JobIdentity, given: string | undefined): Promise<string> {
    const raw = given ?? (await deps.gitlab.getJobTrace(id.projectId, id.jobId));
    if (raw.trim() === '') {
      throw new AppError(
        'bad_request',
        `Job ${id.jobId} has no log to analyse (it may not have started, or its log was erased)`,
      );
    }
    return raw;
  }

  async function runAnalysis(
    input: AnalyseInput,
    onDelta: ((t: string) => void) | undefined,
  ): Promise<AnalyseResponse> {
    const { context } = await jobContext(input, input.log !== undefined);
    const distilled = distillLog(await readLog(input, input.log), { budgetChars });
    const provider = await currentProvider();
    const { text, fallback } = await ask(
      provider,
      {
        system: systemPrompt(),
        messages: analysisMessages(context, distilled),
        offlineAnswer: () => analyseOffline(distilled, context),
      },
      onDelta,
    );
    const timestamp = now();
    store.saveAnalysis({
      projectId: input.projectId,
      pipelineId: context.pipelineId,
      jobId: input.jobId,
      jobName: context.jobName,
      stage: context.stage,
      projectName: context.projectName,
      analysis: text,
      provider: fallback ? 'offline' : provider.name,
      model: fallback ? '' : provider.model,
      isFallback: fallback,
      distilledLog: distilled.text,
      contextJson: JSON.stringify(context),
      timestamp,
    });
    return { analysis: text, cached: false, timestamp };
  }

  // A fallback answer is kept (it is useful and says what it is) but does not count as cached
  // while a real provider is configured: the next request tries the provider again.
  const usableCache = (c: { isFallback: boolean } | undefined) =>
    c !== undefined && !(c.isFallback && settings.provider !== 'offline');

  const parseContext = (json: string | null): JobContext | undefined => {
    if (!json) return undefined;
    try {
      return JSON.parse(json) as JobContext;
    } catch {
      return undefined;
    }
  };

  async function runFollowup(
    input: FollowupInput,
    onDelta: ((t: string) => void) | undefined,
  ): Promise<FollowupResponse> {
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
      distilled = distillLog(await readLog(input, undefined), { budgetChars });
    }
    if (!context) context = (await jobContext(input, true)).context;
    const provider = await currentProvider();
    const { text, fallback } = await ask(
      provider,
      {
        system: systemPrompt(),
        messages: followupMessages(
          context,
          distilled,
          previous,
          cached?.conversation ?? [],
          input.question,
        ),
        offlineAnswer: () =>
          answerOffline({ question: input.question, distilled, context, analysis: previous }),
      },
      onDelta,
    );
    const timestamp = now();
    store.appendFollowup(
      input.projectId,
      input.jobId,
      {
        question: input.question,
        answer: text,
        timestamp,
        provider: fallback ? 'offline' : provider.name,
        isFallback: fallback,
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
    return { answer: text, timestamp };
  }

  async function runPipelineAnalysis(
    input: PipelineAnalyseInput,
    onDelta: ((t: string) => void) | undefined,
  ): Promise<PipelineAnalysisResponse> {
    const pipeline = await deps.gitlab.getPipeline(input.projectId, input.pipelineId);
    const jobs = await deps.gitlab.listPipelineJobs(input.projectId, input.pipelineId);
    // A retried job appears twice; only its latest attempt counts.
    const latest = new Map<string, GitLabJob>();
    for (const j of jobs) {
      const seen = latest.get(j.name);
      if (!seen || j.id > seen.id) latest.set(j.name, j);
    }
    const failed = [...latest.values()]
      .filter((j) => j.status === 'failed')
      .sort((a, b) => a.id - b.id);
    const chosen = failed.slice(0, MAX_PIPELINE_JOBS);
    const perJobBudget = Math.max(
      3000,
      Math.floor(budgetChars / Math.max(1, Math.min(chosen.length, 6))),
    );
    const projectName = nameOf(input.projectId);
    const findings: JobFinding[] = [];
    // Three logs at a time: bounded load on GitLab, still quick for a dozen jobs.
    for (let i = 0; i < chosen.length; i += 3) {
      const batch = await Promise.all(
        chosen.slice(i, i + 3).map(async (job) => {
          const raw = await deps.gitlab
            .getJobTrace(input.projectId, job.id)
            .catch((err: unknown) => {
              logger.warn({ err, jobId: job.id }, 'job log unavailable for pipeline analysis');
              return '';
            });
          const distilled = distillLog(raw, { budgetChars: perJobBudget });
          const context = contextFromJob(job, input.projectId, projectName);
          context.source = pipeline.source;
          return { job, context, distilled, diagnosis: diagnose(distilled, context) };
        }),
      );
      findings.push(...batch);
    }
    const groups = groupFindings(findings);
    const offline = () => pipelineOfflineReport(pipeline, groups, failed.length - chosen.length);
    const timestamp = now();
    const jobsOut = groups.flatMap((g, i) =>
      g.jobs.map((f) => ({
        jobId: f.job.id,
        jobName: f.job.name,
        stage: f.job.stage,
        problem: i + 1,
      })),
    );
    if (chosen.length === 0) {
      const text = offline();
      onDelta?.(text);
      return { analysis: text, cached: false, timestamp, jobs: [] };
    }
    const provider = await currentProvider();
    const { text, fallback } = await ask(
      provider,
      {
        system: systemPrompt(),
        messages: pipelineMessages(pipeline, projectName, groups),
        offlineAnswer: offline,
      },
      onDelta,
    );
    store.savePipelineAnalysis({
      projectId: input.projectId,
      pipelineId: input.pipelineId,
      analysis: text,
      provider: fallback ? 'offline' : provider.name,
      model: fallback ? '' : provider.model,
      isFallback: fallback,
      jobsJson: JSON.stringify(jobsOut),
      timestamp,
    });
    return { analysis: text, cached: false, timestamp, jobs: jobsOut };
  }

  async function status(): Promise<ProviderStatus> {
    const s = settings;
    const key = await resolveKey(s.provider);
    return {
      provider: s.provider,
      model: s.provider === 'offline' ? '' : (s.model ?? DEFAULTS[s.provider].model),
      baseUrl: s.provider === 'offline' ? '' : (s.baseUrl ?? DEFAULTS[s.provider].baseUrl),
      apiKeySet: key.key !== undefined,
      apiKeySource: key.source,
      secretStore: deps.secretStore?.backend ?? null,
      pinnedByEnvironment: pinned,
      fallbackToOffline: config.fallbackToOffline !== false,
      providers: PROVIDER_NAMES,
    };
  }

  return {
    async analyse(input, options = {}) {
      if (!input.force) {
        const cached = store.get(input.projectId, input.jobId);
        if (cached && usableCache(cached)) {
          if (cached.pipelineId !== input.pipelineId) {
            throw new AppError(
              'bad_request',
              `Job ${input.jobId} belongs to pipeline ${cached.pipelineId}, not ${input.pipelineId}`,
            );
          }
          options.onDelta?.(cached.analysis);
          return { analysis: cached.analysis, cached: true, timestamp: cached.timestamp };
        }
      }
      return shared(
        `job:${input.projectId}:${input.jobId}`,
        (onDelta) => runAnalysis(input, onDelta),
        options,
      );
    },

    async followup(input, options = {}) {
      // Follow-ups on one job run one after another so the conversation keeps its order.
      const key = `${input.projectId}:${input.jobId}`;
      const previous = followupChains.get(key) ?? Promise.resolve();
      const run = previous.catch(() => {}).then(() => runFollowup(input, options.onDelta));
      followupChains.set(key, run);
      try {
        return await run;
      } finally {
        if (followupChains.get(key) === run) followupChains.delete(key);
      }
    },

    async analysePipeline(input, options = {}) {
      if (!input.force) {
        const cached = store.getPipelineAnalysis(input.projectId, input.pipelineId);
        if (cached && usableCache(cached)) {
          options.onDelta?.(cached.analysis);
          return {
            analysis: cached.analysis,
            cached: true,
            timestamp: cached.timestamp,
            jobs: JSON.parse(cached.jobsJson) as PipelineAnalysisResponse['jobs'],
          };
        }
      }
      return shared(
        `pipeline:${input.projectId}:${input.pipelineId}`,
        (onDelta) => runPipelineAnalysis(input, onDelta),
        options,
      );
    },

    analyzed(projectId) {
      return { projectId, analyzedJobIds: store.analyzedJobIds(projectId) };
    },

    getCached(projectId, jobId) {
      const c = store.get(projectId, jobId);
      if (!c) {
        throw new AppError(
          'not_found',
          `No cached analysis for job ${jobId} of project ${projectId}`,
        );
      }
      return {
        projectId: c.projectId,
        pipelineId: c.pipelineId,
        jobId: c.jobId,
        jobName: c.jobName,
        stage: c.stage,
        analysis: c.analysis,
        conversation: c.conversation,
        timestamp: c.timestamp,
      };
    },

    deleteCached(projectId, jobId) {
      return store.delete(projectId, jobId)
        ? { success: true, message: `Deleted the analysis of job ${jobId}` }
        : {
            success: false,
            message: `No cached analysis for job ${jobId} of project ${projectId}`,
          };
    },

    history(page, pageSize) {
      const size = Math.min(MAX_PAGE_SIZE, Math.max(1, pageSize));
      const current = Math.max(1, page);
      const { rows, totalCount } = store.history(current, size);
      return {
        analyses: rows.map((r) => ({ ...r, projectName: nameOf(r.projectId) || r.projectName })),
        pagination: {
          currentPage: current,
          pageSize: size,
          totalPages: Math.ceil(totalCount / size),
          totalCount,
        },
      };
    },

    getSystemPrompt() {
      const stored = store.getSetting(SETTING.systemPrompt);
      return { prompt: stored ?? DEFAULT_SYSTEM_PROMPT, isDefault: stored === undefined };
    },

    setSystemPrompt(prompt) {
      const trimmed = prompt.trim();
      if (trimmed === '') throw new AppError('bad_request', "Invalid 'prompt': must not be empty");
      if (trimmed.length > MAX_SYSTEM_PROMPT_CHARS) {
        throw new AppError(
          'bad_request',
          `Invalid 'prompt': longer than ${MAX_SYSTEM_PROMPT_CHARS} characters`,
        );
      }
      store.setSettings({ [SETTING.systemPrompt]: trimmed });
      return { success: true, prompt: trimmed };
    },

    resetSystemPrompt() {
      store.setSettings({ [SETTING.systemPrompt]: undefined });
      return { success: true, prompt: DEFAULT_SYSTEM_PROMPT };
    },

    providerStatus: status,

    async updateProvider(update) {
      const provider = update.provider ?? settings.provider;
      const changed = provider !== settings.provider;
      const next: ProviderSettings = {
        provider,
        // Another provider's model and URL make no sense for this one.
        model:
          update.model !== undefined
            ? update.model.trim() || undefined
            : changed
              ? undefined
              : settings.model,
        baseUrl:
          update.baseUrl !== undefined
            ? update.baseUrl.trim() === ''
              ? undefined
              : normaliseBaseUrl(update.baseUrl)
            : changed
              ? undefined
              : settings.baseUrl,
      };
      if (update.apiKey !== undefined && provider !== 'offline') {
        const account = SECRET_ACCOUNTS.aiApiKey(provider);
        if (update.apiKey === null || update.apiKey === '') {
          memoryKeys.delete(provider);
          if (deps.secretStore) await deps.secretStore.delete(account);
        } else if (deps.secretStore) {
          await deps.secretStore.set(account, update.apiKey);
          memoryKeys.delete(provider);
        } else {
          memoryKeys.set(provider, update.apiKey);
        }
        // A key chosen in the dashboard replaces the environment's.
        if (provider === config.provider) envKeyApplies = false;
      }
      store.setSettings({
        [SETTING.provider]: next.provider,
        [SETTING.model]: next.model,
        [SETTING.baseUrl]: next.baseUrl,
      });
      settings = next;
      logger.info(
        { provider: next.provider, model: next.model, baseUrl: next.baseUrl },
        'AI provider settings changed',
      );
      return status();
    },

    close() {
      if (ownsStore) store.close();
    },
  };
}
