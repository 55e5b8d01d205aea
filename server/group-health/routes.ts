import { z } from 'zod';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';
import { AppError } from '../platform/errors.ts';
import { isValidSince } from '../summary/since.ts';
import type { HealthService } from './health-service.ts';

const sinceSchema = z
  .string()
  .refine(isValidSince, { error: 'must be a positive whole number followed by m, h, d or w' })
  .optional();
const windowQuerySchema = z.object({ since: sinceSchema });
/** Longest trend asked for; the service clamps it to the history's retention anyway. */
const MAX_TREND_DAYS = 3650;
const trendsQuerySchema = z.object({
  projectId: idParamSchema,
  days: z
    .string()
    .regex(/^[0-9]{1,9}$/, { error: `must be a whole number of days from 1 to ${MAX_TREND_DAYS}` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_TREND_DAYS, {
      error: `must be a whole number of days from 1 to ${MAX_TREND_DAYS}`,
    })
    .optional(),
});

const isoSchema = z
  .string()
  .refine((v) => !Number.isNaN(Date.parse(v)), { error: 'must be an ISO 8601 timestamp' })
  .transform((v) => Date.parse(v))
  .optional();
const failuresQuerySchema = z
  .object({
    since: sinceSchema,
    projectId: idParamSchema.optional(),
    ref: z.string().min(1).max(255, { error: 'is too long' }).optional(),
    source: z.string().min(1).max(64, { error: 'is too long' }).optional(),
    scope: z
      .enum(['default_branch', 'merge_requests', 'all'], {
        error: 'must be default_branch, merge_requests or all',
      })
      .optional(),
    user: z.string().min(1).max(255, { error: 'is too long' }).optional(),
    flaky: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    from: isoSchema,
    to: isoSchema,
    page: z
      .string()
      .regex(/^[1-9][0-9]{0,8}$/, { error: 'must be a positive integer' })
      .transform(Number)
      .optional(),
    pageSize: z
      .string()
      .regex(/^[1-9][0-9]{0,8}$/, { error: 'must be a positive integer' })
      .transform(Number)
      .optional(),
  })
  // An empty span would list nothing and look like "no failures"; say which bound is wrong.
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ['from'],
    error: "must not be later than 'to'",
  });

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/health/default-branches',
    tag: 'Group health',
    summary: "Every project's default branch, broken first, with time to fix and success rates",
    docs: 'get-apihealthdefault-branches',
    additive: true,
    query: windowQuerySchema,
    response: {
      description: '`{window, broken, passing, unknown, projects, success_rates, time_to_fix}`.',
    },
  },
  {
    method: 'get',
    path: '/health/flaky-jobs',
    tag: 'Group health',
    summary: 'Job names that failed and passed on the same commit, most flakes first',
    docs: 'get-apihealthflaky-jobs',
    additive: true,
    query: windowQuerySchema,
    response: { description: '`{window, jobs}`.' },
  },
  {
    method: 'get',
    path: '/health/regressions',
    tag: 'Group health',
    summary: 'Jobs and default-branch pipelines that got materially slower, and the rule used',
    docs: 'get-apihealthregressions',
    additive: true,
    response: { description: '`{rule, regressions}`.' },
  },
  {
    method: 'get',
    path: '/health/trends',
    tag: 'Group health',
    summary: "A project's daily duration and queue percentiles per job",
    docs: 'get-apihealthtrends',
    additive: true,
    query: trendsQuerySchema,
    response: { description: '`{project_id, project_name, from, to, pipeline, jobs}`.' },
  },
  {
    method: 'get',
    path: '/pipelines/failures',
    tag: 'Group health',
    summary: 'Every failed pipeline of the window, filtered and paged',
    docs: 'get-apipipelinesfailures',
    additive: true,
    query: failuresQuerySchema,
    response: { description: '`{window, failures, pagination}`.' },
  },
];
/**
 * GET /api/health/default-branches, /api/health/flaky-jobs, /api/health/regressions,
 * /api/health/trends and /api/pipelines/failures (additive routes; shapes in server/group-health/contract.ts).
 */
export function healthRoutes(deps: { health: HealthService }): RouteModule {
  const { health } = deps;
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/health/default-branches', async (ctx) => {
      const { since } = parseInput(windowQuerySchema, ctx.query, 'query');
      ctx.body = await health.defaultBranches(since);
    });
    router.get('/health/flaky-jobs', async (ctx) => {
      const { since } = parseInput(windowQuerySchema, ctx.query, 'query');
      ctx.body = await health.flakyJobs(since);
    });
    router.get('/health/regressions', async (ctx) => {
      ctx.body = await health.regressions();
    });
    router.get('/health/trends', async (ctx) => {
      const { projectId, days } = parseInput(trendsQuerySchema, ctx.query, 'query');
      const trends = await health.trends(projectId, days);
      if (!trends) throw new AppError('not_found', `Project ${projectId} is not watched`);
      ctx.body = trends;
    });
    router.get('/pipelines/failures', async (ctx) => {
      const q = parseInput(failuresQuerySchema, ctx.query, 'query');
      ctx.body = await health.failures({
        since: q.since,
        projectId: q.projectId,
        ref: q.ref,
        source: q.source,
        scope: q.scope,
        user: q.user,
        flaky: q.flaky === undefined ? undefined : q.flaky === 'true',
        from: q.from,
        to: q.to,
        page: q.page ?? 1,
        // Like the AI history: above 100 is clamped, not refused.
        pageSize: Math.min(q.pageSize ?? 20, 100),
      });
    });
  });
}
