import { GRAPHQL_BATCH } from './graphql-pipelines.ts';
import { GraphQLRefusal } from './graphql-refusal.ts';
import type { Logger } from '../platform/logger.ts';

/** The bulk queries, each with its own batch size (projects, or pipelines for test summaries). */
export type BatchKind = keyof typeof GRAPHQL_BATCH;

/** What to do about an error of a GraphQL read. */
export type RefusalAction =
  /** GitLab will refuse this query every time: read over REST from now on. */
  | 'switch-off'
  /** 401/403 on /api/graphql: read over REST; switch off for good only if REST works. */
  | 'switch-off-if-rest-works'
  /** Not a refusal (an outage that outlasted its retries): REST for this cycle only. */
  | 'this-cycle'
  /** Not GitLab's doing (a cancelled cycle, a bug): the caller rethrows. */
  | 'rethrow';

/** How the feed answers an error of a GraphQL read (size refusals are handled by `shrink`). */
export function refusalAction(err: unknown): RefusalAction {
  if (err instanceof GraphQLRefusal) {
    if (err.kind === 'token' || err.kind === 'forbidden') return 'switch-off-if-rest-works';
    return 'switch-off';
  }
  const code = (err as { code?: unknown })?.code;
  return code === 'upstream_unavailable' || code === 'upstream_timeout' ? 'this-cycle' : 'rethrow';
}

/** Which API reads go over, and why REST when GitLab has GraphQL (null otherwise). */
export interface ReadMode {
  api: 'graphql' | 'rest';
  note: string | null;
}

/**
 * Whether pipelines are read over GraphQL, how many projects each bulk query holds, and why reads
 * went over REST. GitLab may raise field costs or lower its limits (the margin of each query is a
 * few points, see graphql-pipelines.ts): a query refused for its complexity or size is re-sent in
 * smaller batches and the smaller size kept, so GraphQL stays in use. A refusal that every query
 * will meet again (the endpoint is off, blocked or refuses the token; one project alone is too
 * complex) switches GraphQL off until the service restarts, and the note says why.
 */
export class GraphQLMode {
  private offNote: string | null = null;
  private readonly batch: Record<BatchKind, number> = { ...GRAPHQL_BATCH };

  constructor(
    /** False when the GitLab port has no bulk reads at all (then REST without a note). */
    private readonly available: boolean,
    private readonly logger: Logger,
    /** What reads do instead, for the note. */
    private readonly fallback = 'reading pipelines over REST (one request per project, and per pipeline for durations)',
  ) {}

  /** True while reads go over GraphQL. */
  get usable(): boolean {
    return this.available && this.offNote === null;
  }

  /** Why reads go over REST although GitLab has GraphQL, or null. */
  get note(): string | null {
    return this.offNote;
  }

  /** The API reads go over now, with the note: what the service's status reports. */
  get mode(): ReadMode {
    return this.usable ? { api: 'graphql', note: null } : { api: 'rest', note: this.offNote };
  }

  /** Projects per query of `kind` now. */
  size(kind: BatchKind): number {
    return this.batch[kind];
  }

  /**
   * A query of `kind` holding `size` projects was refused for its complexity or size: the size
   * to use from now on (from GitLab's own numbers when it gave them, else half), or null when a
   * query of one project is refused already (then only REST can read).
   */
  shrink(kind: BatchKind, refusal: GraphQLRefusal, size: number): number | null {
    if (size <= 1) return null;
    const { complexity } = refusal;
    // Complexity grows with the projects in a query: keep the per-project cost under the limit.
    const fitting = complexity
      ? Math.floor((size * complexity.max) / complexity.actual)
      : Math.floor(size / 2);
    const next = Math.max(1, Math.min(size - 1, fitting, this.batch[kind]));
    if (next < this.batch[kind]) {
      this.logger.warn(
        { kind, from: this.batch[kind], to: next, err: refusal.message },
        'GitLab refused a GraphQL query for its size; asking for fewer projects per query',
      );
      this.batch[kind] = next;
    }
    return next;
  }

  /** GitLab refuses GraphQL for good: reads go over REST until the service restarts. */
  switchOff(refusal: GraphQLRefusal, why = ''): void {
    if (this.offNote !== null) return;
    this.offNote = `${refusal.message}${why}; ${this.fallback} until the service restarts`;
    this.logger.warn({ err: refusal.message }, 'GitLab GraphQL unusable; reading over REST');
  }
}
