import { failingJob, type DownstreamFailure } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { PipelineReads } from '../gitlab/pipeline-reads.ts';
import { isFinishedStatus } from '../gitlab/pipeline-status.ts';
import type { GitLabBridge, GitLabJob } from '../gitlab/wire.ts';
import { isAppError } from '../platform/errors.ts';
import { latestAttempts, toDownstreamFailure, type DownstreamPipeline } from './from-gitlab.ts';

/** What the search reads GitLab with. */
export interface DownstreamFailureDeps {
  gitlab: Pick<GitLabApi, 'listPipelineJobs' | 'listPipelineBridges'>;
  /** Shared job reads: a finished downstream pipeline's jobs are read once for every reader. */
  reads?: Pick<PipelineReads, 'jobs'>;
}

/**
 * Downstream pipelines followed below the trigger job's own: GitLab lets child pipelines nest two
 * levels deep (doc/ci/pipelines/downstream_pipelines.md, "Nested child pipelines"), and a
 * multi-project chain is cut off here rather than followed without end.
 */
const MAX_DEPTH = 3;

/**
 * The trigger job that failed its pipeline: the first failed one (by id) not allowed to fail. A
 * trigger job fails with its downstream pipeline only with `trigger: strategy: depend` (gitlabhq
 * app/models/ci/bridge.rb `inherit_status_from_downstream!`), or when the downstream pipeline
 * could not be created at all.
 */
export function failedTrigger(bridges: readonly GitLabBridge[]): GitLabBridge | null {
  const failed = bridges
    .filter((b) => b.status === 'failed' && !b.allow_failure)
    .sort((a, b) => a.id - b.id);
  return failed[0] ?? null;
}

/** True when some job of `jobs` failed and was not allowed to: the pipeline failed there itself. */
export function hasBlockingFailure(jobs: readonly GitLabJob[]): boolean {
  return jobs.some((j) => j.status === 'failed' && !j.allow_failure);
}

/**
 * Where a pipeline failed below its failed trigger job: the downstream pipeline and its failing
 * job, following a downstream pipeline that failed only in its own trigger job one level deeper.
 * Null when no trigger job failed. Costs one jobs read per pipeline followed (shared and kept once
 * that pipeline finished) and one bridges read per level deeper; a pipeline GitLab will not show
 * (403, 404) ends the search there.
 */
export async function downstreamFailure(
  deps: DownstreamFailureDeps,
  projectId: number,
  bridges: readonly GitLabBridge[],
  signal?: AbortSignal,
): Promise<DownstreamFailure | null> {
  const trigger = failedTrigger(bridges);
  if (!trigger) return null;
  const found = await follow(deps, projectId, trigger, signal, 1);
  return toDownstreamFailure(trigger, found.pipeline, found.job);
}

interface Found {
  pipeline: DownstreamPipeline | null;
  job: GitLabJob | null;
}

async function follow(
  deps: DownstreamFailureDeps,
  parentProjectId: number,
  trigger: GitLabBridge,
  signal: AbortSignal | undefined,
  depth: number,
): Promise<Found> {
  const downstream = trigger.downstream_pipeline;
  if (!downstream) return { pipeline: null, job: null };
  // GitLab names every downstream pipeline's project; a child pipeline runs in its parent's.
  const pipeline = { ...downstream, project_id: downstream.project_id ?? parentProjectId };
  let jobs: GitLabJob[];
  try {
    jobs = latestAttempts(await readJobs(deps, pipeline, signal));
  } catch (err) {
    if (isAppError(err, 'not_found', 'forbidden')) return { pipeline, job: null };
    throw err;
  }
  const here = { pipeline, job: failingJob(jobs) };
  if (hasBlockingFailure(jobs) || depth >= MAX_DEPTH || !deps.gitlab.listPipelineBridges)
    return here;
  let deeper: GitLabBridge | null;
  try {
    deeper = failedTrigger(
      await deps.gitlab.listPipelineBridges(pipeline.project_id, pipeline.id, signal),
    );
  } catch (err) {
    if (isAppError(err, 'not_found', 'forbidden')) return here;
    throw err;
  }
  if (!deeper) return here;
  const below = await follow(deps, pipeline.project_id, deeper, signal, depth + 1);
  return below.pipeline ? below : here;
}

function readJobs(
  deps: DownstreamFailureDeps,
  pipeline: DownstreamPipeline,
  signal: AbortSignal | undefined,
): Promise<GitLabJob[]> {
  if (deps.reads && pipeline.updated_at && isFinishedStatus(pipeline.status))
    return deps.reads.jobs(pipeline.project_id, pipeline.id, pipeline.updated_at, signal);
  return deps.gitlab.listPipelineJobs(pipeline.project_id, pipeline.id, signal, {
    includeRetried: true,
  });
}
