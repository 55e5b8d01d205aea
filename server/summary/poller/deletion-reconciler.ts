import type { PipelineFeed } from '../pipeline-feed.ts';
import type { TellObserver } from './change-listeners.ts';
import type { ProjectState } from './watched-projects.ts';

/** What the deletion reconciler needs. */
export interface DeletionReconcilerDeps {
  feed: Pick<PipelineFeed, 'idsInWindow'>;
  tell: TellObserver;
  /** How often the window is compared with GitLab's. */
  intervalMs: number;
}

/**
 * Drops pipelines GitLab no longer has (deleted by a user or by its cleanup): an `updated_after`
 * read never sees a deletion, so every `intervalMs` each project's in-window pipeline ids are
 * compared with GitLab's. A project whose ids could not be read in full keeps what it has.
 */
export class DeletionReconciler {
  private reconciledAt = -Infinity;

  constructor(private readonly deps: DeletionReconcilerDeps) {}

  /** True when the last comparison is `intervalMs` old at `now`. */
  due(now: number): boolean {
    return now - this.reconciledAt >= this.deps.intervalMs;
  }

  /**
   * Counts the window as compared at `now` without asking GitLab: a first load has nothing to
   * reconcile, and a warm start reconciles at the regular interval, not with its first cycle.
   */
  skip(now: number): void {
    this.reconciledAt = now;
  }

  /** Compares at the next cycle (new settings). */
  reset(): void {
    this.reconciledAt = -Infinity;
  }

  /** Compares `states`' pipelines created since `cutoff` with GitLab's and drops the gone ones. */
  async reconcile(
    states: readonly ProjectState[],
    cutoff: number,
    now: number,
    signal: AbortSignal,
  ): Promise<void> {
    const present = await this.deps.feed.idsInWindow(
      states.map((s) => ({ projectId: s.project.id, fullPath: s.project.path, cursor: s.cursor })),
      new Date(cutoff).toISOString(),
      signal,
    );
    if (signal.aborted) return;
    for (const state of states) {
      const ids = present.get(state.project.id);
      if (!ids) continue; // not read in full: keep what we have rather than guess
      for (const id of state.pipelines.keys()) {
        if (ids.has(id)) continue;
        state.pipelines.delete(id);
        this.deps.tell((o) => o.pipelineDeleted?.(state.project.id, id));
      }
    }
    this.reconciledAt = now;
  }
}
