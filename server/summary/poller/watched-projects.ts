import { isSettledStatus } from '../../gitlab/pipeline-status.ts';
import type { PipelineRecord, Project } from '../model.ts';

/** One watched project: its pipelines in the window and where its next read starts. */
export interface ProjectState {
  project: Project;
  pipelines: Map<number, PipelineRecord>;
  /** `updated_after` for the next list request (ISO), from the newest updated_at seen. */
  cursor: string | null;
  /** False until a list of this project's window succeeded: its first changes are the baseline. */
  listed?: boolean;
}

/**
 * The group's watched projects and their pipelines in the window: the state the poller's stages
 * read and update. Also remembers which projects the token cannot read (left out of the summary
 * until the next project refresh) and which hit a list cap (said in `status.last_error`).
 */
export class WatchedProjects {
  private states = new Map<number, ProjectState>();
  /** Projects whose pipelines the token cannot read; retried at the next project refresh. */
  private readonly inaccessible = new Set<number>();
  /** Projects whose last read hit a list cap, with the message for `status.last_error`. */
  private readonly capped = new Map<number, string>();

  /** A project's state, if watched. */
  get(projectId: number): ProjectState | undefined {
    return this.states.get(projectId);
  }

  /** A pipeline in the window, if known. */
  pipeline(projectId: number, pipelineId: number): PipelineRecord | undefined {
    return this.states.get(projectId)?.pipelines.get(pipelineId);
  }

  /** Drops one pipeline (GitLab answered 404 for it); false when it was not held. */
  forget(projectId: number, pipelineId: number): boolean {
    return this.states.get(projectId)?.pipelines.delete(pipelineId) ?? false;
  }

  /** Every watched project, readable or not. */
  all(): ProjectState[] {
    return [...this.states.values()];
  }

  /** The projects whose pipelines the token can read: the ones a cycle reads and the summary lists. */
  readable(): ProjectState[] {
    return [...this.states.values()].filter((s) => !this.inaccessible.has(s.project.id));
  }

  /** Every pipeline held, project by project. */
  *pipelines(): Generator<PipelineRecord> {
    for (const state of this.states.values()) yield* state.pipelines.values();
  }

  /** True while any pipeline held may still change on its own (the loop's fast cadence). */
  anyUnsettled(): boolean {
    for (const p of this.pipelines()) if (!isSettledStatus(p.status)) return true;
    return false;
  }

  /**
   * Takes a fresh project list: projects still there keep their pipelines and cursors, gone ones
   * leave, and every project is readable again until a read says otherwise.
   */
  replaceProjects(projects: readonly Project[]): void {
    const next = new Map<number, ProjectState>();
    for (const project of projects) {
      const existing = this.states.get(project.id);
      next.set(
        project.id,
        existing ? { ...existing, project } : { project, pipelines: new Map(), cursor: null },
      );
    }
    this.states = next;
    this.inaccessible.clear();
    this.capped.clear();
  }

  /**
   * Takes the last known projects and pipelines (a warm start); pipelines of unknown projects or
   * created before `cutoff` are left out. Cursors start empty (see `resumeCursors`).
   */
  restore(
    projects: readonly Project[],
    pipelines: readonly PipelineRecord[],
    cutoff: number,
  ): void {
    const next = new Map<number, ProjectState>();
    for (const project of projects)
      next.set(project.id, { project, pipelines: new Map(), cursor: null });
    for (const p of pipelines) {
      const state = next.get(p.projectId);
      if (state && p.createdAt >= cutoff) state.pipelines.set(p.id, p);
    }
    this.states = next;
  }

  /**
   * Leaves a project out until the next project refresh: its pipelines may not be read by this
   * token (403) or it vanished since the project list (404).
   */
  markInaccessible(state: ProjectState): void {
    this.inaccessible.add(state.project.id);
    state.pipelines.clear();
    state.listed = false;
  }

  /** A read of the project stopped at a list cap; `message` says so in the status. */
  capReached(projectId: number, message: string): void {
    this.capped.set(projectId, message);
  }

  /** The first list-cap message of the last reads, or null. */
  get capMessage(): string | null {
    return this.capped.values().next().value ?? null;
  }

  /** Forgets the list-cap messages (new settings). */
  clearCaps(): void {
    this.capped.clear();
  }

  /** Re-reads every project's window from scratch next (a new window); pipelines are kept. */
  forgetCursors(): void {
    for (const state of this.states.values()) {
      state.cursor = null;
      state.listed = false;
    }
  }

  /** Drops every project (a new group). */
  clear(): void {
    this.states = new Map();
  }

  /** Drops the pipelines of `states` created before `cutoff` (aged out of the window). */
  dropOlderThan(states: readonly ProjectState[], cutoff: number): void {
    for (const state of states)
      for (const [id, p] of state.pipelines) if (p.createdAt < cutoff) state.pipelines.delete(id);
  }
}
