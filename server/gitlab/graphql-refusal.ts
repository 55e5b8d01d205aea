/**
 * GitLab's refusals of a GraphQL request, each named for what it means to a reader (gitlabhq
 * app/controllers/graphql_controller.rb, app/graphql/gitlab_schema.rb, graphql-ruby's analysers):
 * - HTTP 200 with `errors` and no `data`: the query itself was refused — for its complexity
 *   ("Query has complexity of N, which exceeds max complexity of M": fewer projects per query pass),
 *   or for something every query of this shape will meet again (depth, an unknown field, a parse
 *   error, invalid variables);
 * - 422 "Query too large": the query text is over MAX_QUERY_SIZE (10,000 characters;
 *   `limit_query_size` raises Gitlab::Graphql::Errors::ArgumentError, mapped to 422 in
 *   ERROR_STATUS_MAP); a proxy's 413 means the same: fewer projects per query pass;
 * - 401 "Invalid token" (`authorize_access_api!`: a token GitLab does not take on this endpoint);
 * - 403 "API not accessible for user" (`authorize_access_api!`), or a read-only instance refusing
 *   POST (lib/gitlab/middleware/read_only/controller.rb before GraphQL was allow-listed there);
 * - 404: GraphQL is switched off, or the address does not lead to it (`render_404` answers
 *   "Not found!" in GraphQL's error shape; a proxy or an old instance answers its own 404);
 * - 405: something in front of GitLab refuses POST to /api/graphql (GitLab itself routes it).
 */
import { AppError } from '../platform/errors.ts';

/** What a refusal means for whoever reads over GraphQL. */
export type GraphQLRefusalKind =
  /** Over the complexity limit: a query of fewer projects passes. */
  | 'complexity'
  /** Over the query-size limit (422 "Query too large", or 413): a query of fewer projects passes. */
  | 'too-large'
  /** Refused for what it asks (depth, unknown field, parse error): refused every time. */
  | 'query'
  /** 404: GraphQL is switched off or not reachable at this address. */
  | 'absent'
  /** 405: POST to /api/graphql is refused before it reaches GitLab. */
  | 'method'
  /** 401 on /api/graphql. */
  | 'token'
  /** 403 on /api/graphql. */
  | 'forbidden'
  /** The answer is not a GraphQL response at all (a proxy's page). */
  | 'not-graphql';

/** GitLab refused a GraphQL request; `kind` says what that means. */
export class GraphQLRefusal extends AppError {
  /** The complexity GitLab computed and its limit, for a complexity refusal. */
  readonly complexity: { actual: number; max: number } | undefined;

  constructor(
    readonly kind: GraphQLRefusalKind,
    /** What GitLab answered, in words (the message adds what refused it). */
    readonly detail: string,
    options: { complexity?: { actual: number; max: number }; upstreamStatus?: number } = {},
  ) {
    super(
      kind === 'token'
        ? 'unauthorized'
        : kind === 'forbidden'
          ? 'forbidden'
          : 'upstream_unavailable',
      `GitLab's GraphQL API refused the query: ${detail}`,
      { upstreamStatus: options.upstreamStatus },
    );
    this.complexity = options.complexity;
  }

  /** True when the same reads in queries of fewer projects may pass. */
  get sizeBound(): boolean {
    return this.kind === 'complexity' || this.kind === 'too-large';
  }
}

/** graphql-ruby's wording (GraphQL::Analysis::MaxQueryComplexity). */
const COMPLEXITY = /^Query has complexity of (\d+), which exceeds max complexity of (\d+)/;

/** The statuses of /api/graphql that are a refusal to read, not an outage: see the file comment. */
export const GRAPHQL_REFUSAL_STATUSES: ReadonlySet<number> = new Set([
  401, 403, 404, 405, 413, 422,
]);

/** The refusal behind an answer with `errors` and no `data` (GitLab answers those with 200). */
export function refusalOfErrors(message: string): GraphQLRefusal {
  const complexity = COMPLEXITY.exec(message);
  if (complexity) {
    return new GraphQLRefusal('complexity', message, {
      complexity: { actual: Number(complexity[1]), max: Number(complexity[2]) },
    });
  }
  return new GraphQLRefusal('query', message);
}

/** The first message of a refusal's body: GraphQL's `{errors: [{message}]}`, REST's `{message}`, or none. */
function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const { errors, message, error } = body as {
      errors?: unknown;
      message?: unknown;
      error?: unknown;
    };
    if (Array.isArray(errors)) {
      const first = errors[0] as { message?: unknown } | undefined;
      if (typeof first?.message === 'string') return first.message.slice(0, 300);
    }
    if (typeof message === 'string') return message.slice(0, 300);
    if (typeof error === 'string') return error.slice(0, 300);
  }
  return null;
}

/** The refusal behind a non-2xx answer of /api/graphql (one of GRAPHQL_REFUSAL_STATUSES). */
export function refusalOfStatus(status: number, body: unknown): GraphQLRefusal {
  const said = messageOf(body);
  const answered = `HTTP ${status}${said ? ` "${said}"` : ''}`;
  const options = { upstreamStatus: status };
  switch (status) {
    case 401:
      return new GraphQLRefusal('token', `${answered}: the token is not accepted there`, options);
    case 403:
      return new GraphQLRefusal(
        'forbidden',
        `${answered}: the API is not open to this token's user there, or the instance is read-only`,
        options,
      );
    case 404:
      return new GraphQLRefusal(
        'absent',
        `${answered}: GraphQL is switched off or not reachable at this address`,
        options,
      );
    case 405:
      return new GraphQLRefusal(
        'method',
        `${answered}: a proxy in front of GitLab refuses POST to /api/graphql`,
        options,
      );
    case 413:
      return new GraphQLRefusal('too-large', answered, options);
    case 422:
      // ArgumentError and invalid variables are 422 too: only "Query too large" is about size.
      return new GraphQLRefusal(
        said === 'Query too large' ? 'too-large' : 'query',
        answered,
        options,
      );
    default:
      return new GraphQLRefusal('not-graphql', answered, options);
  }
}
