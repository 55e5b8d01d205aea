import type { SimGroup, SimProject } from '../model.ts';
import { param, type HandlerDeps, type SimRouteModule } from './context.ts';
import { bool, compare, HttpError, json, oneOf, paginate, sortDir, type Reply } from './reply.ts';

const PROJECT_ORDER = new Set([
  'id',
  'name',
  'path',
  'created_at',
  'updated_at',
  'last_activity_at',
  'similarity',
  'star_count',
]);
const GROUP_ORDER = new Set(['name', 'path', 'id', 'similarity']);

/** A group by numeric id or URL-encoded full path (case-insensitive, as GitLab resolves it). */
export function findGroup(deps: HandlerDeps, idOrPath: string): SimGroup {
  const { data } = deps;
  const group = /^\d+$/.test(idOrPath)
    ? data.groupById.get(Number(idOrPath))
    : data.groups.find((g) => g.fullPath.toLowerCase() === idOrPath.toLowerCase());
  if (!group) throw new HttpError(404, { message: '404 Group Not Found' });
  return group;
}

/** A JSON page of items in GitLab's offset pagination. */
export function pageOf<T>(
  deps: HandlerDeps,
  items: readonly T[],
  url: URL,
  view: (item: T) => unknown,
): Reply {
  const { page, headers } = paginate(items, url, deps.baseUrl());
  return json(200, page.map(view), headers);
}

function groupWithProjects(
  deps: HandlerDeps,
  group: SimGroup,
  q: URLSearchParams,
): Record<string, unknown> {
  const view: Record<string, unknown> = { ...deps.views.group(group) };
  if (bool(q.get('with_projects')) !== false) {
    view.projects = deps.data.projects
      .filter((p) => p.group === group)
      .slice(0, 100)
      .map((p) => deps.views.project(p, false));
    view.shared_projects = [];
  }
  return view;
}

function sortGroups(groups: SimGroup[], q: URLSearchParams): SimGroup[] {
  const orderBy = oneOf(q, 'order_by', GROUP_ORDER, 'name');
  const dir = sortDir(q, 'asc');
  const key = (g: SimGroup): string | number =>
    orderBy === 'id' ? g.id : orderBy === 'path' ? g.path : g.name.toLowerCase();
  return groups.sort((a, b) => dir * compare(key(a), key(b)) || a.id - b.id);
}

function searched(groups: SimGroup[], q: URLSearchParams): SimGroup[] {
  const search = q.get('search')?.toLowerCase();
  if (!search) return groups;
  return groups.filter((g) => g.name.toLowerCase().includes(search) || g.path.includes(search));
}

function listGroupProjects(deps: HandlerDeps, group: SimGroup, url: URL): Reply {
  const q = url.searchParams;
  const prefix = `${group.fullPath}/`;
  const deep = bool(q.get('include_subgroups')) === true;
  let projects = deps.data.projects.filter((p) =>
    deep ? p.fullPath.startsWith(prefix) : p.group === group,
  );
  const archived = bool(q.get('archived'));
  if (archived !== null) projects = projects.filter((p) => p.archived === archived);
  const search = q.get('search')?.toLowerCase();
  if (search) projects = projects.filter((p) => p.name.toLowerCase().includes(search));
  const orderBy = oneOf(q, 'order_by', PROJECT_ORDER, 'created_at');
  const dir = sortDir(q, 'desc');
  const lastActivity = (p: SimProject): number =>
    Math.max(p.createdAt, p.pipelines[p.pipelines.length - 1]?.updatedAt ?? 0);
  const key = (p: SimProject): string | number => {
    switch (orderBy) {
      case 'id':
        return p.id;
      case 'name':
        return p.name.toLowerCase();
      case 'path':
        return p.path;
      case 'updated_at':
      case 'last_activity_at':
        return lastActivity(p);
      case 'star_count':
        return p.id % 17;
      default:
        return p.createdAt;
    }
  };
  projects.sort((a, b) => dir * compare(key(a), key(b)) || dir * (a.id - b.id));
  const simple = bool(q.get('simple')) === true;
  return pageOf(deps, projects, url, (p) => deps.views.project(p, simple));
}

/** GET /groups, /groups/:id, its subgroups, descendant groups and projects. */
export const groupRoutes: SimRouteModule = (router, deps) => {
  const { data, views } = deps;
  router.get('/groups', (ctx) => {
    const { url } = ctx.state;
    let groups = [...data.groups];
    if (bool(url.searchParams.get('top_level_only')) === true)
      groups = groups.filter((g) => g.parentId === null);
    groups = searched(groups, url.searchParams);
    ctx.state.reply = pageOf(deps, sortGroups(groups, url.searchParams), url, (g) =>
      views.group(g),
    );
  });
  router.get('/groups/:id', (ctx) => {
    const group = findGroup(deps, param(ctx.params, 'id'));
    ctx.state.reply = json(200, groupWithProjects(deps, group, ctx.state.url.searchParams));
  });
  for (const [leaf, descendants] of [
    ['subgroups', false],
    ['descendant_groups', true],
  ] as const) {
    router.get(`/groups/:id/${leaf}`, (ctx) => {
      const group = findGroup(deps, param(ctx.params, 'id'));
      const { url } = ctx.state;
      const prefix = `${group.fullPath}/`;
      const groups = searched(
        data.groups.filter((g) =>
          descendants ? g.fullPath.startsWith(prefix) : g.parentId === group.id,
        ),
        url.searchParams,
      );
      ctx.state.reply = pageOf(deps, sortGroups(groups, url.searchParams), url, (g) =>
        views.group(g),
      );
    });
  }
  router.get('/groups/:id/projects', (ctx) => {
    const group = findGroup(deps, param(ctx.params, 'id'));
    ctx.state.reply = listGroupProjects(deps, group, ctx.state.url);
  });
};
