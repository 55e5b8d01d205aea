import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import { startSimulator, type GitLabSimulator } from './index.ts';
import { simGet, simJson } from './testing/http.ts';

// GitLab's group merge request list, as doc/api/merge_requests.md "List group merge requests"
// documents it (https://docs.gitlab.com/api/merge_requests/#list-group-merge-requests): the group
// and its subgroups, `state`, `author_id` xor `author_username`, `scope`, `order_by`/`sort`,
// `non_archived` (default true), offset pagination with x-* and Link headers.
interface ListedMr {
  iid: number;
  project_id: number;
  state: string;
  sha: string | null;
  author: { id: number; username: string } | null;
  source_branch: string;
  target_branch: string;
  created_at: string;
  updated_at: string;
  web_url: string;
}

let sim: GitLabSimulator;
let me: { id: number; username: string };
beforeAll(async () => {
  sim = await startSimulator({ live: false, clock: new ManualClock(), projects: 8, days: 6 });
  me = await simJson(sim, '/user');
});
afterAll(async () => {
  await sim.close();
});

describe('GET /groups/:id/merge_requests', () => {
  it('lists the merge requests of the group and its subgroups, newest first, every page', async () => {
    const all = await simJson<ListedMr[]>(sim, '/groups/acme/merge_requests?per_page=100');
    expect(all.length).toBeGreaterThan(5);
    const created = all.map((m) => Date.parse(m.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    // Projects of subgroups are in (acme/platform/…), not only acme's own.
    const sub = await simJson<ListedMr[]>(
      sim,
      '/groups/acme%2Fplatform/merge_requests?per_page=100',
    );
    expect(sub.length).toBeGreaterThan(0);
    expect(sub.every((m) => all.some((a) => a.web_url === m.web_url))).toBe(true);
    expect(sub.length).toBeLessThan(all.length);
    // Pages of 2, with GitLab's headers.
    const first = await simGet(sim, '/groups/acme/merge_requests?per_page=2');
    expect(first.headers.get('x-total')).toBe(String(all.length));
    expect(first.headers.get('x-per-page')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-total-pages')).toBe(String(Math.ceil(all.length / 2)));
    expect(first.headers.get('link')).toContain('rel="next"');
    expect((first.body as ListedMr[]).map((m) => m.web_url)).toEqual(
      all.slice(0, 2).map((m) => m.web_url),
    );
  });

  it('filters by state and author, and refuses author_id with author_username', async () => {
    const all = await simJson<ListedMr[]>(sim, '/groups/acme/merge_requests?per_page=100');
    const open = await simJson<ListedMr[]>(
      sim,
      '/groups/acme/merge_requests?state=opened&per_page=100',
    );
    expect(open.length).toBe(all.filter((m) => m.state === 'opened').length);
    expect(open.every((m) => m.state === 'opened' && m.sha !== null)).toBe(true);
    const author = open[0]!.author!;
    const byId = await simJson<ListedMr[]>(
      sim,
      `/groups/acme/merge_requests?state=opened&author_id=${author.id}&per_page=100`,
    );
    expect(byId.length).toBe(open.filter((m) => m.author?.id === author.id).length);
    expect(byId.length).toBeGreaterThan(0);
    const byName = await simJson<ListedMr[]>(
      sim,
      `/groups/acme/merge_requests?state=opened&author_username=${author.username}&per_page=100`,
    );
    expect(byName).toEqual(byId);
    const mine = await simJson<ListedMr[]>(
      sim,
      '/groups/acme/merge_requests?scope=created_by_me&per_page=100',
    );
    expect(mine.every((m) => m.author?.id === me.id)).toBe(true);
    const both = await simGet(
      sim,
      `/groups/acme/merge_requests?author_id=${author.id}&author_username=${author.username}`,
    );
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'author_id, author_username are mutually exclusive' });
    expect((await simGet(sim, '/groups/acme/merge_requests?state=open')).status).toBe(400);
    expect((await simGet(sim, '/groups/nope/merge_requests')).status).toBe(404);
  });

  it('orders by updated_at ascending when asked', async () => {
    const asc = await simJson<ListedMr[]>(
      sim,
      '/groups/acme/merge_requests?order_by=updated_at&sort=asc&per_page=100',
    );
    const updated = asc.map((m) => Date.parse(m.updated_at));
    expect(updated).toEqual([...updated].sort((a, b) => a - b));
  });
});
