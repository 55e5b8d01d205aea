import type {
  DefaultBranchesResponse,
  FailuresResponse,
  FlakyJobsResponse,
  RegressionsResponse,
  TrendsResponse,
} from '../../server/contract.ts';
import { api } from './client.ts';

/** Filters of the failures view, as they appear in its URL. */
export interface FailuresQuery {
  projectId?: number;
  ref?: string;
  source?: string;
  /** Only the pipelines a group-health success rate counts (its "N failed" links here). */
  scope?: 'default_branch' | 'merge_requests';
  user?: string;
  flaky?: 'true' | 'false';
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

/** GET /api/health/default-branches */
export function getDefaultBranches(signal?: AbortSignal): Promise<DefaultBranchesResponse> {
  return api.get('/health/default-branches', undefined, signal);
}

/** GET /api/health/flaky-jobs */
export function getFlakyJobs(signal?: AbortSignal): Promise<FlakyJobsResponse> {
  return api.get('/health/flaky-jobs', undefined, signal);
}

/** GET /api/health/regressions */
export function getRegressions(signal?: AbortSignal): Promise<RegressionsResponse> {
  return api.get('/health/regressions', undefined, signal);
}

/** GET /api/health/trends?projectId= */
export function getTrends(
  projectId: number,
  days: number,
  signal?: AbortSignal,
): Promise<TrendsResponse> {
  return api.get('/health/trends', { projectId, days }, signal);
}

/** GET /api/pipelines/failures */
export function getFailures(query: FailuresQuery, signal?: AbortSignal): Promise<FailuresResponse> {
  return api.get('/pipelines/failures', { ...query }, signal);
}

/** The dashboard URL of the failures view with these filters (chart bars link here). */
export function failuresPath(query: FailuresQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return `/failures${qs ? `?${qs}` : ''}`;
}
