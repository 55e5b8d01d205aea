/**
 * Bulk pipeline reads over GitLab's GraphQL API: durations, users and timestamps of many projects'
 * pipelines in one request, where REST needs one request per pipeline for `duration` and `user`.
 *
 * Every query stays under GitLab's limits for an authenticated user (app/graphql/gitlab_schema.rb:
 * AUTHENTICATED_COMPLEXITY = 250, AUTHENTICATED_MAX_DEPTH = 15). Complexity follows GitLab's rule
 * (app/graphql/types/base_field.rb, app/graphql/resolvers/base_resolver.rb): a scalar field costs 1;
 * an object field 1 + its selections; a resolver field (`project`, `pipelines`) costs its
 * selections + 1, and a connection multiplies that by (1 + min(first, 100) × 0.01), rounded down.
 * Per aliased project:
 *
 * | query             | per project                                                      | batch | total |
 * |-------------------|------------------------------------------------------------------|-------|-------|
 * | PIPELINES (first: 100) | nodes 1+13+user(1+4)=19, pageInfo 3 → (22+1)×2 = 46; project 1+46+1 = 48 | 5  | 240 |
 * | CHANGES (first: 5)     | nodes 1+3 = 4 → (4+1)×1.05 = 5; project 5+1 = 6                          | 40 | 240 |
 * | IDS (first: 100)       | nodes 1+2 = 3, pageInfo 3 → (6+1)×2 = 14; project 14+1 = 15               | 16 | 240 |
 *
 * Depth is at most 5 (project → pipelines → nodes → user → name). The simulator computes the same
 * rule and refuses what GitLab would refuse; graphql-pipelines.test.ts checks these numbers there.
 *
 * Test report summaries are read per pipeline, by id (`project.pipeline(id:)`, batched per project
 * by ProjectPipelineResolver): testSuites' nodes 1+9 = 10, pageInfo 1+1 = 2 → 1+12 = 13;
 * testReportSummary (a resolver) 13+1 = 14; with `id` 15; `pipeline(id:)` 15 + (1 − 10) + 1 for
 * Gitaly = 7; a project 1 + 7 per pipeline. 30 pipelines of up to 30 projects: ≤ 240. GitLab
 * before the resolver's −10 counts 17 a pipeline: refused once, the batch shrinks to 13 (234).
 */
import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import { GraphQLRefusal, refusalOfErrors } from './graphql-refusal.ts';
import type { GitLabPipeline, GitLabTestReportSummary } from './wire.ts';
import { describeIssue, testReportSummarySchema, utcTimeSchema } from './wire-schemas.ts';

/** Projects per query, sized so every query stays at or under 250 (see the table above). */
export const GRAPHQL_BATCH = { pipelines: 5, changes: 40, ids: 16, testSummaries: 30 } as const;

/** Pipelines the change probe asks for per project; a full page means "read this project". */
export const CHANGES_PAGE = 5;

/** GitLab's limits for an authenticated user (app/graphql/gitlab_schema.rb). */
export const GITLAB_GRAPHQL_LIMITS = { complexity: 250, depth: 15 } as const;

/** Sends one GraphQL request; GitLabClient.graphql. */
export type GraphQLPost = (
  query: string,
  variables: Record<string, unknown>,
  what: string,
  signal?: AbortSignal,
) => Promise<unknown>;

export { GraphQLRefusal } from './graphql-refusal.ts';

