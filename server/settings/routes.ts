import { z } from 'zod';
import type { SettingsResponse, SettingsUpdateResponse } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { groupRefProblem } from '../gitlab/group-ref.ts';
import { AppError, isAppError } from '../platform/errors.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { readJsonBody } from '../http/body.ts';
import { parseInput } from '../http/validation.ts';
import type { PipelinePoller } from '../summary/poller.ts';
import { checkSince, parseSince } from '../summary/since.ts';
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

const sinceQuerySchema = z.object({ value: z.string({ error: 'must be a string' }).max(64) });

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/settings',
    tag: 'Settings',
    summary: 'The group and window being watched, and the GitLab URL',
    docs: 'get-apisettings',
    response: { description: '`{group, since, forgeUrl}`.' },
  },
  {
    method: 'get',
    path: '/settings/since',
    tag: 'Settings',
    summary: "Checks a time window by the service's own rule",
    docs: 'get-apisettingssince',
    additive: true,
    query: sinceQuerySchema,
    response: { description: '`{since, valid: true, ms}` or `{since, valid: false, error}`.' },
  },
  {
    method: 'post',
    path: '/settings',
    tag: 'Settings',
    summary: 'Re-targets the poller at a group and/or window, at once, and saves them',
    docs: 'post-apisettings',
    body: settingsUpdateSchema,
    response: { description: '`{success, group, since}`.' },
  },
];

/** GET /api/settings and POST /api/settings (re-targets the poller at once and persists). */
export function settingsRoutes(deps: {
  poller: PipelinePoller;
  store: SettingsStore;
  forgeUrl: string;
  /** Asked whether a new group exists before it is saved. */
  gitlab: Pick<GitLabApi, 'getGroup'>;
}): RouteModule {
  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/settings', (ctx) => {
      const body: SettingsResponse = { ...deps.poller.target, forgeUrl: deps.forgeUrl };
      ctx.body = body;
    });
    // Additive: the form checks a window as the user types, by the service's own rule.
    router.get('/settings/since', (ctx) => {
      const { value } = parseInput(sinceQuerySchema, ctx.query, 'query');
      ctx.body = checkSince(value.trim());
    });
    router.post('/settings', async (ctx) => {
      const update = parseInput(settingsUpdateSchema, await readJsonBody(ctx, 16 * 1024), 'body');
      if (update.group === undefined && update.since === undefined) {
        throw new AppError('bad_request', "Send 'group', 'since' or both");
      }
      if (update.since !== undefined) parseSince(update.since);
      if (update.group !== undefined && update.group !== deps.poller.target.group) {
        // A group GitLab says does not exist is refused (404, "… not found"); when GitLab cannot be
        // asked, the group is saved and the summary reports GitLab's state as usual.
        await deps.gitlab.getGroup(update.group).catch((err: unknown) => {
          if (isAppError(err, 'not_found')) throw err;
        });
      }
      deps.poller.retarget(update);
      deps.store.write(update);
      const body: SettingsUpdateResponse = { success: true, ...deps.poller.target };
      ctx.body = body;
    });
  });
}
