import { z } from 'zod';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';
import { isValidSince } from '../summary/since.ts';
import type { TestReportService } from './test-report-service.ts';

const sinceSchema = z
  .string()
  .refine(isValidSince, { error: 'must be a positive whole number followed by m, h, d or w' })
  .optional();
const testText = (what: string) =>
  z
    .string({ error: `is required: the test's ${what} as GitLab's report names it` })
    .min(1, { error: `is required: the test's ${what} as GitLab's report names it` })
    .max(4096, { error: 'is too long' });

/** GET /api/tests/failing query. */
export const failingTestsQuerySchema = z.object({
  since: sinceSchema,
  projectId: idParamSchema.optional(),
});
/** GET /api/tests/history query. */
export const testHistoryQuerySchema = z.object({
  projectId: idParamSchema,
  classname: testText('classname'),
  name: testText('name'),
});
/** GET /api/health/flaky-tests query. */
export const flakyTestsQuerySchema = z.object({ since: sinceSchema });

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/tests/failing',
    tag: 'Tests',
    summary: 'Tests failing in the window across the group (JUnit reports), most failures first',
    docs: 'get-apitestsfailing',
    additive: true,
    query: failingTestsQuerySchema,
    response: { description: '`{window, tests}`.' },
  },
  {
    method: 'get',
    path: '/tests/history',
    tag: 'Tests',
    summary: "A test's results over the history's retention, newest first, and its rates",
    docs: 'get-apitestshistory',
    additive: true,
    query: testHistoryQuerySchema,
    response: {
      description:
        '`{project_id, project_name, classname, name, results, runs, failures, flakes, failure_rate, flake_rate}`.',
    },
  },
  {
    method: 'get',
    path: '/health/flaky-tests',
    tag: 'Group health',
    summary: 'Tests that failed and passed on the same commit, most flakes first',
    docs: 'get-apihealthflaky-tests',
    additive: true,
    query: flakyTestsQuerySchema,
    response: { description: '`{window, tests}`.' },
  },
];

/** GET /api/tests/failing, /api/tests/history and /api/health/flaky-tests (docs/test-reports.md). */
export function testReportRoutes(deps: { tests: TestReportService }): RouteModule {
  const { tests } = deps;
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/tests/failing', (ctx) => {
      const { since, projectId } = parseInput(failingTestsQuerySchema, ctx.query, 'query');
      ctx.body = tests.failing(since, projectId);
    });
    router.get('/tests/history', (ctx) => {
      const q = parseInput(testHistoryQuerySchema, ctx.query, 'query');
      ctx.body = tests.history(q.projectId, q.classname, q.name);
    });
    router.get('/health/flaky-tests', (ctx) => {
      const { since } = parseInput(flakyTestsQuerySchema, ctx.query, 'query');
      ctx.body = tests.flaky(since);
    });
  });
}