/** One project's page of pipelines, in REST's single-pipeline shape (timestamps in UTC). */
export interface PipelinePage {
  pipelines: GitLabPipeline[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** What to read for one project. */
export interface ProjectPipelinesRequest {
  fullPath: string;
  /** Only pipelines updated after this instant (ISO). */
  updatedAfter?: string;
  /** The `endCursor` of the previous page. */
  after?: string | null;
}

const PIPELINE_FIELDS =
  'id iid sha ref status source createdAt updatedAt startedAt finishedAt duration queuedDuration path user { id username name avatarUrl }';

function gidNumber(gid: string): number {
  const match = /\/(\d+)$/.exec(gid);
  return match ? Number(match[1]) : Number.NaN;
}

const gidSchema = z
  .string()
  .max(200)
  .refine((value) => Number.isSafeInteger(gidNumber(value)) && gidNumber(value) > 0, 'not a gid')
  .transform(gidNumber);

const pageInfoSchema = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

const nodeSchema = z.object({
  id: gidSchema,
  iid: z.string().regex(/^\d{1,12}$/),
  sha: z.string().max(64),
  ref: z.string().max(1024).nullable(),
  status: z
    .string()
    .regex(/^[A-Z_]{1,40}$/)
    .transform((s) => s.toLowerCase()),
  source: z.string().max(64).nullable(),
  createdAt: utcTimeSchema,
  updatedAt: utcTimeSchema,
  startedAt: utcTimeSchema.nullable(),
  finishedAt: utcTimeSchema.nullable(),
  duration: z.number().int().nonnegative().nullable(),
  queuedDuration: z.number().finite().nonnegative().nullable(),
  path: z.string().max(4096).regex(/^\//, 'not an absolute path'),
  user: z
    .object({
      id: gidSchema,
      username: z.string().max(255),
      name: z.string().max(255),
      avatarUrl: z.string().max(4096).nullable(),
    })
    .nullable(),
});

const projectPipelinesSchema = z
  .object({
    id: gidSchema,
    // Null when CI/CD is disabled for the project.
    pipelines: z.object({ pageInfo: pageInfoSchema, nodes: z.array(z.unknown()) }).nullable(),
  })
  .nullable();

const changesSchema = z
  .object({
    pipelines: z.object({ nodes: z.array(z.unknown()) }).nullable(),
  })
  .nullable();

const idsSchema = z
  .object({
    pipelines: z
      .object({
        pageInfo: pageInfoSchema,
        nodes: z.array(z.unknown()),
      })
      .nullable(),
  })
  .nullable();

const changeNodeSchema = z.object({
  id: gidSchema,
  updatedAt: utcTimeSchema,
  status: z
    .string()
    .regex(/^[A-Z_]{1,40}$/)
    .transform((s) => s.toLowerCase()),
});

const idNodeSchema = z.object({ id: gidSchema, createdAt: utcTimeSchema });

const responseSchema = z.object({
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  errors: z.array(z.object({ message: z.string().max(2000) }).passthrough()).optional(),
});

/** The variable list and aliased fields of a multi-project query. */
function batchQuery(
  name: string,
  count: number,
  variables: (i: number) => string,
  field: (i: number) => string,
): string {
  const defs = Array.from({ length: count }, (_, i) => variables(i)).join(', ');
  const body = Array.from({ length: count }, (_, i) => `  p${i}: ${field(i)}`).join('\n');
  return `query ${name}(${defs}) {\n${body}\n}`;
}

/** The query reading up to 100 pipelines with every summary field for each project. */
export function pipelinesQuery(count: number): string {
  return batchQuery(
    'pipelinesOfProjects',
    count,
    (i) => `$p${i}: ID!, $u${i}: Time, $a${i}: String`,
    (i) =>
      `project(fullPath: $p${i}) { id pipelines(first: 100, after: $a${i}, updatedAfter: $u${i}) { pageInfo { hasNextPage endCursor } nodes { ${PIPELINE_FIELDS} } } }`,
  );
}

/** The cheap query asking whether anything changed since each project's cursor. */
export function changesQuery(count: number): string {
  return batchQuery(
    'pipelineChanges',
    count,
    (i) => `$p${i}: ID!, $u${i}: Time`,
    (i) =>
      `project(fullPath: $p${i}) { pipelines(first: ${CHANGES_PAGE}, updatedAfter: $u${i}) { nodes { id updatedAt status } } }`,
  );
}

/** The query listing pipeline ids and creation times (deletion reconciliation). */
export function idsQuery(count: number): string {
  return batchQuery(
    'pipelineIds',
    count,
    (i) => `$p${i}: ID!, $a${i}: String`,
    (i) =>
      `project(fullPath: $p${i}) { pipelines(first: 100, after: $a${i}) { pageInfo { hasNextPage endCursor } nodes { id createdAt } } }`,
  );
}

const SUITE_FIELDS =
  'name totalTime totalCount successCount failedCount skippedCount errorCount suiteError buildIds';

/** The query reading the test report summaries of pipelines by id, grouped by project. */
export function testSummariesQuery(pipelinesPerProject: readonly number[]): string {
  const defs: string[] = [];
  const body: string[] = [];
  pipelinesPerProject.forEach((count, i) => {
    defs.push(`$p${i}: ID!`);
    const fields: string[] = [];
    for (let k = 0; k < count; k++) {
      defs.push(`$i${i}_${k}: CiPipelineID!`);
      fields.push(
        `t${k}: pipeline(id: $i${i}_${k}) { id testReportSummary { testSuites { pageInfo { hasNextPage } nodes { ${SUITE_FIELDS} } } } }`,
      );
    }
    body.push(`  p${i}: project(fullPath: $p${i}) { ${fields.join(' ')} }`);
  });
  return `query testReportSummaries(${defs.join(', ')}) {\n${body.join('\n')}\n}`;
}

const suiteNodeSchema = z.object({
  name: z.unknown(),
  totalTime: z.unknown(),
  totalCount: z.unknown(),
  successCount: z.unknown(),
  failedCount: z.unknown(),
  skippedCount: z.unknown(),
  errorCount: z.unknown(),
  suiteError: z.unknown(),
  buildIds: z.array(z.unknown()).max(10_000).nullable(),
});

const summaryPipelineSchema = z
  .object({
    id: gidSchema,
    testReportSummary: z.object({
      testSuites: z.object({
        pageInfo: z.object({ hasNextPage: z.boolean() }),
        nodes: z.array(suiteNodeSchema).max(100),
      }),
    }),
  })
  .nullable();

/**
 * A pipeline's test report summary read over GraphQL: the REST summary's shape, `null` when GitLab
 * does not show the pipeline (deleted, or its pipelines are not readable), or `'rest'` when only
 * REST can tell it whole (over 100 suites, or an answer that does not parse).
 */
export type BulkTestSummary = GitLabTestReportSummary | null | 'rest';

/** Bulk reads of several projects' pipelines per GraphQL request. */
export class GraphQLPipelines {
  private readonly origin: string;

  constructor(
    private readonly post: GraphQLPost,
    baseUrl: string,
    private readonly onMalformed: (what: string, issue: string) => void = () => undefined,
  ) {
    this.origin = new URL(baseUrl).origin;
  }

  /**
   * One page of pipelines (newest first) for each project, with duration, user and timestamps.
   * A project GitLab does not show (missing, or no access) maps to null.
   */
  async pipelines(
    requests: readonly ProjectPipelinesRequest[],
    signal?: AbortSignal,
  ): Promise<(PipelinePage | null)[]> {
    const variables: Record<string, unknown> = {};
    requests.forEach((r, i) => {
      variables[`p${i}`] = r.fullPath;
      variables[`u${i}`] = r.updatedAfter ?? null;
      variables[`a${i}`] = r.after ?? null;
    });
    const data = await this.run(pipelinesQuery(requests.length), variables, signal);
    return requests.map((r, i) => {
      const parsed = projectPipelinesSchema.safeParse(data[`p${i}`] ?? null);
      if (!parsed.success) {
        this.onMalformed(`pipelines of ${r.fullPath}`, describeIssue(parsed.error));
        throw new AppError(
          'upstream_unavailable',
          `GitLab's GraphQL API sent malformed data for the pipelines of ${r.fullPath} (${describeIssue(parsed.error)})`,
        );
      }
      if (!parsed.data?.pipelines) return null;
      const projectId = parsed.data.id;
      const pipelines: GitLabPipeline[] = [];
      for (const raw of parsed.data.pipelines.nodes) {
        const node = nodeSchema.safeParse(raw);
        if (node.success) pipelines.push(this.toPipeline(node.data, projectId));
        else this.onMalformed(`a pipeline of ${r.fullPath}`, describeIssue(node.error));
      }
      return {
        pipelines,
        endCursor: parsed.data.pipelines.pageInfo.endCursor,
        hasNextPage: parsed.data.pipelines.pageInfo.hasNextPage,
      };
    });
  }

  /**
   * The ids, `updated_at` and status of up to 5 pipelines per project updated after its cursor;
   * null for a project GitLab does not show. The status is there because GraphQL's `updatedAt` has
   * whole seconds: a pipeline that ended within the second it was last read keeps its `updatedAt`.
   */
  async changes(
    requests: readonly { fullPath: string; updatedAfter: string }[],
    signal?: AbortSignal,
  ): Promise<({ id: number; updatedAt: string; status: string }[] | null)[]> {
    const variables: Record<string, unknown> = {};
    requests.forEach((r, i) => {
      variables[`p${i}`] = r.fullPath;
      variables[`u${i}`] = r.updatedAfter;
    });
    const data = await this.run(changesQuery(requests.length), variables, signal);
    return requests.map((r, i) => {
      const parsed = changesSchema.safeParse(data[`p${i}`] ?? null);
      if (!parsed.success) {
        this.onMalformed(`pipeline changes of ${r.fullPath}`, describeIssue(parsed.error));
        return [{ id: 0, updatedAt: '', status: '' }]; // unreadable: treat as changed, the full read decides
      }
      if (!parsed.data?.pipelines) return null;
      // A node that does not parse counts as a change: the full read then drops and logs it.
      return parsed.data.pipelines.nodes.map((raw) => {
        const node = changeNodeSchema.safeParse(raw);
        return node.success ? node.data : { id: 0, updatedAt: '', status: '' };
      });
    });
  }

  /** One page of pipeline ids with creation times per project (newest first). */
  async ids(
    requests: readonly { fullPath: string; after?: string | null }[],
    signal?: AbortSignal,
  ): Promise<
    ({
      ids: { id: number; createdAt: string }[];
      endCursor: string | null;
      hasNextPage: boolean;
    } | null)[]
  > {
    const variables: Record<string, unknown> = {};
    requests.forEach((r, i) => {
      variables[`p${i}`] = r.fullPath;
      variables[`a${i}`] = r.after ?? null;
    });
    const data = await this.run(idsQuery(requests.length), variables, signal);
    return requests.map((r, i) => {
      const parsed = idsSchema.safeParse(data[`p${i}`] ?? null);
      if (!parsed.success) {
        throw new AppError(
          'upstream_unavailable',
          `GitLab's GraphQL API sent malformed pipeline ids for ${r.fullPath} (${describeIssue(parsed.error)})`,
        );
      }
      if (!parsed.data?.pipelines) return null;
      const ids: { id: number; createdAt: string }[] = [];
      for (const raw of parsed.data.pipelines.nodes) {
        const node = idNodeSchema.safeParse(raw);
        if (node.success) ids.push(node.data);
        else this.onMalformed(`a pipeline id of ${r.fullPath}`, describeIssue(node.error));
      }
      return {
        ids,
        endCursor: parsed.data.pipelines.pageInfo.endCursor,
        hasNextPage: parsed.data.pipelines.pageInfo.hasNextPage,
      };
    });
  }

  /**
   * The test report summaries of pipelines (REST's `test_report_summary`, suites only summed into
   * `total`), keyed by pipeline id, in one request for every project given.
   */
  async testReportSummaries(
    requests: readonly { fullPath: string; pipelineIds: readonly number[] }[],
    signal?: AbortSignal,
  ): Promise<Map<number, BulkTestSummary>> {
    const variables: Record<string, unknown> = {};
    requests.forEach((r, i) => {
      variables[`p${i}`] = r.fullPath;
      r.pipelineIds.forEach(
        (id, k) => (variables[`i${i}_${k}`] = `gid://gitlab/Ci::Pipeline/${id}`),
      );
    });
    const query = testSummariesQuery(requests.map((r) => r.pipelineIds.length));
    const data = await this.run(query, variables, signal, 'test report summaries (GraphQL)');
    const out = new Map<number, BulkTestSummary>();
    requests.forEach((r, i) => {
      const project = data[`p${i}`] as Record<string, unknown> | null | undefined;
      r.pipelineIds.forEach((id, k) => {
        // A project GitLab does not show answers null, and so do its pipelines.
        const parsed = summaryPipelineSchema.safeParse(project ? (project[`t${k}`] ?? null) : null);
        if (!parsed.success) {
          this.onMalformed(`the test summary of pipeline ${id}`, describeIssue(parsed.error));
          out.set(id, 'rest');
          return;
        }
        if (!parsed.data) return out.set(id, null);
        const suites = parsed.data.testReportSummary.testSuites;
        if (suites.pageInfo.hasNextPage) return out.set(id, 'rest');
        out.set(id, this.toSummary(id, suites.nodes));
      });
    });
    return out;
  }

  /** REST's summary shape from GraphQL's suites, checked by the REST schema; 'rest' if it fails. */
  private toSummary(
    pipelineId: number,
    nodes: readonly z.infer<typeof suiteNodeSchema>[],
  ): GitLabTestReportSummary | 'rest' {
    const parsed = testReportSummarySchema.shape.test_suites.safeParse(
      nodes.map((n) => ({
        name: n.name,
        total_time: n.totalTime,
        total_count: n.totalCount,
        success_count: n.successCount,
        failed_count: n.failedCount,
        skipped_count: n.skippedCount,
        error_count: n.errorCount,
        build_ids: n.buildIds ?? [],
        suite_error: n.suiteError,
      })),
    );
    if (!parsed.success) {
      this.onMalformed(`the test summary of pipeline ${pipelineId}`, describeIssue(parsed.error));
      return 'rest';
    }
    const suites = parsed.data as GitLabTestReportSummary['test_suites'];
    // REST's `total` sums the suites; GraphQL's would cost 7 more points a pipeline.
    const sum = (pick: (s: (typeof suites)[number]) => number) =>
      suites.reduce((t, s) => t + pick(s), 0);
    return {
      total: {
        time: sum((s) => s.total_time),
        count: sum((s) => s.total_count),
        success: sum((s) => s.success_count),
        failed: sum((s) => s.failed_count),
        skipped: sum((s) => s.skipped_count),
        error: sum((s) => s.error_count),
        suite_error: suites.find((s) => s.suite_error !== null)?.suite_error ?? null,
      },
      test_suites: suites,
    };
  }

  private async run(
    query: string,
    variables: Record<string, unknown>,
    signal: AbortSignal | undefined,
    what = 'pipelines (GraphQL)',
  ): Promise<Record<string, unknown>> {
    const raw = await this.post(query, variables, what, signal);
    const parsed = responseSchema.safeParse(raw);
    if (!parsed.success) {
      throw new GraphQLRefusal(
        'not-graphql',
        `the answer is not a GraphQL response (${describeIssue(parsed.error)})`,
      );
    }
    const { data, errors } = parsed.data;
    // GitLab refuses a whole query (complexity, depth, parse errors) with errors and no data.
    if (errors && errors.length > 0 && !data) throw refusalOfErrors(errors[0]!.message);
    if (!data) throw new GraphQLRefusal('not-graphql', 'no data');
    return data;
  }

  private absolute(pathOrUrl: string): string | null {
    try {
      const url = new URL(pathOrUrl, this.origin);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
    } catch {
      return null;
    }
  }

  private toPipeline(node: z.infer<typeof nodeSchema>, projectId: number): GitLabPipeline {
    const webUrl = this.absolute(node.path) ?? `${this.origin}/`;
    return {
      id: node.id,
      iid: Number(node.iid),
      project_id: projectId,
      sha: node.sha,
      ref: node.ref ?? '',
      status: node.status as GitLabPipeline['status'],
      source: node.source ?? '',
      created_at: node.createdAt,
      updated_at: node.updatedAt,
      web_url: webUrl,
      before_sha: '',
      tag: false,
      yaml_errors: null,
      user: node.user
        ? {
            id: node.user.id,
            username: node.user.username,
            name: node.user.name,
            state: 'active',
            avatar_url: node.user.avatarUrl ? this.absolute(node.user.avatarUrl) : null,
            web_url: `${this.origin}/${encodeURIComponent(node.user.username)}`,
          }
        : null,
      started_at: node.startedAt,
      finished_at: node.finishedAt,
      committed_at: null,
      duration: node.duration,
      queued_duration: node.queuedDuration,
      coverage: null,
    };
  }
}
