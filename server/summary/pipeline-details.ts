import { failingJob, type PipelineDetails } from '../contract.ts';
import { isAppError } from '../platform/errors.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { toPipelineDetails } from '../gitlab/convert.ts';
import { FINISHED_STATUSES } from './model.ts';

/**
 * Pipeline details with jobs, user and commit. Finished pipelines do not change unless retried, so
 * their details are kept in a small LRU and served without asking GitLab again.
 */
export class PipelineDetailsService {
  private readonly cache = new Map<string, PipelineDetails>();

  constructor(
    private readonly gitlab: GitLabApi,
    private readonly projectName: (projectId: number) => string | undefined = () => undefined,
    private readonly maxEntries = 200,
  ) {}

  /** Fetches (or recalls) one pipeline's details. Unknown project or pipeline → not_found. */
  async get(projectId: number, pipelineId: number): Promise<PipelineDetails> {
    const key = `${projectId}:${pipelineId}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const [pipeline, jobs] = await Promise.all([
      this.gitlab.getPipeline(projectId, pipelineId),
      this.gitlab.listPipelineJobs(projectId, pipelineId),
    ]);
    // Jobs carry the commit; ask GitLab only when the pipeline has no jobs (e.g. a yaml error).
    const commit =
      jobs.find((j) => j.commit)?.commit ??
      (await this.gitlab.getCommit(projectId, pipeline.sha).catch((err: unknown) => {
        if (isAppError(err, 'not_found')) return null;
        throw err;
      }));
    const converted = toPipelineDetails(pipeline, jobs, commit, this.projectName(projectId));
    const details = { ...converted, failing_job_id: failingJob(converted.jobs)?.id ?? null };
    if (
      FINISHED_STATUSES.has(details.status) &&
      details.jobs.every((j) => FINISHED_STATUSES.has(j.status) || j.status === 'manual')
    ) {
      this.cache.set(key, details);
      if (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    }
    return details;
  }
}
