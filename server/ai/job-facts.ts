// Gathers what GitLab can tell about a failed job beyond its log, best effort: its other attempts
// in the pipeline and whether the files its log names exist at the failing commit.
import type { GitLabApi } from '../gitlab/api.ts';
import type { Logger } from '../platform/logger.ts';
import type { DistilledLog } from './distill/log-distiller.ts';
import { loadJobAttempts } from './job-attempts.ts';
import type { JobContext } from './job-context.ts';
import { diagnose } from './offline/diagnosis.ts';
import { linkLocations, scopeOfJob, type FailureLocations } from './offline/linked-locations.ts';
import { RepositoryTrees } from './repository-trees.ts';

/** What fact gathering reads: GitLab's job lists and the repository trees (cached per commit). */
export interface FactReads {
  gitlab: Pick<GitLabApi, 'listPipelineJobs'>;
  repositoryTrees: RepositoryTrees | undefined;
  logger: Logger;
}

/** Repository trees read through the GitLab port, or undefined when it cannot list them. */
export function repositoryTreesOf(gitlab: GitLabApi): RepositoryTrees | undefined {
  const list = gitlab.listRepositoryTree?.bind(gitlab);
  return list
    ? new RepositoryTrees((projectId, sha, limit) => list(projectId, sha, { limit }))
    : undefined;
}

/** The failure's locations as repository paths, checked against the commit's files and linked. */
export async function locateFailure(
  trees: RepositoryTrees | undefined,
  context: JobContext,
  distilled: DistilledLog,
): Promise<FailureLocations | undefined> {
  const refs = diagnose(distilled, context).locations;
  if (refs.length === 0) return undefined;
  const scope = scopeOfJob(context.webUrl, context.commit?.sha);
  // Only a job GitLab described has a commit to read the tree at.
  const tree = trees && scope.sha ? await trees.get(context.projectId, scope.sha) : undefined;
  return linkLocations(refs, scope, tree);
}

/**
 * Adds the job's other attempts and its linked locations to the context. A failed read leaves the
 * field as it was: the analysis then says less, it does not fail.
 */
export async function gatherJobFacts(
  reads: FactReads,
  context: JobContext,
  distilled: DistilledLog,
): Promise<void> {
  // A job GitLab did not describe (the caller sent the log while GitLab was unreachable) has no
  // pipeline to list; the pipeline history may have named the attempts already.
  if (context.status !== undefined && context.attempts === undefined) {
    try {
      context.attempts = await loadJobAttempts(
        reads.gitlab,
        context.projectId,
        context.pipelineId,
        context,
      );
    } catch (err) {
      reads.logger.debug({ err, jobId: context.jobId }, 'other attempts of the job unavailable');
    }
  }
  const located = await locateFailure(reads.repositoryTrees, context, distilled);
  if (located) context.locations = located;
}
