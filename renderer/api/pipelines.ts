import type { ActivityResponse, PipelineDetails } from '../../server/contract.ts';
import { isActive } from '../lib/format.ts';
import { api } from './client.ts';

const finished = new Map<string, Promise<PipelineDetails>>();

/**
 * Pipeline details. Finished pipelines never change, so their details are fetched once per window
 * (the overview's failure list and the panel share them); active ones are always fetched fresh.
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

/** The job a user most likely wants when a pipeline failed: the first failed job not allowed to fail. */
export function failingJob(details: PipelineDetails) {
  const failed = details.jobs.filter((j) => j.status === 'failed');
  return (
    failed.filter((j) => !j.allow_failure).sort((a, b) => a.id - b.id)[0] ??
    failed.sort((a, b) => a.id - b.id)[0] ??
    null
  );
}

/** Timeline buckets and contributors over every pipeline in the window. */
export function getActivity(signal?: AbortSignal): Promise<ActivityResponse> {
  return api.get<ActivityResponse>('/pipelines/activity', undefined, signal);
}
