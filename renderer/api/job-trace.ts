import type { JobTraceResponse } from '../../server/contract.ts';
import { api } from './client.ts';

const inFlight = new Map<string, Promise<JobTraceResponse>>();

/**
 * GET /api/jobtrace, shared while in flight: the pipeline panel asks as soon as the job is known
 * and the log viewer, mounting once the details have arrived, joins that request, so opening a
 * pipeline fetches its details and its log in parallel rather than one after the other.
 */
export function getJobTrace(projectId: number, jobId: number): Promise<JobTraceResponse> {
  const key = `${projectId}/${jobId}`;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const request = api.get<JobTraceResponse>('/jobtrace', { projectId, jobId });
  inFlight.set(key, request);
  const settle = () => inFlight.delete(key);
  request.then(settle, settle);
  return request;
}
