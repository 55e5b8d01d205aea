import type { PipelineReads } from '../../gitlab/pipeline-reads.ts';
import { sameUpdatedAt } from '../../gitlab/updated-at.ts';
import type { GitLabPipeline, GitLabPipelineListItem } from '../../gitlab/wire.ts';
import type { Logger } from '../../platform/logger.ts';
import { toPipelineRecord, withPipelineDetails } from '../from-gitlab.ts';
import type { PipelineFeed } from '../pipeline-feed.ts';
import type { PipelineChange, TellObserver } from './change-listeners.ts';
import type { ProjectState, WatchedProjects } from './watched-projects.ts';

/** Cursor overlap: GitLab timestamps have second precision; re-read that second and dedupe. */
const CURSOR_OVERLAP_MS = 1_000;

/** The cursor after pipelines updated up to `newestMs`: the overlap earlier. */
function cursorBefore(newestMs: number): string {
  return new Date(newestMs - CURSOR_OVERLAP_MS).toISOString();
}

/**
 * Sets each project's cursor from the newest `updated_at` it holds (a warm start): the next read
 * asks GitLab only for what changed since.
 */
export function resumeCursors(states: Iterable<ProjectState>): void {
  for (const state of states) {
    let newest: string | null = null;
    for (const p of state.pipelines.values())
      if (newest === null || p.updatedAt > newest) newest = p.updatedAt;
    state.cursor = newest === null ? null : cursorBefore(Date.parse(newest));
  }
}

/** What the cursor reads need. */
export interface CursorReadsDeps {
  feed: Pick<PipelineFeed, 'updates'>;
  watched: WatchedProjects;
  /** Told of details a list brought, so the next reader of that pipeline state needs no request. */
  reads: Pick<PipelineReads, 'remember'>;
  /** Takes details a list brought (GraphQL): told to the observer, or held until its jobs are read. */
  details: { arrived(state: ProjectState, detail: GitLabPipeline): void };
  tell: TellObserver;
  logger: Logger;
}

/**
 * Reads what changed in each project since its cursor (`updated_after`; GraphQL in bulk or REST per
 * project, as the feed decides) and applies it to the watched pipelines: new and changed pipelines
 * are recorded, status changes returned, and each cursor moved past the newest `updated_at` seen.
 */
export class CursorReads {
  constructor(private readonly deps: CursorReadsDeps) {}

  /** Applies what changed since each of `states`' cursors; returns the status changes seen. */
  async read(
    states: readonly ProjectState[],
    cutoff: number,
    signal: AbortSignal,
  ): Promise<PipelineChange[]> {
    const { watched } = this.deps;
    const byId = new Map(states.map((s) => [s.project.id, s]));
    const updates = await this.deps.feed.updates(
      states.map((s) => ({ projectId: s.project.id, fullPath: s.project.path, cursor: s.cursor })),
      new Date(cutoff).toISOString(),
      (projectId, pipelineId) => byId.get(projectId)?.pipelines.get(pipelineId),
      signal,
      (projectId, message) => watched.capReached(projectId, message),
    );
    const changes: PipelineChange[] = [];
    if (signal.aborted) return changes;
    for (const update of updates) {
      const state = byId.get(update.projectId);
      if (!state) continue;
      if (update.inaccessible) {
        // A project whose pipelines this token may not read (Guest access, CI disabled: 403) or
        // that vanished since the project list (404) is left out until the next project refresh,
        // instead of failing every cycle for the whole group.
        watched.markInaccessible(state);
        this.deps.logger.warn(
          { project: state.project.path, err: update.inaccessible.message },
          'skipping a project whose pipelines cannot be read',
        );
        continue;
      }
      this.apply(state, update.items, cutoff, changes);
    }
    return changes;
  }

  /** Applies one project's changed pipelines, adding its status changes to `changes`. */
  private apply(
    state: ProjectState,
    items: readonly { item: GitLabPipelineListItem; details: GitLabPipeline | null }[],
    cutoff: number,
    changes: PipelineChange[],
  ): void {
    const baseline = !state.listed;
    state.listed = true;
    let newest = state.cursor ? Date.parse(state.cursor) + CURSOR_OVERLAP_MS : -Infinity;
    const changed: GitLabPipelineListItem[] = [];
    const detailed: GitLabPipeline[] = [];
    for (const { item, details } of items) {
      newest = Math.max(newest, Date.parse(item.updated_at));
      if (Date.parse(item.created_at) < cutoff) continue;
      const previous = state.pipelines.get(item.id);
      // At whole seconds: the list may come over GraphQL and the details over REST (see updatedAtKey).
      if (
        previous &&
        sameUpdatedAt(previous.updatedAt, item.updated_at) &&
        previous.status === item.status
      )
        continue;
      const listed = toPipelineRecord(item, previous);
      // GraphQL carries duration and user with the list: no single-pipeline request needed.
      const record = details ? withPipelineDetails(listed, details) : listed;
      state.pipelines.set(item.id, record);
      if (previous?.status !== item.status)
        changes.push({
          project: state.project,
          record,
          previousStatus: previous?.status ?? null,
          baseline,
        });
      changed.push(details ?? item);
      if (details) {
        detailed.push(details);
        // Told before the changes: a failure event then needs no single-pipeline read of its own.
        this.deps.reads.remember(details);
      }
    }
    if (changed.length > 0) this.deps.tell((o) => o.pipelinesListed?.(state.project.id, changed));
    // Over GraphQL the list carried the details too: observers hear them as if fetched.
    for (const detail of detailed) this.deps.details.arrived(state, detail);
    if (Number.isFinite(newest)) state.cursor = cursorBefore(newest);
  }
}
