import type { GitLabApi } from '../gitlab/api.ts';
import { LIST_CAPS } from '../gitlab/client.ts';
import { sameUpdatedAt } from '../gitlab/updated-at.ts';
import { CHANGES_PAGE, type PipelinePage } from '../gitlab/graphql-pipelines.ts';
import { GraphQLRefusal } from '../gitlab/graphql-refusal.ts';
import type { GitLabPipeline, GitLabPipelineListItem } from '../gitlab/wire.ts';
import { AppError, isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import {
  GraphQLMode,
  refusalAction,
  type BatchKind,
  type ReadMode,
} from '../gitlab/graphql-mode.ts';

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
  /**
   * Set when GitLab will not show this project's pipelines: 403 or 404 over REST; over GraphQL a
   * project that is null (not visible) or whose empty connection REST confirms with a 403.
   */
  inaccessible?: AppError;
}

/** The `updated_at` and status already held for a pipeline, if any. */
export type KnownPipeline = (
  projectId: number,
  pipelineId: number,
) => { updatedAt: string; status: string } | undefined;

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

/**
 * Reads what changed in a group's pipelines at the lowest GitLab cost it can: over GraphQL, a cheap
 * probe for 40 projects per request finds the projects with changes, and full pages (duration, user
 * and timestamps included) are read for 5 projects per request, so a first load needs no request per
 * pipeline. GitLab's GraphQL refusals are taken as GitLab means them (gitlab/graphql-mode.ts): a query
 * too complex or too large is re-sent for fewer projects; an endpoint that is off, blocked or
 * refuses the token sends the same reads over REST, one list request per project, for good, and
 * `mode` says so. Also answers which pipeline ids are still in a project's window, for reconciling
 * deletions.
 */
export class PipelineFeed {
  private readonly graphql: GraphQLMode;
  /** Projects REST has shown it may read although GraphQL listed none of their pipelines. */
  private readonly readable = new Set<number>();

  constructor(
    private readonly gitlab: GitLabApi,
    private readonly logger: Logger,
    private readonly concurrency: number,
  ) {
    this.graphql = new GraphQLMode(gitlab.bulk !== undefined, logger);
  }

