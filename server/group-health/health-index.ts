import type {
  HistorySnapshot,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from '../history/model.ts';
import { mergeRequestIid } from '../history/model.ts';
import type { HealthPipeline, HealthWindow } from './contract.ts';

/** An MR's title and link, when the lookup cache has them. */
export interface MergeRequestInfo {
  title: string | null;
  webUrl: string;
}

/** Finds an MR's title and link (a cache in front of GitLab); undefined when not known yet. */
export type MergeRequestLookup = (projectId: number, iid: number) => MergeRequestInfo | undefined;

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
    const iid = mergeRequestIid(p.ref);
    const project = this.projects.get(p.projectId);
    const known = iid === null ? undefined : this.input.mergeRequests?.(p.projectId, iid);
    return {
      pipeline_id: p.pipelineId,
      project_id: p.projectId,
      status: p.status,
      ref: p.ref,
      ref_label: iid === null ? p.ref : `!${iid}`,
      merge_request:
        iid === null
          ? null
          : {
              iid,
              title: known?.title ?? null,
              web_url: known?.webUrl ?? `${project?.webUrl ?? ''}/-/merge_requests/${iid}`,
            },
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
