/**
 * The simulator's GraphQL endpoint (POST /api/graphql): the part of GitLab's schema the service
 * reads — `project(fullPath)`, its `pipelines` connection and `pipeline(id:)`, `Pipeline` with its
 * `testReportSummary`, and `UserCore` fields —
 * answered from the same dataset as REST, with GitLab's limits and error wording:
 * - complexity per app/graphql/types/base_field.rb and app/graphql/resolvers/base_resolver.rb
 *   (scalar 1; object 1 + selections; resolver field selections + its resolver_complexity (1, or
 *   1 − 10 for ProjectPipelineResolver) + 1 when it calls Gitaly (+2 for `ref`/`sha` filters),
 *   × (1 + min(first|last, 100) × 0.01) on connections), max 250 for a signed-in user and depth 15
 *   (app/graphql/gitlab_schema.rb), refused with graphql-ruby's messages;
 * - unknown fields refused as graphql-ruby words it; pages of at most 100 (default_max_page_size).
 */
import type { Dataset } from '../dataset.ts';
import type { SimPipeline, SimProject, SimUser } from '../model.ts';
import { pipelineSuites } from '../test-reports/report.ts';
import { testReportSummaryView } from '../test-reports/views.ts';
import type { Views } from '../views.ts';
import { GraphQLSyntaxError, parseOperation, type FieldNode, type ValueNode } from './parse.ts';

/**
 * GitLab's limits for a signed-in (non-admin) user; `querySize` is GraphqlController's
 * MAX_QUERY_SIZE (characters of query text).
 */
export const LIMITS = { complexity: 250, depth: 15, pageSize: 100, querySize: 10_000 } as const;

interface FieldDef {
  /** The object type it returns; absent for scalars. */
  type?: string;
  /** Resolved by a resolver class in GitLab (proc complexity). */
  resolver?: boolean;
  /** The resolver's own `resolver_complexity` (BaseResolver's is 1). */
  resolverComplexity?: number;
  /** `calls_gitaly!`: one more point (BaseField#field_resolver_complexity). */
  gitaly?: boolean;
  connection?: boolean;
}

const SCHEMA: Record<string, Record<string, FieldDef>> = {
  Query: {
    project: { type: 'Project', resolver: true },
    currentUser: { type: 'UserCore' },
  },
  Project: {
    id: {},
    name: {},
    fullPath: {},
    webUrl: {},
    pipelines: { type: 'PipelineConnection', resolver: true, connection: true },
    // Resolvers::Ci::ProjectPipelineResolver: `calls_gitaly!`, and resolver_complexity is
    // BaseResolver's minus 10 (one pipeline by id, iid or sha is cheap; batched per project).
    pipeline: { type: 'Pipeline', resolver: true, resolverComplexity: 1 - 10, gitaly: true },
  },
  PipelineConnection: {
    count: {},
    pageInfo: { type: 'PageInfo' },
    nodes: { type: 'Pipeline' },
  },
  PageInfo: { hasNextPage: {}, hasPreviousPage: {}, startCursor: {}, endCursor: {} },
  Pipeline: {
    id: {},
    iid: {},
    sha: {},
    beforeSha: {},
    ref: {},
    status: {},
    source: {},
    createdAt: {},
    updatedAt: {},
    startedAt: {},
    finishedAt: {},
    committedAt: {},
    duration: {},
    queuedDuration: {},
    coverage: {},
    path: {},
    active: {},
    user: { type: 'UserCore' },
    // Types::Ci::PipelineType: `resolver: Resolvers::Ci::TestReportSummaryResolver`, null: false.
    testReportSummary: { type: 'TestReportSummary', resolver: true },
  },
  // Types::Ci::TestReportSummaryType, TestReportTotalType, TestSuiteSummaryType (the REST
  // summary's entities, camel-cased; `buildIds` are IDs, so strings).
  TestReportSummary: {
    total: { type: 'TestReportTotal' },
    testSuites: { type: 'TestSuiteSummaryConnection' },
  },
  TestReportTotal: {
    time: {},
    count: {},
    success: {},
    failed: {},
    skipped: {},
    error: {},
    suiteError: {},
  },
  TestSuiteSummaryConnection: {
    pageInfo: { type: 'PageInfo' },
    nodes: { type: 'TestSuiteSummary' },
  },
  TestSuiteSummary: {
    name: {},
    totalTime: {},
    totalCount: {},
    successCount: {},
    failedCount: {},
    skippedCount: {},
    errorCount: {},
    suiteError: {},
    buildIds: {},
  },
  UserCore: { id: {}, username: {}, name: {}, avatarUrl: {}, webUrl: {}, state: {} },
};

