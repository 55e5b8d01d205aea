import type { FailureSignaturesResponse, MyMergeRequestsResponse } from '../../server/contract.ts';
import { api } from './client.ts';

/** GET /api/failures/signatures: the same error across projects, most widespread first. */
export function getFailureSignatures(
  since?: string,
  signal?: AbortSignal,
): Promise<FailureSignaturesResponse> {
  return api.get('/failures/signatures', since ? { since } : undefined, signal);
}

/** GET /api/triage/mine: the token user's open merge requests with a verdict per failure. */
export function getMyMergeRequests(signal?: AbortSignal): Promise<MyMergeRequestsResponse> {
  return api.get('/triage/mine', undefined, signal);
}
