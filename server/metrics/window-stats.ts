/**
 * What the gauges and summaries of /metrics say about the summary window, computed from group
 * health's view of the pipeline history (the same pipelines the dashboard counts). Labels are project
 * paths and fixed words only, never pipeline or job ids: each label value is a time series
 * (prometheus.io/docs/practices/naming, "Labels": no "unbounded sets of values").
 */
import { GITLAB_PIPELINE_STATUSES } from '../gitlab/wire.ts';
import type { DefaultBranchState } from '../group-health/contract.ts';
import type { GroupHealth } from '../group-health/group-health.ts';

// GitLab's pipeline statuses; anything else a GitLab might send counts as `other`, so a new or
// malformed status cannot add series without bound.
const KNOWN_STATUS: ReadonlySet<string> = new Set(GITLAB_PIPELINE_STATUSES);

/** The window's numbers, by project path. */
export interface WindowStats {
  /** Pipelines created in the window, by project and status (every known status, zeros included). */
  pipelines: Map<string, Map<string, number>>;
  /** Durations (s) of the window's finished (success or failed) pipelines, by project. */
  pipelineDurations: Map<string, number[]>;
  /** Durations (s) of every finished attempt of those pipelines' jobs, by project. */
  jobDurations: Map<string, number[]>;
  /** Each project's default-branch state (group health's rule). */
  defaultBranches: { project: string; state: DefaultBranchState }[];
  /** Job names that flaked in the window, and their flakes, by project. */
  flakes: Map<string, { jobs: number; flakes: number }>;
}

const isFinished = (status: string) => status === 'success' || status === 'failed';

/** The window's numbers from one group-health computation. */
export function windowStats(health: GroupHealth): WindowStats {
  const { index } = health;
  const pathOf = (projectId: number) => index.projects.get(projectId)?.path;
  const stats: WindowStats = {
    pipelines: new Map(),
    pipelineDurations: new Map(),
    jobDurations: new Map(),
    defaultBranches: health.defaultBranches.projects.map((p) => ({
      project: p.project_path,
      state: p.state,
    })),
    flakes: new Map(),
  };
  for (const [projectId, pipelines] of index.pipelinesByProject) {
    const path = pathOf(projectId)!;
    const byStatus = new Map<string, number>(GITLAB_PIPELINE_STATUSES.map((s) => [s, 0]));
    byStatus.set('other', 0);
    const pipelineDurations: number[] = [];
    const jobDurations: number[] = [];
    for (const p of pipelines) {
      if (p.createdAt < index.from) continue;
      const status = KNOWN_STATUS.has(p.status) ? p.status : 'other';
      byStatus.set(status, byStatus.get(status)! + 1);
      if (!isFinished(p.status)) continue;
      if (p.duration !== null) pipelineDurations.push(p.duration);
      for (const job of index.jobsByPipeline.get(p.pipelineId) ?? []) {
        if (isFinished(job.status) && job.duration !== null) jobDurations.push(job.duration);
      }
    }
    stats.pipelines.set(path, byStatus);
    stats.pipelineDurations.set(path, pipelineDurations);
    stats.jobDurations.set(path, jobDurations);
    stats.flakes.set(path, { jobs: 0, flakes: 0 });
  }
  for (const job of health.flakyJobs.jobs) {
    for (const { project_id, flakes } of job.projects) {
      const entry = stats.flakes.get(pathOf(project_id) ?? '');
      if (!entry) continue;
      entry.jobs++;
      entry.flakes += flakes;
    }
  }
  return stats;
}