/** What the endpoint needs from the simulator. */
export interface GraphQLDeps {
  data: Dataset;
  views: Views;
  user: SimUser;
  /** The limits in force (default LIMITS): GitLab may lower them, or raise what fields cost. */
  limits?: { complexity: number; depth: number };
}

type Variables = Record<string, unknown>;

class QueryError extends Error {}

function argValue(node: ValueNode | undefined, variables: Variables): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case 'variable':
      return variables[node.name] ?? null;
    case 'null':
      return null;
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
      return node.value;
  }
}

function complexityOf(
  field: FieldNode,
  def: FieldDef,
  variables: Variables,
  depth: number,
  maxDepth: { value: number },
): number {
  maxDepth.value = Math.max(maxDepth.value, depth);
  let children = 0;
  if (def.type) {
    const fields = SCHEMA[def.type]!;
    for (const child of field.selections) {
      const childDef = fields[child.name];
      if (!childDef)
        throw new QueryError(`Field '${child.name}' doesn't exist on type '${def.type}'`);
      children += complexityOf(child, childDef, variables, depth + 1, maxDepth);
    }
    if (field.selections.length === 0)
      throw new QueryError(
        `Field must have selections (field '${field.name}' returns ${def.type} but has no selections. Did you mean '${field.name} { ... }'?)`,
      );
  } else if (field.selections.length > 0) {
    throw new QueryError(`Selections can't be made on scalars (field '${field.name}')`);
  }
  if (!def.resolver) return 1 + children;
  let complexity = children + (def.resolverComplexity ?? 1) + (def.gitaly ? 1 : 0);
  if (field.args.has('ref')) complexity += 2;
  if (field.args.has('sha')) complexity += 2;
  if (def.connection) {
    const limits = [
      argValue(field.args.get('first'), variables),
      argValue(field.args.get('last'), variables),
      LIMITS.pageSize,
    ].filter((v): v is number => typeof v === 'number');
    complexity += complexity * Math.min(...limits) * 0.01;
  }
  return Math.floor(complexity);
}

/** The complexity and depth GitLab would compute for `query` (exported for tests and docs). */
export function analyse(
  query: string,
  variables: Variables = {},
): { complexity: number; depth: number } {
  const operation = parseOperation(query);
  const maxDepth = { value: 0 };
  let complexity = 0;
  for (const field of operation.selections) {
    const def = SCHEMA.Query![field.name];
    if (!def) throw new QueryError(`Field '${field.name}' doesn't exist on type 'Query'`);
    complexity += complexityOf(field, def, variables, 1, maxDepth);
  }
  return { complexity, depth: maxDepth.value };
}

function cursorOf(id: number): string {
  return Buffer.from(JSON.stringify({ id: String(id) })).toString('base64');
}

