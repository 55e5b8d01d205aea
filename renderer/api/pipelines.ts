import type { PipelineDetails } from '../../server/contract.ts';
import { isActive } from '../lib/format.ts';
import { api } from './client.ts';

const finished = new Map<string, Promise<PipelineDetails>>();

/**
 * Pipeline details. Finished pipelines never change, so their details are fetched once per window
 * (reopening a panel costs nothing); active ones are always fetched fresh.
 */
export function getPipelineDetails(
  projectId: number,
  pipelineId: number,
  signal?: AbortSignal,
): Promise<PipelineDetails> {
  const key = `${projectId}/${pipelineId}`;
  const cached = finished.get(key);
  if (cached) return cached;
  const request = api.get<PipelineDetails>(
    `/pipelines/${projectId}/details/${pipelineId}`,
    undefined,
    signal,
  );
  request.then(
    (d) => {
      if (!isActive(d.status)) finished.set(key, Promise.resolve(d));
    },
    () => undefined,
  );
  return request;
}
