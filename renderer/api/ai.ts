import type {
  AnalyseResponse,
  CachedAnalysis,
  FollowupResponse,
  HistoryResponse,
  JobDetails,
} from '../../server/contract.ts';
import { ApiError, api } from './client.ts';

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

/** The cached analysis of a job, or null when it was never analysed (404). */
export async function getCachedAnalysis(
  projectId: number,
  jobId: number,
  signal?: AbortSignal,
): Promise<CachedAnalysis | null> {
  try {
    return await api.get<CachedAnalysis>('/ai/cache', { projectId, jobId }, signal);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** Asks for an analysis (the service fetches and distils the log itself). */
export function analyse(ref: AiJobRef, signal?: AbortSignal): Promise<AnalyseResponse> {
  return api.post<AnalyseResponse>('/ai/analyse', body(ref), signal);
}

/** Asks a follow-up question about an analysis. */
export function followUp(
  ref: AiJobRef,
  question: string,
  previousAnalysis: string,
  signal?: AbortSignal,
): Promise<FollowupResponse> {
  return api.post<FollowupResponse>(
    '/ai/followup',
    { ...body(ref), question, previousAnalysis },
    signal,
  );
}

/** Deletes a job's cached analysis and its conversation. */
export function deleteAnalysis(
  projectId: number,
  jobId: number,
): Promise<{ success: boolean; message: string }> {
  return api.request('/ai/cache', { method: 'DELETE', query: { projectId, jobId } });
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
export async function getProviderStatus(
  signal?: AbortSignal,
): Promise<Record<string, unknown> | null> {
  try {
    return await api.get<Record<string, unknown>>('/ai/provider', undefined, signal);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
