import type {
  HistorySnapshot,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from '../history/model.ts';
import { refLabel, type MergeRequestLookup } from '../summary/merge-request-ref.ts';
import type { HealthPipeline, HealthWindow } from './contract.ts';

/** What every health computation is given. */
export interface HealthInput {
  snapshot: HistorySnapshot;
  now: number;
  /** The window length (ms) and its `since` spelling. */
  windowMs: number;
  since: string;
  mergeRequests?: MergeRequestLookup;
}

/**
 * Lookups built once per snapshot and shared by the health computations: projects by id, each
 * pipeline's jobs, and pipelines per project (oldest first, as the snapshot orders them).
 */
export class HealthIndex {
  readonly projects = new Map<number, ProjectHistoryRecord>();
  readonly jobsByPipeline: ReadonlyMap<number, readonly JobHistoryRecord[]>;
  readonly pipelinesByProject = new Map<number, PipelineHistoryRecord[]>();
  readonly from: number;
  readonly window: HealthWindow;

  constructor(readonly input: HealthInput) {
    const { snapshot } = input;
    for (const p of snapshot.projects) {
      this.projects.set(p.id, p);
      this.pipelinesByProject.set(p.id, []);
    }
    for (const p of snapshot.pipelines) {
      // Pipelines of projects no longer watched stay on disk but leave every view.
      const list = this.pipelinesByProject.get(p.projectId);
      if (!list) continue;
      list.push(p);
    }
    this.jobsByPipeline = snapshot.jobs;
    this.from = input.now - input.windowMs;
    this.window = {
      since: input.since,
      from: new Date(this.from).toISOString(),
      to: new Date(input.now).toISOString(),
    };
  }

  /** The project's name, or its id in words when unknown. */
  projectName(projectId: number): string {
    return this.projects.get(projectId)?.name ?? `project ${projectId}`;
  }

  /** A pipeline in the API's shape, MR pipelines labelled `!iid` with title and link. */
  toHealthPipeline(p: PipelineHistoryRecord): HealthPipeline {
    const project = this.projects.get(p.projectId);
    return {
      pipeline_id: p.pipelineId,
      project_id: p.projectId,
      status: p.status,
      ref: p.ref,
      ...refLabel(p.projectId, p.ref, project?.webUrl, this.input.mergeRequests),
      source: p.source,
      sha: p.sha,
      short_sha: p.sha.slice(0, 8),
      commit_title: p.commitTitle,
      commit_author: p.commitAuthor,
      user: p.user
        ? { username: p.user.username, name: p.user.name, avatar_url: p.user.avatarUrl }
        : null,
      created_at: new Date(p.createdAt).toISOString(),
      finished_at: p.finishedAt === null ? null : new Date(p.finishedAt).toISOString(),
      duration: p.duration,
      web_url: p.webUrl,
    };
  }
}
