import { z } from 'zod';
import type { SettingsResponse, SettingsUpdateResponse } from '../contract.ts';
import { groupRefProblem } from '../gitlab/group-ref.ts';
import { AppError } from '../platform/errors.ts';
import type { RouteModule } from '../http/app.ts';
import { readJsonBody } from '../http/body.ts';
import { parseInput } from '../http/validation.ts';
import type { PipelinePoller } from '../summary/poller.ts';
import { parseSince } from '../summary/since.ts';
import type { SettingsStore } from './settings-store.ts';

const settingsUpdateSchema = z
  .object({
    group: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      // `.`, `..` and empty segments are a 400, never a request for /projects (issue 15 §2).
      .refine((ref) => groupRefProblem(ref) === null, {
        error: 'must be a group id or a path like acme/platform (no empty, . or .. segments)',
      })
      .optional(),
    since: z.string({ error: 'must be a string' }).trim().optional(),
  })
  .strict();

/** GET /api/settings and POST /api/settings (re-targets the poller at once and persists). */
export function settingsRoutes(deps: {
  poller: PipelinePoller;
  store: SettingsStore;
  forgeUrl: string;
}): RouteModule {
  return (router) => {
    router.get('/settings', (ctx) => {
      const body: SettingsResponse = { ...deps.poller.target, forgeUrl: deps.forgeUrl };
      ctx.body = body;
    });
    router.post('/settings', async (ctx) => {
      const update = parseInput(settingsUpdateSchema, await readJsonBody(ctx, 16 * 1024), 'body');
      if (update.group === undefined && update.since === undefined) {
        throw new AppError('bad_request', "Send 'group', 'since' or both");
      }
      if (update.since !== undefined) parseSince(update.since);
      deps.poller.retarget(update);
      deps.store.write(update);
      const body: SettingsUpdateResponse = { success: true, ...deps.poller.target };
      ctx.body = body;
    });
  };
}
