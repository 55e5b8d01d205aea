import type { GitLabSimulator } from '../index.ts';
import type { FailureKind } from '../model.ts';
import { simJson } from './http.ts';

/** A failed job a test planted, by its ids. */
export interface PlantedJob {
  projectId: number;
  pipelineId: number;
  jobId: number;
}

/**
 * Fails a new default-branch pipeline of the project at `path` (e.g. `terraform-modules`, from 6
 * projects up) in its job `job`, with the log of `failure`, and names that job.
 */
export async function plantFailure(
  sim: GitLabSimulator,
  path: string,
  job: string,
  failure: FailureKind,
): Promise<PlantedJob> {
  const projects = await simJson<{ id: number; path: string; default_branch: string }[]>(
    sim,
    `/groups/${encodeURIComponent(sim.groupPath)}/projects?include_subgroups=true`,
  );
  const project = projects.find((p) => p.path === path);
  if (!project) throw new Error(`the simulator has no project ${path} (too few projects?)`);
  const run = sim.startPipeline(project.id, { ref: project.default_branch });
  sim.finishPipeline(run.projectId, run.pipelineId, 'failed', { job, failure });
  const jobs = await simJson<{ id: number; name: string; status: string }[]>(
    sim,
    `/projects/${run.projectId}/pipelines/${run.pipelineId}/jobs`,
  );
  const failed = jobs.find((j) => j.name === job && j.status === 'failed')!;
  return { ...run, jobId: failed.id };
}
