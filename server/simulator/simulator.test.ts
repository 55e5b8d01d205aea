import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import type {
  GitLabCommit,
  GitLabGroup,
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
  GitLabUser,
} from '../gitlab/wire.ts';
import { startSimulator, type GitLabSimulator } from './index.ts';
import { simAllPages, simGet, simJson } from './testing/http.ts';

// Exhaustive key sets: `satisfies` fails the type-check if wire.ts gains or loses a field.
const LIST_KEYS = {
  id: true,
  iid: true,
  project_id: true,
  sha: true,
  ref: true,
  status: true,
  source: true,
  created_at: true,
  updated_at: true,
  web_url: true,
  name: true,
} satisfies Record<keyof GitLabPipelineListItem, true>;
const PIPELINE_KEYS = {
  ...LIST_KEYS,
  before_sha: true,
  tag: true,
  yaml_errors: true,
  user: true,
  started_at: true,
  finished_at: true,
  committed_at: true,
  duration: true,
  queued_duration: true,
  coverage: true,
} satisfies Record<keyof GitLabPipeline, true>;
const JOB_KEYS = {
  id: true,
  name: true,
  stage: true,
  status: true,
  ref: true,
  tag: true,
  allow_failure: true,
  created_at: true,
  started_at: true,
  finished_at: true,
  duration: true,
  queued_duration: true,
  failure_reason: true,
  web_url: true,
  user: true,
  commit: true,
  pipeline: true,
  artifacts: true,
  artifacts_expire_at: true,
} satisfies Record<keyof GitLabJob, true>;
const PROJECT_KEYS = {
  id: true,
  name: true,
  name_with_namespace: true,
  path: true,
  path_with_namespace: true,
  description: true,
  default_branch: true,
  web_url: true,
  archived: true,
  created_at: true,
  last_activity_at: true,
  namespace: true,
} satisfies Record<keyof GitLabProject, true>;
const GROUP_KEYS = {
  id: true,
  name: true,
  path: true,
  full_path: true,
  description: true,
  visibility: true,
  parent_id: true,
  web_url: true,
  avatar_url: true,
} satisfies Record<keyof GitLabGroup, true>;
const COMMIT_KEYS = {
  id: true,
  short_id: true,
  title: true,
  message: true,
  author_name: true,
  author_email: true,
  authored_date: true,
  committer_name: true,
  committer_email: true,
  committed_date: true,
  created_at: true,
  parent_ids: true,
  web_url: true,
} satisfies Record<keyof GitLabCommit, true>;
const USER_KEYS = {
  id: true,
  username: true,
  name: true,
  state: true,
  avatar_url: true,
  web_url: true,
} satisfies Record<keyof GitLabUser, true>;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function keysOf(o: object): string[] {
  return Object.keys(o).sort();
}

function expectKeys(o: object, keys: object, { optional = [] as string[] } = {}): void {
  const have = new Set(Object.keys(o));
  for (const key of Object.keys(keys)) {
    if (!optional.includes(key)) expect(have, `missing ${key}`).toContain(key);
  }
}

