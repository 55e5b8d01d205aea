import type {
  AnalyseResponse,
  AnalyzedJobsResponse,
  CachedAnalysis,
  DeleteAnalysisResponse,
  FollowupResponse,
  HistoryResponse,
  JobDetails,
  PipelineAnalysisResponse,
  ProviderStatus,
  ProviderUpdateRequest,
} from '../../server/contract.ts';
import { ApiError, api, apiUrl } from './client.ts';
import { readSse } from './sse-reader.ts';

/** What identifies a job for the AI routes. */
export interface AiJobRef {
  projectId: number;
  pipelineId: number;
  job: Pick<JobDetails, 'id' | 'name' | 'stage'>;
}

function body(ref: AiJobRef) {
  return {
    projectId: ref.projectId,
    pipelineId: ref.pipelineId,
    jobId: ref.job.id,
    jobName: ref.job.name,
    stage: ref.job.stage,
  };
}

/**
 * The cached analysis of a job, or null when it was never analysed. The project's list of analysed
 * jobs is asked first, so a job without an analysis costs no 404 (and no red line in the console).
 */
export async function getCachedAnalysis(
  projectId: number,
  jobId: number,
  signal?: AbortSignal,
): Promise<CachedAnalysis | null> {
  const { analyzedJobIds } = await api.get<AnalyzedJobsResponse>(
    '/ai/analyzed',
    { projectId },
    signal,
  );
  if (!analyzedJobIds.includes(jobId)) return null;
  try {
    return await api.get<CachedAnalysis>('/ai/cache', { projectId, jobId }, signal);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * POSTs with `stream: true` and reads the SSE answer: `delta` pieces go to `onDelta` as they arrive,
 * the `done` event is the authoritative result, an `error` event throws its message. A service that
 * answers plain JSON (no streaming) works too.
 */
export async function postStreaming<T>(
  path: string,
  payload: object,
  onDelta: (textSoFar: string) => void,
  signal?: AbortSignal,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream, application/json',
      },
      body: JSON.stringify({ ...payload, stream: true }),
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError('Cannot reach the Pipeline Summary service. Is it running?', 0);
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || !type.includes('text/event-stream') || !res.body) {
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const message = (json as { error?: unknown })?.error;
      throw new ApiError(
        typeof message === 'string' ? message : `The service answered ${res.status}`,
        res.status,
      );
    }
    return json as T;
  }
  let text = '';
  let result: T | undefined;
  let failure: ApiError | undefined;
  await readSse(res.body, (e) => {
    const data = JSON.parse(e.data) as Record<string, unknown>;
    if (e.event === 'delta' && typeof data.text === 'string') {
      text += data.text;
      onDelta(text);
    } else if (e.event === 'done') result = data as T;
    else if (e.event === 'error')
      failure = new ApiError(
        String(data.error ?? 'The analysis failed'),
        Number(data.statusCode ?? 500),
      );
  });
  if (failure) throw failure;
  if (result === undefined) throw new ApiError('The analysis stream ended without a result', 502);
  return result;
}

/** Asks for an analysis, streamed; `force` re-analyses even when one is cached. */
export function analyse(
  ref: AiJobRef,
  options: { force?: boolean; onDelta?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<AnalyseResponse> {
  return postStreaming<AnalyseResponse>(
    '/ai/analyse',
    { ...body(ref), ...(options.force ? { force: true } : {}) },
    options.onDelta ?? (() => undefined),
    options.signal,
  );
}

/** Asks a follow-up question about an analysis, streamed. */
export function followUp(
  ref: AiJobRef,
  question: string,
  previousAnalysis: string,
  options: { onDelta?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<FollowupResponse> {
  return postStreaming<FollowupResponse>(
    '/ai/followup',
    { ...body(ref), question, previousAnalysis },
    options.onDelta ?? (() => undefined),
    options.signal,
  );
}

/** Analyses every failed job of a pipeline together, streamed. */
export function analysePipeline(
  projectId: number,
  pipelineId: number,
  options: { force?: boolean; onDelta?: (text: string) => void; signal?: AbortSignal } = {},
): Promise<PipelineAnalysisResponse> {
  return postStreaming<PipelineAnalysisResponse>(
    '/ai/analyse-pipeline',
    { projectId, pipelineId, ...(options.force ? { force: true } : {}) },
    options.onDelta ?? (() => undefined),
    options.signal,
  );
}

/**
 * Deletes a job's cached analysis and its conversation. Already gone (another window deleted it:
 * the service answers 404) is what the user asked for, so it resolves like a deletion.
 */
export async function deleteAnalysis(
  projectId: number,
  jobId: number,
): Promise<DeleteAnalysisResponse> {
  try {
    return await api.request<DeleteAnalysisResponse>('/ai/cache', {
      method: 'DELETE',
      query: { projectId, jobId },
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404)
      return { success: true, message: err.message };
    throw err;
  }
}

/** One page of past analyses. */
export function getHistory(
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  return api.get<HistoryResponse>('/ai/history', { page, pageSize }, signal);
}

/** The provider's status as the service reports it, or null when the route does not exist. */
export async function getProviderStatus(signal?: AbortSignal): Promise<ProviderStatus | null> {
  try {
    return await api.get<ProviderStatus>('/ai/provider', undefined, signal);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Changes the AI provider settings; answers the new status. */
export function updateProvider(update: ProviderUpdateRequest): Promise<ProviderStatus> {
  return api.request<ProviderStatus>('/ai/provider', { method: 'PUT', body: update });
}