function idFromCursor(cursor: unknown): number | null {
  if (typeof cursor !== 'string' || cursor === '') return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { id?: unknown };
    const id = Number(parsed.id);
    return Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** Answers one GraphQL request body as GitLab would: `{data}` or `{errors}` (always HTTP 200). */
export function executeGraphQL(body: unknown, deps: GraphQLDeps): Record<string, unknown> {
  const request = (body ?? {}) as { query?: unknown; variables?: unknown };
  if (typeof request.query !== 'string' || request.query.trim() === '') {
    return { errors: [{ message: 'No query string was present' }] };
  }
  const variables =
    request.variables && typeof request.variables === 'object'
      ? (request.variables as Variables)
      : {};
  try {
    const operation = parseOperation(request.query);
    for (const [name, definition] of operation.variables) {
      const given = variables[name] ?? argValue(definition.defaultValue ?? undefined, variables);
      if (definition.type.endsWith('!') && (given === null || given === undefined)) {
        return {
          errors: [
            { message: `Variable $${name} of type ${definition.type} was provided invalid value` },
          ],
        };
      }
    }
    const { complexity, depth } = analyse(request.query, variables);
    const limits = deps.limits ?? LIMITS;
    const errors: { message: string }[] = [];
    if (depth > limits.depth)
      errors.push({
        message: `Query has depth of ${depth}, which exceeds max depth of ${limits.depth}`,
      });
    if (complexity > limits.complexity)
      errors.push({
        message: `Query has complexity of ${complexity}, which exceeds max complexity of ${limits.complexity}`,
      });
    if (errors.length > 0) return { errors };
    const data: Record<string, unknown> = {};
    for (const field of operation.selections) {
      data[field.alias ?? field.name] = resolveRoot(field, variables, deps);
    }
    return { data };
  } catch (err) {
    if (err instanceof GraphQLSyntaxError)
      return { errors: [{ message: `Parse error: ${err.message}` }] };
    if (err instanceof QueryError) return { errors: [{ message: err.message }] };
    throw err;
  }
}

function resolveRoot(field: FieldNode, variables: Variables, deps: GraphQLDeps): unknown {
  if (field.name === 'currentUser')
    return select(field, userObject(deps.user, deps), variables, deps);
  const fullPath = argValue(field.args.get('fullPath'), variables);
  if (typeof fullPath !== 'string') return null;
  const lower = fullPath.toLowerCase();
  const project = deps.data.projects.find((p) => p.fullPath.toLowerCase() === lower);
  // A project the user may not see is null, not an error (GitLab's authorization returns nil).
  if (!project) return null;
  return select(field, projectObject(project, deps), variables, deps);
}

type Resolved = Record<string, unknown | ((field: FieldNode, variables: Variables) => unknown)>;

function select(
  field: FieldNode,
  value: Resolved,
  variables: Variables,
  deps: GraphQLDeps,
): unknown {
  const out: Record<string, unknown> = {};
  for (const child of field.selections) {
    const raw = value[child.name];
    const resolved =
      typeof raw === 'function'
        ? (raw as (f: FieldNode, v: Variables) => unknown)(child, variables)
        : raw;
    out[child.alias ?? child.name] =
      child.selections.length === 0 || resolved === null || resolved === undefined
        ? (resolved ?? null)
        : Array.isArray(resolved)
          ? resolved.map((item) => select(child, item as Resolved, variables, deps))
          : select(child, resolved as Resolved, variables, deps);
  }
  return out;
}

function userObject(user: SimUser, deps: GraphQLDeps): Resolved {
  return {
    id: `gid://gitlab/User/${user.id}`,
    username: user.username,
    name: user.name,
    state: 'active',
    // GitLab gives uploaded avatars as a path on the instance.
    avatarUrl: new URL(deps.views.userAvatarUrl(user)).pathname,
    webUrl: `${new URL(deps.views.userAvatarUrl(user)).origin}/${user.username}`,
  };
}

function projectObject(project: SimProject, deps: GraphQLDeps): Resolved {
  const origin = new URL(deps.views.userAvatarUrl(deps.user)).origin;
  return {
    id: `gid://gitlab/Project/${project.id}`,
    name: project.name,
    fullPath: project.fullPath,
    webUrl: `${origin}/${project.fullPath}`,
    pipelines: (field: FieldNode, variables: Variables) =>
      pipelinesOf(project, field, variables, deps),
    pipeline: (field: FieldNode, variables: Variables) =>
      pipelineById(project, field, variables, deps),
  };
}

/**
 * `project.pipeline(id:)`: null when the project has no such pipeline or the user may not read
 * its pipelines (Ci::PipelinesFinder answers none, as for the connection).
 */
function pipelineById(
  project: SimProject,
  field: FieldNode,
  variables: Variables,
  deps: GraphQLDeps,
): Resolved | null {
  const gid = argValue(field.args.get('id'), variables);
  // Types::GlobalIDType[::Ci::Pipeline]'s coercion error, as graphql-ruby words it.
  const match = typeof gid === 'string' ? /^gid:\/\/gitlab\/Ci::Pipeline\/(\d+)$/.exec(gid) : null;
  if (!match) throw new QueryError(`${JSON.stringify(gid)} is not a valid Global ID`);
  if ((project.pipelineAccess ?? 'enabled') !== 'enabled') return null;
  const pipeline = deps.data.pipelineById.get(Number(match[1]));
  if (!pipeline || pipeline.projectId !== project.id) return null;
  return pipelineObject(project, pipeline, deps);
}

/** `Pipeline.testReportSummary`: the REST summary's numbers (kept after artifacts expire). */
function testReportSummaryObject(project: SimProject, p: SimPipeline, deps: GraphQLDeps): Resolved {
  const view = testReportSummaryView(pipelineSuites(project, p, deps.data.jobsOf(p))) as {
    total: Record<string, number | null>;
    test_suites: Record<string, unknown>[];
  };
  return {
    total: { ...view.total, suiteError: view.total.suite_error },
    testSuites: {
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      nodes: view.test_suites.map((s) => ({
        name: s.name,
        totalTime: s.total_time,
        totalCount: s.total_count,
        successCount: s.success_count,
        failedCount: s.failed_count,
        skippedCount: s.skipped_count,
        errorCount: s.error_count,
        suiteError: s.suite_error,
        buildIds: (s.build_ids as number[]).map(String),
      })),
    },
  };
}

function pipelinesOf(
  project: SimProject,
  field: FieldNode,
  variables: Variables,
  deps: GraphQLDeps,
): Resolved {
  const arg = (name: string): unknown => argValue(field.args.get(name), variables);
  const updatedAfter = arg('updatedAfter');
  const updatedBefore = arg('updatedBefore');
  const after = Date.parse(typeof updatedAfter === 'string' ? updatedAfter : '');
  const before = Date.parse(typeof updatedBefore === 'string' ? updatedBefore : '');
  const status = arg('status');
  const ref = arg('ref');
  const first = arg('first');
  const size = Math.min(
    LIMITS.pageSize,
    typeof first === 'number' && first >= 0 ? first : LIMITS.pageSize,
  );
  const afterId = idFromCursor(arg('after'));
  // A user who may not read the project's pipelines (a Guest, CI/CD off) gets an empty connection,
  // not an error: gitlabhq app/finders/ci/pipelines_finder.rb `return Ci::Pipeline.none unless
  // Ability.allowed?(current_user, :read_pipeline, project)`. REST answers 403 for the same.
  const readable = (project.pipelineAccess ?? 'enabled') === 'enabled';
  // Newest first, like Ci::PipelinesFinder's default (id desc); same filters as REST's list.
  const matching = (readable ? project.pipelines : [])
    .filter(
      (p) =>
        (Number.isNaN(after) || p.updatedAt >= after) &&
        (Number.isNaN(before) || p.updatedAt <= before) &&
        (typeof status !== 'string' || p.status === status.toLowerCase()) &&
        (typeof ref !== 'string' || p.ref === ref),
    )
    .reverse();
  const start = afterId === null ? 0 : matching.findIndex((p) => p.id < afterId);
  const page = start < 0 ? [] : matching.slice(start, start + size);
  const last = page[page.length - 1];
  const hasNextPage = start >= 0 && start + size < matching.length;
  return {
    count: matching.length,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: start > 0,
      startCursor: page[0] ? cursorOf(page[0].id) : null,
      endCursor: last ? cursorOf(last.id) : null,
    },
    nodes: page.map((p) => pipelineObject(project, p, deps)),
  };
}

function pipelineObject(project: SimProject, p: SimPipeline, deps: GraphQLDeps): Resolved {
  const user = deps.data.userById.get(p.userId);
  // GitLab's `Time` scalar: whole seconds, unlike REST's milliseconds for the same pipeline.
  const time = (ms: number | null): string | null =>
    ms === null ? null : deps.views.graphqlTime(ms);
  return {
    id: `gid://gitlab/Ci::Pipeline/${p.id}`,
    iid: String(p.iid),
    sha: p.sha,
    beforeSha: p.beforeSha,
    ref: p.ref,
    status: p.status.toUpperCase(),
    source: p.source,
    createdAt: time(p.createdAt),
    updatedAt: time(p.updatedAt),
    startedAt: time(p.startedAt),
    finishedAt: time(p.finishedAt),
    committedAt: null,
    duration: p.duration,
    queuedDuration: p.queuedDuration,
    coverage: p.coverage === null ? null : Number(p.coverage),
    path: `/${project.fullPath}/-/pipelines/${p.id}`,
    active: p.finishedAt === null,
    user: user ? userObject(user, deps) : null,
    testReportSummary: () => testReportSummaryObject(project, p, deps),
  };
}
