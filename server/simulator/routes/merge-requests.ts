import type { SimMergeRequest, SimProject } from '../model.ts';
import { param, type HandlerDeps, type SimRouteModule } from './context.ts';
import { findGroup, pageOf } from './groups.ts';
import { bool, compare, date, HttpError, oneOf, sortDir } from './reply.ts';

// doc/api/merge_requests.md, "List group merge requests": `order_by` and `scope` values.
const ORDER = new Set(['created_at', 'updated_at', 'title']);
const SCOPES = new Set(['created_by_me', 'assigned_to_me', 'all']);
const STATES = new Set(['opened', 'closed', 'locked', 'merged', 'all']);

/** A merge request as the group list sees it: its state, head commit and last activity. */
interface ListedMergeRequest {
  project: SimProject;
  mr: SimMergeRequest;
  state: 'opened' | 'merged';
  sha: string | null;
  updatedAt: number;
}

/**
 * Every merge request of a project. An MR is open while its branch is (the generator deletes a
 * branch when it merges it); its head commit is the branch's last commit, else that of its newest
 * pipeline; its last activity is its newest pipeline's.
 */
function listed(project: SimProject): ListedMergeRequest[] {
  const open = new Map(project.gen.branches.map((b) => [b.mrIid, b]));
  const out: ListedMergeRequest[] = [];
  for (const mr of project.mergeRequests.values()) {
    const ref = `refs/merge-requests/${mr.iid}/head`;
    const newest = project.pipelines.findLast((p) => !p.deleted && p.ref === ref);
    const branch = open.get(mr.iid);
    out.push({
      project,
      mr,
      state: branch ? 'opened' : 'merged',
      sha: branch?.lastSha ?? newest?.sha ?? null,
      updatedAt: Math.max(mr.createdAt, newest?.updatedAt ?? 0),
    });
  }
  return out;
}

/**
 * GET /groups/:id/merge_requests: the merge requests of the group and its subgroups (always
 * included, doc/api/merge_requests.md), filtered by `state`, `author_id` | `author_username`
 * (mutually exclusive), `scope`, `source_branch`, `target_branch`, `created_after|before`,
 * `updated_after|before` and `non_archived` (default true), ordered by `order_by` (default
 * `created_at`) and `sort` (default `desc`), in GitLab's offset pagination.
 */
export const mergeRequestRoutes: SimRouteModule = (router, deps: HandlerDeps) => {
  router.get('/groups/:id/merge_requests', (ctx) => {
    const group = findGroup(deps, param(ctx.params, 'id'));
    const url = ctx.state.url;
    const q = url.searchParams;
    if (q.has('author_id') && q.has('author_username'))
      throw new HttpError(400, { error: 'author_id, author_username are mutually exclusive' });
    const state = oneOf(q, 'state', STATES, 'all');
    const scope = oneOf(q, 'scope', SCOPES, 'all');
    const orderBy = oneOf(q, 'order_by', ORDER, 'created_at');
    const dir = sortDir(q, 'desc');
    const authorIdRaw = q.get('author_id');
    if (authorIdRaw !== null && !/^\d+$/.test(authorIdRaw))
      throw new HttpError(400, { error: 'author_id is invalid' });
    const authorUsername = q.get('author_username');
    const nonArchived = bool(q.get('non_archived')) ?? true;
    const bounds = {
      createdAfter: date(q, 'created_after'),
      createdBefore: date(q, 'created_before'),
      updatedAfter: date(q, 'updated_after'),
      updatedBefore: date(q, 'updated_before'),
    };
    const prefix = `${group.fullPath}/`;
    const me = ctx.state.user!;
    const items = deps.data.projects
      .filter((p) => p.fullPath.startsWith(prefix) && !(nonArchived && p.archived))
      .flatMap(listed)
      .filter((x) => {
        if (state !== 'all' && x.state !== state) return false;
        const author = deps.data.userById.get(x.mr.authorId);
        if (authorIdRaw !== null && x.mr.authorId !== Number(authorIdRaw)) return false;
        if (authorUsername !== null && author?.username !== authorUsername) return false;
        if (scope === 'created_by_me' && x.mr.authorId !== me.id) return false;
        // Simulated merge requests have no assignees.
        if (scope === 'assigned_to_me') return false;
        const source = q.get('source_branch');
        if (source !== null && x.mr.sourceBranch !== source) return false;
        const target = q.get('target_branch');
        if (target !== null && x.project.defaultBranch !== target) return false;
        if (bounds.createdAfter !== null && x.mr.createdAt < bounds.createdAfter) return false;
        if (bounds.createdBefore !== null && x.mr.createdAt > bounds.createdBefore) return false;
        if (bounds.updatedAfter !== null && x.updatedAt < bounds.updatedAfter) return false;
        if (bounds.updatedBefore !== null && x.updatedAt > bounds.updatedBefore) return false;
        return true;
      });
    const key = (x: ListedMergeRequest): string | number =>
      orderBy === 'title' ? x.mr.title : orderBy === 'updated_at' ? x.updatedAt : x.mr.createdAt;
    items.sort(
      (a, b) =>
        dir * compare(key(a), key(b)) ||
        dir * (a.project.id * 1_000 + a.mr.iid - (b.project.id * 1_000 + b.mr.iid)),
    );
    ctx.state.reply = pageOf(deps, items, url, (x) => ({
      ...deps.views.mergeRequest(x.project, x.mr),
      state: x.state,
      sha: x.sha,
      updated_at: new Date(x.updatedAt).toISOString(),
      references: {
        short: `!${x.mr.iid}`,
        relative: `${x.project.path}!${x.mr.iid}`,
        full: `${x.project.fullPath}!${x.mr.iid}`,
      },
    }));
  });
};
