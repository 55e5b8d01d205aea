import type { FailureSignaturesResponse } from '../../server/contract.ts';
import { api } from './client.ts';

/** GET /api/failures/signatures: the same error across projects, most widespread first. */
export function getFailureSignatures(
  since?: string,
  signal?: AbortSignal,
): Promise<FailureSignaturesResponse> {
  return api.get('/failures/signatures', since ? { since } : undefined, signal);
}
