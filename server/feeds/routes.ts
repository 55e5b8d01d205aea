import { z } from 'zod';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { parseInput } from '../http/validation.ts';
import { ccTrayProjects, ccTrayXml, type CcTraySource } from './cctray.ts';

/** Where the cctray feed is served (outside /api: monitors are configured with this URL). */
export const CCTRAY_PATH = '/cc.xml';

/** Most refs one request may list. */
const MAX_REFS = 50;

/**
 * GET /cc.xml query: `refs`, branches or tags to list besides each project's default branch,
 * comma-separated and/or repeated (`?refs=main,release/2.x&refs=develop`).
 */
export const CcTrayQuerySchema = z.object({
  refs: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) =>
      [value ?? []]
        .flat()
        .flatMap((list) => list.split(','))
        .map((ref) => ref.trim())
        .filter((ref) => ref !== ''),
    )
    .pipe(
      z
        .array(
          z
            .string()
            .max(255, { error: 'has a ref longer than 255 characters' })
            // Git refuses control characters in ref names (git-check-ref-format), so none can match.
            // eslint-disable-next-line no-control-regex -- matching control characters is the point
            .regex(/^[^\u0000-\u001f\u007f]+$/, { error: 'has a ref with a control character' }),
        )
        .max(MAX_REFS, { error: `lists more than ${MAX_REFS} refs` }),
    ),
});

const CCTRAY_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: CCTRAY_PATH,
    tag: 'Feeds',
    summary: 'The cctray feed of the watched projects, for menu-bar build monitors',
    docs: 'get-ccxml',
    additive: true,
    query: CcTrayQuerySchema,
    response: {
      description: 'cctray XML: one `<Project>` per default branch and per asked ref.',
      contentTypes: ['application/xml'],
    },
  },
];

/** What the feed reads: group health's current view of the history (whole retention read). */
export interface CcTrayDeps {
  source: () => Promise<CcTraySource>;
}

/** GET /cc.xml: the cctray feed of the watched projects (see cctray.ts). */
export function ccTrayRoutes(deps: CcTrayDeps): RouteModule {
  return describedRoutes(CCTRAY_DOCS, (router) => {
    router.get(CCTRAY_PATH, async (ctx) => {
      const { refs } = parseInput(CcTrayQuerySchema, ctx.query, 'query');
      const projects = ccTrayProjects(await deps.source(), refs);
      ctx.type = 'application/xml; charset=utf-8';
      // Monitors poll every few seconds and must see the state now, never a cached one.
      ctx.set('Cache-Control', 'no-store');
      ctx.body = ccTrayXml(projects);
    });
  });
}