  /** The API reads go over, and the reason when it is REST although GraphQL exists. */
  get mode(): ReadMode {
    return this.graphql.mode;
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
    const rest = () => this.restUpdates(targets, windowStart, signal, onCapped);
    if (!this.graphql.usable) return rest();
    try {
      return await this.graphQLUpdates(targets, windowStart, known, signal, onCapped);
    } catch (err) {
      // A bulk request that failed after its retries (a dropped connection, a truncated answer)
      // would cost the whole cycle; small REST requests spread the risk. If GitLab is down,
      // these fail fast too and the cycle reports it.
      return this.overRest(err, signal, rest, 'rest');
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
    const rest = () => this.restIds(targets, windowStart, signal);
    if (!this.graphql.usable) return rest();
    try {
      return await this.graphQLIds(targets, windowStart, signal);
    } catch (err) {
      // An outage during reconciliation waits for the next one: reading every project's ids over
      // REST would cost a request per project.
      return this.overRest(err, signal, rest, 'rethrow');
    }
  }

  private async restIds(
    targets: readonly FeedTarget[],
    windowStart: string,
    signal: AbortSignal,
  ): Promise<Map<number, Set<number> | undefined>> {
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

  /**
   * Reads over REST after a GraphQL read failed with `err`, switching GraphQL off when GitLab
   * refuses it for good (gitlab/graphql-mode.ts); an outage that outlasted the retries is read over REST
   * this once (`onOutage: 'rest'`) or rethrown.
   */
  private async overRest<T>(
    err: unknown,
    signal: AbortSignal,
    rest: () => Promise<T>,
    onOutage: 'rest' | 'rethrow',
  ): Promise<T> {
    if (signal.aborted) throw err;
    const action = refusalAction(err);
    if (action === 'rethrow' || (action === 'this-cycle' && onOutage === 'rethrow')) throw err;
    const refusal = err as GraphQLRefusal;
    if (action === 'switch-off') this.graphql.switchOff(refusal);
    const result = await rest();
    // REST took the token where /api/graphql did not (a 401/403 there only: a proxy rule, a
    // read-only instance): GraphQL stays off. Had REST refused it too, the cycle failed above.
    if (action === 'switch-off-if-rest-works')
      this.graphql.switchOff(refusal, ' (REST accepts the token)');
    return result;
  }

  /**
   * Runs `run` over `items` in batches of the size GitLab takes for `kind`, `concurrency` at a
   * time; a batch GitLab refuses for its complexity or size is re-sent in smaller batches (and
   * the smaller size kept). A query of one project refused so is rethrown: only REST can read it.
   */
  private async batches<T>(
    kind: BatchKind,
    items: readonly T[],
    run: (batch: T[]) => Promise<void>,
  ): Promise<void> {
    const sized = async (batch: T[]): Promise<void> => {
      try {
        await run(batch);
      } catch (err) {
        if (!(err instanceof GraphQLRefusal) || !err.sizeBound) throw err;
        const size = this.graphql.shrink(kind, err, batch.length);
        if (size === null) {
          throw new GraphQLRefusal(err.kind, `${err.detail}, even for a query of one project`, {
            upstreamStatus: err.upstreamStatus,
          });
        }
        for (const part of chunks(batch, size)) await sized(part);
      }
    };
    await forEachLimit(chunks(items, this.graphql.size(kind)), this.concurrency, sized);
  }

  /**
   * Whether the token may read a project's pipelines, asked over REST for one pipeline: GraphQL
   * shows a project whose pipelines the user may not read as an empty connection (gitlabhq
   * app/finders/ci/pipelines_finder.rb: `Ci::Pipeline.none` without `read_pipeline`) where REST
   * answers 403 (lib/api/ci/pipelines.rb: `authorize! :read_pipeline`). The error when not.
   */
  private async refusedOverRest(
    target: FeedTarget,
    signal: AbortSignal,
  ): Promise<AppError | undefined> {
    try {
      await this.gitlab.listPipelines(target.projectId, { limit: 1, signal });
      this.readable.add(target.projectId);
      return undefined;
    } catch (err) {
      if (isInaccessible(err)) return err;
      throw err;
    }
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
    await this.batches('changes', steady, async (batch) => {
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
    const done: typeof pending = [];
    let open = pending;
    while (open.length > 0) {
      await this.batches('pipelines', open, async (batch) => {
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
          if (state.after === null) done.push(state);
        });
      });
      open = open.filter((p) => p.after !== null);
    }
    // A whole window read empty may be a project whose pipelines the token may not read: REST
    // tells (once per project that is readable; again after each project refresh when not).
    await forEachLimit(done, this.concurrency, async (state) => {
      const { target, items } = state;
      const check =
        target.cursor === null && items.length === 0 && !this.readable.has(target.projectId);
      const refused = check ? await this.refusedOverRest(target, signal) : undefined;
      updates.push(
        refused
          ? { projectId: target.projectId, items: [], inaccessible: refused }
          : { projectId: target.projectId, items },
      );
    });
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
      await this.batches('ids', open, async (batch) => {
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
    // None left of a project that had some: deleted, or no longer readable by this token (an
    // empty connection too). REST tells; an unreadable project keeps what it has.
    const emptied = targets.filter((t) => t.cursor !== null && result.get(t.projectId)?.size === 0);
    await forEachLimit(emptied, this.concurrency, async (target) => {
      if (await this.refusedOverRest(target, signal)) result.set(target.projectId, undefined);
    });
    return result;
  }

  /** A project GraphQL answers null for: gone, or not visible to this token (REST: 404). */
  private invisible(target: FeedTarget): FeedUpdate {
    return {
      projectId: target.projectId,
      items: [],
      inaccessible: new AppError(
        'not_found',
        `GitLab project ${target.fullPath} not found (or not visible to this GitLab token)`,
        { upstreamStatus: 404 },
      ),
    };
  }
}
