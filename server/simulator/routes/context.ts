import type Router from '@koa/router';
import type { Clock } from '../../platform/clock.ts';
import type { Dataset } from '../dataset.ts';
import type { Faults } from '../faults.ts';
import type { SimUser } from '../model.ts';
import type { Stats } from '../stats.ts';
import type { Views } from '../views.ts';
import type { Reply } from './reply.ts';

/** Everything the simulator's routes need. */
export interface HandlerDeps {
  data: Dataset;
  views: Views;
  faults: Faults;
  stats: Stats;
  clock: Clock;
  /** token → user */
  tokens: ReadonlyMap<string, SimUser>;
  /** Tokens that are OAuth 2.0 access tokens: GitLab accepts these only as `Authorization: Bearer`. */
  oauthTokens: ReadonlySet<string>;
  latencyMs: number;
  rateLimitPerMinute: number;
  /**
   * GraphQL's limits for a signed-in user: complexity and depth (app/graphql/gitlab_schema.rb) and
   * characters of query text (GraphqlController::MAX_QUERY_SIZE).
   */
  graphqlLimits: { complexity: number; depth: number; querySize: number };
  baseUrl: () => string;
}

/** Per-request state: the parsed URL, the authenticated user, and the reply a route produced. */
export interface SimState {
  url: URL;
  user?: SimUser;
  reply?: Reply;
}

/** The router type every simulator route module registers on. */
export type SimRouter = Router<SimState>;

/** A domain's simulator routes (groups, projects, avatars…). */
export type SimRouteModule = (router: SimRouter, deps: HandlerDeps) => void;

/** A path parameter the route pattern guarantees (the router has already matched it). */
export function param(params: Record<string, string | undefined>, name: string): string {
  return params[name] ?? '';
}
