import { z } from 'zod';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { parseInput } from '../http/validation.ts';
import { isValidSince } from '../summary/since.ts';
import type { MyMergeRequests } from './my-merge-requests.ts';
import type { TriageService } from './triage-service.ts';

/** Query of GET /api/failures/signatures. */
export const FailureSignaturesQuerySchema = z.object({
  since: z
    .string()
    .refine(isValidSince, { error: 'must be a positive whole number followed by m, h, d or w' })
    .optional(),
});

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/failures/signatures',
    tag: 'Triage',
    summary:
      'The same error across projects: failure signatures of the window, most widespread first',
    docs: 'get-apifailuressignatures',
    additive: true,
    query: FailureSignaturesQuerySchema,
    response: { description: '`{window, signatures}`.' },
  },
  {
    method: 'get',
    path: '/triage/mine',
    tag: 'Triage',
    summary:
      "The token user's open merge requests, each failing job with a verdict: broken on the default branch, flaky, new or unknown",
    docs: 'get-apitriagemine',
    additive: true,
    response: { description: '`{user, merge_requests}`.' },
  },
];

/** GET /api/failures/signatures and /api/triage/mine (additive; shapes in server/triage/contract.ts). */
export function triageRoutes(deps: { triage: TriageService; mine: MyMergeRequests }): RouteModule {
  const { triage, mine } = deps;
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/failures/signatures', async (ctx) => {
      const { since } = parseInput(FailureSignaturesQuerySchema, ctx.query, 'query');
      ctx.body = await triage.signatures(since);
    });
    router.get('/triage/mine', async (ctx) => {
      ctx.body = await mine.answer();
    });
  });
}
