import { mergeRequestIid } from '../history/model.ts';
import type { FailedJob, FailureEntry, FailuresResponse } from './contract.ts';
import { inRateScope, type RateScope } from './default-branch.ts';
import type { FlakeIndex } from './flaky-jobs.ts';
import type { HealthIndex } from './health-index.ts';

/** Which failures to list; every field optional but the page. */
export interface FailureFilter {
  projectId?: number;
  /** A branch or tag name, a full ref, or `!439` for a merge request's pipelines. */
  ref?: string;
  source?: string;
  /** Only the pipelines a success rate of group health counts (its "N failed" link). */
  scope?: RateScope;
  /** Pipelines triggered by this GitLab username (the route resolves `mine`). */
  username?: string;
  /** Only likely-noise failures (true) or only real ones (false). */
  flaky?: boolean;
  /** Narrower than the window, e.g. one bar of the overview chart (epoch ms, [from, to)). */
  from?: number;
  to?: number;
  page: number;
  pageSize: number;
}

function matchesRef(ref: string, wanted: string): boolean {
  if (ref === wanted) return true;
  const iid = mergeRequestIid(ref);
  return iid !== null && wanted === `!${iid}`;
}

/**
 * Every failed pipeline in the window (not only each project's newest), newest first, filtered and
 * paged. Each lists its failed jobs (final attempts; retried ones are history) with a flaky mark;
 * a failure is `flaky` when every blocking failed job is a job that flaked in the window.
 */
export function listFailures(
  index: HealthIndex,
  flakes: FlakeIndex,
  filter: FailureFilter,
): FailuresResponse {
  const from = Math.max(index.from, filter.from ?? -Infinity);
  const to = filter.to ?? Infinity;
  const matched: FailureEntry[] = [];
  for (const [projectId, pipelines] of index.pipelinesByProject) {
    if (filter.projectId !== undefined && projectId !== filter.projectId) continue;
    for (const p of pipelines) {
      if (p.status !== 'failed' || p.createdAt < from || p.createdAt >= to) continue;
      if (filter.ref !== undefined && !matchesRef(p.ref, filter.ref)) continue;
      if (filter.source !== undefined && p.source !== filter.source) continue;
      if (filter.scope !== undefined && !inRateScope(p, filter.scope)) continue;
      if (filter.username !== undefined && p.user?.username !== filter.username) continue;
      const failedJobs: FailedJob[] = (index.jobsByPipeline.get(p.pipelineId) ?? [])
        .filter((j) => j.status === 'failed' && !j.retried)
        .sort((a, b) => a.jobId - b.jobId)
        .map((j) => ({
          job_id: j.jobId,
          name: j.name,
          stage: j.stage,
          failure_reason: j.failureReason,
          allow_failure: j.allowFailure,
          flaky: flakes.isFlaky(projectId, j.name),
          passed_on_same_commit: flakes.flakedOn(projectId, j.name, p.sha),
          web_url: j.webUrl,
        }));
      const blocking = failedJobs.filter((j) => !j.allow_failure);
      const flaky = blocking.length > 0 && blocking.every((j) => j.flaky);
      if (filter.flaky !== undefined && flaky !== filter.flaky) continue;
      matched.push({
        project_id: projectId,
        project_name: index.projectName(projectId),
        default_branch: p.defaultBranch,
        pipeline: index.toHealthPipeline(p),
        failed_jobs: failedJobs,
        flaky,
      });
    }
  }
  matched.sort(
    (a, b) =>
      Date.parse(b.pipeline.created_at) - Date.parse(a.pipeline.created_at) ||
      b.pipeline.pipeline_id - a.pipeline.pipeline_id,
  );
  const totalPages = Math.max(1, Math.ceil(matched.length / filter.pageSize));
  const start = (filter.page - 1) * filter.pageSize;
  return {
    window: index.window,
    failures: matched.slice(start, start + filter.pageSize),
    pagination: {
      currentPage: filter.page,
      pageSize: filter.pageSize,
      totalPages,
      totalCount: matched.length,
    },
  };
}
