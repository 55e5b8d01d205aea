import type { GitLabApi } from '../gitlab/api.ts';
import { LIST_CAPS } from '../gitlab/client.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import {
  CHANGES_PAGE,
  GRAPHQL_BATCH,
  GraphQLRefusal,
  type PipelinePage,
} from '../gitlab/graphql-pipelines.ts';
import type { GitLabPipeline, GitLabPipelineListItem } from '../gitlab/wire.ts';
import type { Clock } from '../platform/clock.ts';
import { AppError, isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

/** A project the feed reads, with the `updated_after` of its next read (null = whole window). */
export interface FeedTarget {
  projectId: number;
  fullPath: string;
  cursor: string | null;
}

/** What changed in one project since its cursor. */
export interface FeedUpdate {
  projectId: number;
  /** Changed pipelines, newest first; `details` when the source carried duration and user. */
  items: { item: GitLabPipelineListItem; details: GitLabPipeline | null }[];
  /** Set when GitLab will not show this project's pipelines (403, 404, or null over GraphQL). */
  inaccessible?: AppError;
}

/** The `updated_at` and status already held for a pipeline, if any. */
export type KnownPipeline = (
  projectId: number,
  pipelineId: number,
) => { updatedAt: string; status: string } | undefined;

/** Which API the feed reads pipelines with, and why when not GraphQL. */
export interface FeedMode {
  api: 'graphql' | 'rest';
  note: string | null;
}

/** How long GraphQL stays off after GitLab refused it, before it is tried again. */
const GRAPHQL_RETRY_MS = 30 * 60_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let index = 0;
  let failure: unknown;
  const worker = async () => {
    while (index < items.length && failure === undefined) {
      const item = items[index++]!;
      try {
        await fn(item);
      } catch (err) {
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure;
}

/** GitLab answers that mean "this project's pipelines are not for this token", not an outage. */
function isInaccessible(err: unknown): err is AppError {
  return isAppError(err) && (err.upstreamStatus === 403 || err.upstreamStatus === 404);
}

/** GraphQL is refused or absent (not an outage of GitLab as a whole): fall back to REST. */
function graphQLUnusable(err: unknown): err is AppError {
  return (
    err instanceof GraphQLRefusal ||
    (isAppError(err) &&
      (err.upstreamStatus === 404 || err.upstreamStatus === 403 || err.code === 'bad_request'))
  );
}

/**
 * Reads what changed in a group's pipelines at the lowest GitLab cost it can: over GraphQL, a cheap
 * probe for 40 projects per request finds the projects with changes, and full pages (duration, user
 * and timestamps included) are read for 5 projects per request, so a first load needs no request per
 * pipeline. When GitLab's GraphQL API is switched off or refuses a query, the same targets are read
 * over REST, one list request per project, and `mode` says so. Also answers which pipeline ids are
 * still in a project's window, for reconciling deletions.
 */
export class PipelineFeed {
  private graphqlOffUntil = 0;
  private graphqlNote: string | null = null;

  constructor(
    private readonly gitlab: GitLabApi,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly concurrency: number,
  ) {}

  /** The API used by the last read, and the reason when it is REST although GraphQL exists. */
  get mode(): FeedMode {
    if (this.useGraphQL()) return { api: 'graphql', note: null };
    return { api: 'rest', note: this.graphqlNote };
  }

  /**
   * Changed pipelines per target. `known` gives the `updated_at` and status already held for a
   * pipeline, so a probe that only sees known pipelines (the cursor overlap) costs nothing more.
   */
  async updates(
    targets: readonly FeedTarget[],
    windowStart: string,
    known: KnownPipeline,
    signal: AbortSignal,
    onCapped: (projectId: number, message: string) => void,
  ): Promise<FeedUpdate[]> {
    if (!this.useGraphQL()) return this.restUpdates(targets, windowStart, signal, onCapped);
    try {
      return await this.graphQLUpdates(targets, windowStart, known, signal, onCapped);
    } catch (err) {
      if (signal.aborted) throw err;
      if (graphQLUnusable(err)) this.disableGraphQL(err);
      else if (!isAppError(err, 'upstream_unavailable', 'upstream_timeout')) throw err;
      // A bulk request that failed after its retries (a dropped connection, a truncated answer)
      // would cost the whole cycle; small REST requests spread the risk. If GitLab is down,
      // these fail fast too and the cycle reports it.
      return this.restUpdates(targets, windowStart, signal, onCapped);
    }
  }

  /**
   * The ids of each target's pipelines created at or after `windowStart`, or undefined for a target
   * whose list could not be read in full (then nothing is reconciled for it).
   */
  async idsInWindow(
    targets: readonly FeedTarget[],
    windowStart: string,
    signal: AbortSignal,
  ): Promise<Map<number, Set<number> | undefined>> {
    if (this.useGraphQL()) {
      try {
        return await this.graphQLIds(targets, windowStart, signal);
      } catch (err) {
        if (signal.aborted || !graphQLUnusable(err)) throw err;
        this.disableGraphQL(err);
      }
    }
    const result = new Map<number, Set<number> | undefined>();
    await forEachLimit(targets, this.concurrency, async (target) => {
      let capped = false;
      try {
        const items = await this.gitlab.listPipelines(target.projectId, {
          createdAfter: windowStart,
          signal,
          onCapped: () => (capped = true),
        });
        result.set(target.projectId, capped ? undefined : new Set(items.map((i) => i.id)));
      } catch (err) {
        if (!isInaccessible(err)) throw err;
        result.set(target.projectId, undefined);
      }
    });
    return result;
  }

  private useGraphQL(): boolean {
    return this.gitlab.bulk !== undefined && this.clock.now() >= this.graphqlOffUntil;
  }

  private disableGraphQL(err: AppError): void {
    this.graphqlOffUntil = this.clock.now() + GRAPHQL_RETRY_MS;
    this.graphqlNote = `${err.message}; reading pipelines over REST (one request per project, and per pipeline for durations) and trying GraphQL again in 30 minutes`;
    this.logger.warn({ err: err.message }, 'GitLab GraphQL unusable; falling back to REST');
  }

  private async restUpdates(
    targets: readonly FeedTarget[],
    windowStart: string,
    signal: AbortSignal,
    onCapped: (projectId: number, message: string) => void,
  ): Promise<FeedUpdate[]> {
    const updates: FeedUpdate[] = [];
    await forEachLimit(targets, this.concurrency, async (target) => {
      try {
        const items = await this.gitlab.listPipelines(target.projectId, {
          updatedAfter: target.cursor ?? windowStart,
          signal,
          onCapped: (message) => onCapped(target.projectId, message),
        });
        updates.push({
          projectId: target.projectId,
          items: items.map((item) => ({ item, details: null })),
        });
      } catch (err) {
        if (!isInaccessible(err)) throw err;
        updates.push({ projectId: target.projectId, items: [], inaccessible: err });
      }
    });
    return updates;
  }

  private async graphQLUpdates(
    targets: readonly FeedTarget[],
    windowStart: string,
    known: KnownPipeline,
    signal: AbortSignal,
    onCapped: (projectId: number, message: string) => void,
  ): Promise<FeedUpdate[]> {
    const bulk = this.gitlab.bulk!;
    const updates: FeedUpdate[] = [];
    // 1. Projects read before: ask cheaply whether anything changed since their cursor.
    const steady = targets.filter((t) => t.cursor !== null);
    const toRead: FeedTarget[] = targets.filter((t) => t.cursor === null);
    await forEachLimit(chunks(steady, GRAPHQL_BATCH.changes), this.concurrency, async (batch) => {
      const answers = await bulk.changes(
        batch.map((t) => ({ fullPath: t.fullPath, updatedAfter: t.cursor! })),
        signal,
      );
      answers.forEach((nodes, i) => {
        const target = batch[i]!;
        if (nodes === null) updates.push(this.invisible(target));
        // A full probe page may hide older updated pipelines (it is newest first): read in full.
        else if (
          nodes.length >= CHANGES_PAGE ||
          nodes.some((n) => {
            // GraphQL's `updatedAt` has whole seconds (see updatedAtKey): a pipeline that changed
            // again within the second it was last read keeps it, but not its status.
            const held = known(target.projectId, n.id);
            return !held || !sameUpdatedAt(held.updatedAt, n.updatedAt) || held.status !== n.status;
          })
        )
          toRead.push(target);
        else updates.push({ projectId: target.projectId, items: [] });
      });
    });
    // 2. Projects with changes (or never read): full pages, 5 projects per request.
    const pending = toRead.map((target) => ({
      target,
      after: null as string | null,
      pages: 0,
      items: [] as FeedUpdate['items'],
    }));
    let open = pending;
    while (open.length > 0) {
      await forEachLimit(chunks(open, GRAPHQL_BATCH.pipelines), this.concurrency, async (batch) => {
        const pages = await bulk.pipelines(
          batch.map((p) => ({
            fullPath: p.target.fullPath,
            updatedAfter: p.target.cursor ?? windowStart,
            after: p.after,
          })),
          signal,
        );
        pages.forEach((page: PipelinePage | null, i) => {
          const state = batch[i]!;
          if (page === null) {
            updates.push(this.invisible(state.target));
            state.after = null;
            return;
          }
          for (const details of page.pipelines) state.items.push({ item: details, details });
          state.pages++;
          // Bounded whatever GitLab claims: an endless hasNextPage chain stops at the caps.
          const capped = state.items.length >= LIST_CAPS.items || state.pages >= LIST_CAPS.pages;
          if (capped && page.hasNextPage) {
            onCapped(
              state.target.projectId,
              `Reading the pipelines of ${state.target.fullPath} stopped at ${state.pages} pages and ${state.items.length} pipelines (the cap per project window); older ones are left out`,
            );
          }
          const more = page.hasNextPage && !capped && page.pipelines.length > 0;
          state.after = more ? page.endCursor : null;
          if (state.after === null)
            updates.push({ projectId: state.target.projectId, items: state.items });
        });
      });
      open = open.filter((p) => p.after !== null);
    }
    return updates;
  }

  private async graphQLIds(
    targets: readonly FeedTarget[],
    windowStart: string,
    signal: AbortSignal,
  ): Promise<Map<number, Set<number> | undefined>> {
    const bulk = this.gitlab.bulk!;
    const start = Date.parse(windowStart);
    const result = new Map<number, Set<number> | undefined>();
    let open = targets.map((target) => ({
      target,
      after: null as string | null,
      pages: 0,
      ids: new Set<number>(),
    }));
    while (open.length > 0) {
      const next: typeof open = [];
      await forEachLimit(chunks(open, GRAPHQL_BATCH.ids), this.concurrency, async (batch) => {
        const pages = await bulk.ids(
          batch.map((p) => ({ fullPath: p.target.fullPath, after: p.after })),
          signal,
        );
        pages.forEach((page, i) => {
          const state = batch[i]!;
          if (page === null) {
            result.set(state.target.projectId, undefined);
            return;
          }
          let older = false;
          for (const { id, createdAt } of page.ids) {
            if (Date.parse(createdAt) >= start) state.ids.add(id);
            else older = true;
          }
          state.pages++;
          if (state.ids.size >= LIST_CAPS.items || state.pages >= LIST_CAPS.pages)
            result.set(state.target.projectId, undefined);
          else if (page.hasNextPage && !older && page.endCursor && page.ids.length > 0) {
            state.after = page.endCursor;
            next.push(state);
          } else result.set(state.target.projectId, state.ids);
        });
      });
      open = next;
    }
    return result;
  }

  private invisible(target: FeedTarget): FeedUpdate {
    return {
      projectId: target.projectId,
      items: [],
      inaccessible: new AppError(
        'forbidden',
        `GitLab does not show the pipelines of ${target.fullPath} to this token (CI/CD disabled, Guest access, or the project is gone)`,
        { upstreamStatus: 403 },
      ),
    };
  }
}