describe('GitLab simulator REST API', () => {
  let sim: GitLabSimulator;
  const clock = new ManualClock(Date.parse('2026-11-18T15:00:00Z'));
  let projects: GitLabProject[];
  let webApp: GitLabProject;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, live: false, clock, tokens: ['tok-a', 'tok-b'] });
    projects = (
      await simAllPages<GitLabProject>(
        sim,
        `/groups/acme/projects?include_subgroups=true&archived=false`,
      )
    ).items;
    webApp = projects.find((p) => p.path_with_namespace === 'acme/web/web-app')!;
  });
  afterAll(async () => {
    await sim.close();
  });

  it('looks groups up by id and by URL-encoded full path', async () => {
    const byPath = await simJson<GitLabGroup>(
      sim,
      '/groups/acme%2Fplatform%2Finfra?with_projects=false',
    );
    expectKeys(byPath, GROUP_KEYS);
    expect(byPath).toMatchObject({
      full_path: 'acme/platform/infra',
      path: 'infra',
      visibility: 'private',
    });
    const byId = await simJson<GitLabGroup>(sim, `/groups/${byPath.id}?with_projects=false`);
    expect(byId).toEqual(byPath);
    const top = await simJson<GitLabGroup & { projects: unknown[] }>(sim, '/groups/acme');
    expect(top).toMatchObject({ name: 'Acme Corp', parent_id: null });
    expect(top.avatar_url).toMatch(new RegExp(`^${sim.url}/uploads/`));
    // GET /groups/:id embeds the group's own projects unless with_projects=false, like GitLab.
    expect(top.projects.map((p) => (p as GitLabProject).path)).toEqual(['mobile-app']);
  });

  it('lists subgroups (sorted by name) and the top-level siblings', async () => {
    const children = await simJson<GitLabGroup[]>(sim, '/groups/acme/subgroups');
    expect(children.map((g) => g.full_path)).toEqual(['acme/data', 'acme/platform', 'acme/web']);
    const acme = await simJson<GitLabGroup>(sim, '/groups/acme?with_projects=false');
    expect(new Set(children.map((g) => g.parent_id))).toEqual(new Set([acme.id]));
    const platformChildren = await simJson<GitLabGroup[]>(sim, '/groups/acme%2Fplatform/subgroups');
    expect(platformChildren.map((g) => g.path)).toEqual(['infra']);
    const tops = await simJson<GitLabGroup[]>(sim, '/groups?top_level_only=true');
    expect(tops.map((g) => g.path)).toEqual(['acme', 'globex', 'initech']);
  });

  it('lists the group tree projects without the archived one when archived=false', async () => {
    expect(projects).toHaveLength(12);
    for (const p of projects) {
      expectKeys(p, PROJECT_KEYS);
      expect(p.archived).toBe(false);
      expect(p.path_with_namespace.startsWith('acme/')).toBe(true);
      expect(p.namespace.full_path).toBe(p.path_with_namespace.slice(0, -(p.path.length + 1)));
    }
    const all = (
      await simAllPages<GitLabProject>(sim, '/groups/acme/projects?include_subgroups=true')
    ).items;
    expect(all).toHaveLength(13);
    expect(all.filter((p) => p.archived).map((p) => p.path)).toEqual(['legacy-portal']);
    const direct = await simJson<GitLabProject[]>(sim, '/groups/acme/projects');
    expect(direct.map((p) => p.path)).toEqual(['mobile-app']);
    // The simple view, like GitLab's, has no `archived`.
    const simple = await simJson<Record<string, unknown>[]>(
      sim,
      '/groups/acme/projects?include_subgroups=true&archived=false&simple=true&order_by=id&sort=asc',
    );
    expect(simple.map((p) => p.id)).toEqual([...projects.map((p) => p.id)].sort((a, b) => a - b));
    expect(simple[0]).not.toHaveProperty('archived');
    expect(simple[0]).toHaveProperty('namespace');
  });

  it('serves pipeline list items with only the list fields', async () => {
    const list = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${webApp.id}/pipelines?per_page=50`,
    );
    expect(list.length).toBe(50);
    for (const item of list) {
      expect(keysOf(item)).toEqual(keysOf(LIST_KEYS));
      expect(item.created_at).toMatch(ISO);
      expect(item.updated_at >= item.created_at).toBe(true);
      expect(item.web_url).toBe(`${sim.url}/acme/web/web-app/-/pipelines/${item.id}`);
      expect(item.sha).toMatch(/^[0-9a-f]{40}$/);
    }
    // Newest first by id, by default.
    expect(list.map((p) => p.id)).toEqual([...list.map((p) => p.id)].sort((a, b) => b - a));
    expect(new Set(list.map((p) => p.project_id))).toEqual(new Set([webApp.id]));
  });

  it('serves the full single pipeline with user, times and an integer duration', async () => {
    const [item] = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${webApp.id}/pipelines?status=success&per_page=1`,
    );
    const p = await simJson<GitLabPipeline>(sim, `/projects/${webApp.id}/pipelines/${item!.id}`);
    expectKeys(p, PIPELINE_KEYS);
    expect(p).toMatchObject({ ...item, status: 'success' });
    expect(Number.isInteger(p.duration)).toBe(true);
    expect(p.duration).toBeGreaterThan(0);
    expect(p.started_at! >= p.created_at).toBe(true);
    expect(p.finished_at! >= p.started_at!).toBe(true);
    expectKeys(p.user!, USER_KEYS);
    expect(p.user!.avatar_url).toBe(
      `${sim.url}/uploads/-/system/user/avatar/${p.user!.id}/avatar.png`,
    );
  });

  it('serves jobs consistent with their pipeline, with float durations', async () => {
    const failed = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${webApp.id}/pipelines?status=failed&per_page=5`,
    );
    expect(failed.length).toBeGreaterThan(0);
    let sawFraction = false;
    for (const item of failed) {
      const jobs = await simJson<GitLabJob[]>(
        sim,
        `/projects/${webApp.id}/pipelines/${item.id}/jobs?per_page=100`,
      );
      const blocking = jobs.filter((j) => j.status === 'failed' && !j.allow_failure);
      expect(blocking.length).toBeGreaterThanOrEqual(1);
      const failStage = Math.max(
        ...blocking.map((j) => jobs.findIndex((x) => x.stage === j.stage)),
      );
      for (const job of jobs) {
        expectKeys(job, JOB_KEYS, { optional: ['failure_reason'] });
        expect(job.pipeline).toMatchObject({
          id: item.id,
          project_id: webApp.id,
          status: 'failed',
        });
        if (jobs.findIndex((x) => x.stage === job.stage) > failStage)
          expect(job.status).toBe('skipped');
        if (job.status === 'failed')
          expect(job.failure_reason).toMatch(/script_failure|job_execution_timeout/);
        else expect(job).not.toHaveProperty('failure_reason');
        if (job.duration !== null && !Number.isInteger(job.duration)) sawFraction = true;
      }
      expect(jobs.map((j) => j.id)).toEqual([...jobs.map((j) => j.id)].sort((a, b) => a - b));
    }
    expect(sawFraction).toBe(true);
    const one = await simJson<GitLabJob[]>(
      sim,
      `/projects/${webApp.id}/pipelines/${failed[0]!.id}/jobs`,
    );
    const single = await simJson<GitLabJob>(sim, `/projects/${webApp.id}/jobs/${one[0]!.id}`);
    expect(single).toEqual(one[0]);
    const onlyFailed = await simJson<GitLabJob[]>(
      sim,
      `/projects/${webApp.id}/pipelines/${failed[0]!.id}/jobs?scope[]=failed`,
    );
    expect(onlyFailed.every((j) => j.status === 'failed')).toBe(true);
    expect(onlyFailed.length).toBeGreaterThan(0);
  });

  it('serves the commit of a pipeline by full sha, short sha and branch name', async () => {
    const [item] = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${webApp.id}/pipelines?ref=main&per_page=1`,
    );
    const commit = await simJson<GitLabCommit>(
      sim,
      `/projects/${webApp.id}/repository/commits/${item!.sha}`,
    );
    expectKeys(commit, COMMIT_KEYS);
    expect(commit.id).toBe(item!.sha);
    expect(commit.short_id).toBe(item!.sha.slice(0, 8));
    expect(commit.message.startsWith(commit.title)).toBe(true);
    expect(commit.author_email).toMatch(/@acme\.example$/);
    expect(
      await simJson(sim, `/projects/${webApp.id}/repository/commits/${item!.sha.slice(0, 10)}`),
    ).toEqual(commit);
    expect(await simJson(sim, `/projects/${webApp.id}/repository/commits/main`)).toEqual(commit);
    const jobs = await simJson<GitLabJob[]>(
      sim,
      `/projects/${webApp.id}/pipelines/${item!.id}/jobs`,
    );
    expect(jobs[0]!.commit).toMatchObject({
      id: commit.id,
      title: commit.title,
      author_name: commit.author_name,
    });
  });

  it('accepts PRIVATE-TOKEN and Bearer tokens and answers /user for the token owner', async () => {
    const a = await simJson<GitLabUser>(sim, '/user');
    const b = await simGet(sim, '/user', {
      token: null,
      headers: { authorization: 'Bearer tok-b' },
    });
    expect(b.status).toBe(200);
    expect((b.body as GitLabUser).id).not.toBe(a.id);
    expectKeys(a, USER_KEYS);
  });

  it('answers 401 and 404 with GitLab bodies', async () => {
    for (const token of [null, 'nope']) {
      const res = await simGet(sim, `/projects/${webApp.id}/pipelines`, { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    }
    const cases: [string, unknown][] = [
      ['/projects/1', { message: '404 Project Not Found' }],
      ['/projects/acme%2Fnope/pipelines', { message: '404 Project Not Found' }],
      ['/groups/acme%2Fnope', { message: '404 Group Not Found' }],
      ['/groups/999/subgroups', { message: '404 Group Not Found' }],
      [`/projects/${webApp.id}/pipelines/1`, { message: '404 Not found' }],
      [`/projects/${webApp.id}/jobs/1`, { message: '404 Not found' }],
      [`/projects/${webApp.id}/jobs/1/trace`, { message: '404 Not found' }],
      [`/projects/${webApp.id}/repository/commits/deadbeef00`, { message: '404 Commit Not Found' }],
      ['/nothing/here', { error: '404 Not Found' }],
    ];
    for (const [path, body] of cases) {
      const res = await simGet(sim, path);
      expect([path, res.status, res.body]).toEqual([path, 404, body]);
    }
    // Another project's pipeline is not found through this project.
    const other = projects.find((p) => p.id !== webApp.id)!;
    const [foreign] = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${other.id}/pipelines?per_page=1`,
    );
    expect((await simGet(sim, `/projects/${webApp.id}/pipelines/${foreign!.id}`)).status).toBe(404);
    const bad = await simGet(sim, `/projects/${webApp.id}/pipelines?order_by=bogus`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('paginates with x-* headers and absolute Link URLs that keep the query', async () => {
    const path = `/projects/${webApp.id}/pipelines?ref=main&per_page=7&order_by=id&sort=desc`;
    const { items, pages } = await simAllPages<GitLabPipelineListItem>(sim, path);
    const total = Number(pages[0]!.get('x-total'));
    expect(items).toHaveLength(total);
    expect(new Set(items.map((p) => p.id)).size).toBe(total);
    expect(items.every((p) => p.ref === 'main')).toBe(true);
    expect(pages).toHaveLength(Math.ceil(total / 7));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((h, i) => {
      const page = i + 1;
      expect(h.get('x-page')).toBe(String(page));
      expect(h.get('x-per-page')).toBe('7');
      expect(h.get('x-total-pages')).toBe(String(pages.length));
      expect(h.get('x-prev-page')).toBe(page > 1 ? String(page - 1) : '');
      expect(h.get('x-next-page')).toBe(page < pages.length ? String(page + 1) : '');
      const link = h.get('link')!;
      const rels = Object.fromEntries(
        [...link.matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2]!, new URL(m[1]!)]),
      );
      expect(Object.keys(rels).sort()).toEqual(
        [
          'first',
          'last',
          ...(page > 1 ? ['prev'] : []),
          ...(page < pages.length ? ['next'] : []),
        ].sort(),
      );
      for (const u of Object.values(rels)) {
        expect(u.origin).toBe(sim.url);
        expect(u.searchParams.get('ref')).toBe('main');
        expect(u.searchParams.get('order_by')).toBe('id');
        expect(u.searchParams.get('per_page')).toBe('7');
      }
      expect(rels.last!.searchParams.get('page')).toBe(String(pages.length));
      expect(rels.first!.searchParams.get('page')).toBe('1');
    });
    // per_page is capped at 100; the default is 20.
    expect(
      (await simGet(sim, `/projects/${webApp.id}/pipelines?per_page=500`)).headers.get(
        'x-per-page',
      ),
    ).toBe('100');
    expect((await simJson<unknown[]>(sim, `/projects/${webApp.id}/pipelines`)).length).toBe(20);
  });

  it('filters by updated_after (inclusive) and orders by updated_at', async () => {
    const all = (
      await simAllPages<GitLabPipelineListItem>(
        sim,
        `/projects/${webApp.id}/pipelines?per_page=100`,
      )
    ).items;
    const cutoff = [...all].sort((a, b) => (a.updated_at < b.updated_at ? -1 : 1))[all.length - 15]!
      .updated_at;
    const recent = await simJson<GitLabPipelineListItem[]>(
      sim,
      `/projects/${webApp.id}/pipelines?updated_after=${encodeURIComponent(cutoff)}&order_by=updated_at&sort=asc&per_page=100`,
    );
    expect(recent).toHaveLength(all.filter((p) => p.updated_at >= cutoff).length);
    expect(recent.length).toBeGreaterThanOrEqual(15);
    expect(recent[0]!.updated_at).toBe(cutoff);
    const times = recent.map((p) => p.updated_at);
    expect(times).toEqual([...times].sort());
    const bad = await simGet(sim, `/projects/${webApp.id}/pipelines?updated_after=yesterday`);
    expect(bad.status).toBe(400);
  });

  // GitLab's GraphQL `Time` scalar serialises with `value.iso8601`: whole seconds, e.g.
  // `2021-03-09T14:58:50+00:00` (gitlabhq app/graphql/types/time_type.rb), where REST's entities
  // give milliseconds (`2016-08-11T11:28:34.085Z`, doc/api/pipelines.md).
  it('writes GraphQL Time values in whole seconds, REST ones in milliseconds', async () => {
    const rest = (
      await simAllPages<GitLabPipelineListItem>(
        sim,
        `/projects/${webApp.id}/pipelines?per_page=100`,
      )
    ).items;
    const res = await fetch(`${sim.url}/api/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'query($p: ID!) { project(fullPath: $p) { pipelines(first: 100) { nodes { id createdAt updatedAt startedAt finishedAt } } } }',
        variables: { p: webApp.path_with_namespace },
      }),
    });
    const body = (await res.json()) as {
      data: { project: { pipelines: { nodes: Record<string, string | null>[] } } };
    };
    const nodes = body.data.project.pipelines.nodes;
    expect(nodes.length).toBeGreaterThan(10);
    const restById = new Map(rest.map((p) => [p.id, p]));
    let fractional = 0;
    for (const node of nodes) {
      const item = restById.get(Number(/\d+$/.exec(node.id!)![0]))!;
      for (const field of ['createdAt', 'updatedAt', 'startedAt', 'finishedAt']) {
        const value = node[field];
        if (value === null) continue;
        expect(value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      }
      expect(item.updated_at).toMatch(ISO);
      // The same instant, the fraction dropped (not rounded).
      expect(node.updatedAt).toBe(item.updated_at.replace(/\.\d{3}Z$/, 'Z'));
      if (!item.updated_at.endsWith('.000Z')) fractional++;
    }
    // The comparison above is only worth something when REST carries milliseconds.
    expect(fractional).toBeGreaterThan(0);
  });

  it('has a realistic mix across the group', async () => {
    const statuses = new Map<string, number>();
    const sources = new Set<string>();
    const refs = new Set<string>();
    let total = 0;
    for (const p of projects) {
      const { items } = await simAllPages<GitLabPipelineListItem>(
        sim,
        `/projects/${p.id}/pipelines?per_page=100`,
      );
      for (const item of items) {
        total++;
        statuses.set(item.status, (statuses.get(item.status) ?? 0) + 1);
        sources.add(item.source);
        refs.add(
          item.ref.startsWith('refs/merge-requests/')
            ? 'mr'
            : item.ref.startsWith('v1.')
              ? 'tag'
              : item.ref === 'main'
                ? 'main'
                : 'branch',
        );
      }
    }
    expect(total).toBeGreaterThan(500);
    const share = (s: string): number => (statuses.get(s) ?? 0) / total;
    expect(share('success')).toBeGreaterThan(0.6);
    expect(share('failed')).toBeGreaterThan(0.08);
    expect(share('failed')).toBeLessThan(0.3);
    for (const s of ['canceled', 'skipped', 'manual'])
      expect(statuses.get(s) ?? 0).toBeGreaterThan(0);
    expect([...sources].sort()).toEqual([
      'api',
      'merge_request_event',
      'push',
      'schedule',
      'trigger',
      'web',
    ]);
    expect([...refs].sort()).toEqual(['branch', 'main', 'mr', 'tag']);
  });
});
