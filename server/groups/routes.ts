import { z } from 'zod';
import type { GroupResponse, SiblingGroupResponse, SubgroupResponse } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { groupRefSchema } from '../gitlab/group-ref.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { idParamSchema, parseInput } from '../http/validation.ts';

// Documentation only: the handlers validate `ctx.params` field by field with the same schemas.
const groupPathParams = z.object({
  path: groupRefSchema.describe('A group id or full path, slashes as they are: acme/platform'),
});
const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/groups/parent/:parentId',
    tag: 'Groups',
    summary: "A group's subgroups, by the parent's id (the group picker's siblings)",
    docs: 'get-apigroupsparentparentid',
    params: z.object({ parentId: idParamSchema }),
    response: { description: 'An array of `{id, name, path}`.' },
  },
  {
    method: 'get',
    path: '/groups/*path/subgroups',
    tag: 'Groups',
    summary: "A group's direct subgroups",
    docs: 'get-apigroupsgroupidorpathsubgroups',
    params: groupPathParams,
    response: { description: 'An array of `{id, name, path, full_path}`.' },
  },
  {
    method: 'get',
    path: '/groups/*path',
    tag: 'Groups',
    summary: 'One group',
    docs: 'get-apigroupsgroupidorpath',
    params: groupPathParams,
    response: {
      description: '`{id, name, path, full_path, description, visibility, parent_id}`.',
    },
  },
];

/** GET /api/groups/:idOrPath, /api/groups/:idOrPath/subgroups, /api/groups/parent/:parentId */
export function groupRoutes(deps: { gitlab: GitLabApi }): RouteModule {
  return describedRoutes(ROUTE_DOCS, (router) => {
    // Registered first so /groups/parent/12 is never read as a group path.
    router.get('/groups/parent/:parentId', async (ctx) => {
      const parentId = parseInput(idParamSchema, ctx.params.parentId, 'parentId');
      const groups = await deps.gitlab.listSubgroups(parentId);
      ctx.body = groups.map((g): SiblingGroupResponse => ({
        id: g.id,
        name: g.name,
        path: g.path,
      }));
    });
    // Paths contain slashes (acme/platform): match the rest of the URL, subgroups suffix first.
    router.get('/groups/*path/subgroups', async (ctx) => {
      const ref = parseInput(groupRefSchema, ctx.params.path, 'group');
      const groups = await deps.gitlab.listSubgroups(ref);
      ctx.body = groups.map((g): SubgroupResponse => ({
        id: g.id,
        name: g.name,
        path: g.path,
        full_path: g.full_path,
      }));
    });
    router.get('/groups/*path', async (ctx) => {
      const ref = parseInput(groupRefSchema, ctx.params.path, 'group');
      const g = await deps.gitlab.getGroup(ref);
      const body: GroupResponse = {
        id: g.id,
        name: g.name,
        path: g.path,
        full_path: g.full_path,
        description: g.description ?? '',
        visibility: g.visibility,
        parent_id: g.parent_id,
      };
      ctx.body = body;
    });
  });
}
