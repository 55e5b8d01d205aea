// Issue 15 §2: bad upstream data never reaches /api/* output. The simulator's `rewrite` faults turn
// it into a hostile GitLab (wrong types, `javascript:` links, an endless next-page chain) and every
// route is inspected. Wire rules: doc/api/rest/index.md (ids are integers, links are URLs),
// doc/api/rest/index.md#pagination (x-next-page / Link), doc/api/graphql (pageInfo.hasNextPage).
import { afterEach, describe, expect, it } from 'vitest';
import { LIST_CAPS } from '../gitlab/client.ts';
import type { RewritableReply } from '../simulator/index.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Calls `visit` on every object inside `value`. */
function walk(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (value && typeof value === 'object') {
    visit(value as Record<string, unknown>);
    for (const child of Object.values(value)) walk(child, visit);
  }
}

const isPipeline = (node: Record<string, unknown>, id: number) =>
  node.id === id || node.id === `gid://gitlab/Ci::Pipeline/${id}`;

async function sseFirstEvent(url: string): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return text;
}

describe('a hostile GitLab', () => {
  it('wrong types, javascript: links and an endless page chain never reach any /api route', async () => {
    h = await startHarness({ simulator: { projects: 4 } });
    const sim = h.simulator;
    const [projectA, projectB, projectC] = sim.projectIds();
    const wrongType = sim.startPipeline(projectA).pipelineId;
    const scriptLink = sim.startPipeline(projectB).pipelineId;
    const poisoned = [wrongType, scriptLink];

    sim.faults.add({
      kind: 'rewrite',
      rewrite: (reply: RewritableReply) =>
        walk(reply.body, (node) => {
          if (isPipeline(node, wrongType)) {
            node.id = typeof node.id === 'number' ? `${wrongType}; DROP TABLE` : 'gid://x/y/z';
            node.iid = { nested: true };
          }
          if (isPipeline(node, scriptLink)) {
            node.web_url = 'javascript:alert(document.cookie)';
            node.path = 'javascript:alert(document.cookie)';
          }
          if ('avatar_url' in node || 'avatarUrl' in node) {
            // Every user and group avatar becomes a script link.
            if ('avatar_url' in node) node.avatar_url = 'javascript:alert(1)';
            if ('avatarUrl' in node) node.avatarUrl = 'javascript:alert(1)';
          }
        }),
    });
    // Project C's pipelines never end: the same page again and again, always "more".
    let firstPage: unknown[] | null = null;
    sim.faults.add({
      kind: 'rewrite',
      match: /graphql/,
      rewrite: (reply) =>
        walk(reply.body, (node) => {
          if (node.id !== `gid://gitlab/Project/${projectC}`) return;
          const pipelines = node.pipelines as
            { pageInfo: Record<string, unknown>; nodes: unknown[] } | undefined;
          if (!pipelines?.pageInfo) return;
          if (pipelines.nodes.length > 0) firstPage ??= pipelines.nodes;
          pipelines.nodes = firstPage ?? pipelines.nodes;
          pipelines.pageInfo.hasNextPage = true;
          pipelines.pageInfo.endCursor = 'c3RpbGwgbW9yZQ==';
        }),
    });

    // A full re-read of the window through the hostile answers.
    h.service.poller.retarget({ since: '7d' });
    await h.service.poller.cycleOnce();

    const routes = [
      '/api/pipelines/summary',
      '/api/pipelines/activity',
      `/api/pipelines/${projectA}/details/${wrongType}`,
      `/api/pipelines/${projectB}/details/${scriptLink}`,
      '/api/groups/acme',
      '/api/groups/acme/subgroups',
      '/api/settings',
      '/api/health',
      `/api/avatar?url=${encodeURIComponent('javascript:alert(1)')}`,
    ];
    const summary = (await h.api('/api/pipelines/summary')).body;
    const some = summary.projects.flatMap(
      (p: { project_id: number; recent_pipelines: { pipeline_id: number }[] }) =>
        p.recent_pipelines.map((r) => [p.project_id, r.pipeline_id]),
    )[0] as [number, number];
    routes.push(`/api/pipelines/${some[0]}/details/${some[1]}`);
    const details = (await h.api(`/api/pipelines/${some[0]}/details/${some[1]}`)).body;
    const job = details.jobs?.[0];
    if (job) routes.push(`/api/jobtrace?projectId=${some[0]}&jobId=${job.id}`);

    const bodies: string[] = [];
    for (const route of routes) {
      const res = await h.api(route);
      expect(res.status, route).toBeLessThan(600);
      bodies.push(`${route} ${res.status} ${JSON.stringify(res.body)}`);
    }
    bodies.push(await sseFirstEvent(`${h.service.url}/api/events/pipelines`));
    const everything = bodies.join('\n');

    expect(everything).not.toContain('javascript:');
    expect(everything).not.toContain('DROP TABLE');
    for (const id of poisoned) expect(everything).not.toMatch(new RegExp(`"pipeline_id":${id}\\b`));
    // The malformed pipelines are not kept in state either.
    expect(h.service.poller.pipelineUpdatedAt(projectA!, wrongType)).toBeUndefined();
    expect(h.service.poller.pipelineUpdatedAt(projectB!, scriptLink)).toBeUndefined();
    // Users lost their script avatars but not their pipelines: avatars are simply absent.
    expect(summary.summary.total_pipelines).toBeGreaterThan(0);

    // The endless chain stopped at the cap, and the status says so.
    const status = summary.status;
    expect(status.last_error).toMatch(/stopped at \d+ pages/);
    const projectCSummary = summary.projects.find(
      (p: { project_id: number }) => p.project_id === projectC,
    );
    expect(projectCSummary.total_pipelines).toBeLessThanOrEqual(LIST_CAPS.items);
    // Bounded work too: at most the page cap for the read and for the deletion check.
    expect(sim.stats.byKind.graphql).toBeLessThan(2 * LIST_CAPS.pages + 20);
  });
});

// doc/user/gitlab_com/index.md#gitlabcom-specific-rate-limits and doc/administration/settings/
// user_and_ip_rate_limits.md: a 429 carries Retry-After; one absurd value must not stall us for a day.
describe('Retry-After from a hostile or confused GitLab', () => {
  it('waits at most 5 minutes, and a settings change lets the next read go at once', async () => {
    h = await startHarness({ simulator: { projects: 2 } });
    // Aimed at the poller's pipeline read (GraphQL, or REST lists): group health reads jobs and
    // merge requests in the background meanwhile.
    h.simulator.faults.add({
      kind: 'status',
      status: 429,
      retryAfterSec: 86_400,
      times: 1,
      match: /\/api\/graphql|\/pipelines\?/,
    });
    const err = await h.service.poller.cycleOnce().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'upstream_unavailable' });
    const waitMs = (err as { retryAfterMs: number }).retryAfterMs;
    expect(waitMs).toBeGreaterThan(290_000);
    expect(waitMs).toBeLessThanOrEqual(300_000);
    expect(h.service.poller.status.last_error).toMatch(/wait (86400|300|29\d)s/);
    // Still paused: the next read fails fast instead of hanging or hammering GitLab.
    await expect(h.service.poller.cycleOnce()).rejects.toMatchObject({
      retryAfterMs: expect.any(Number),
    });
    const settings = await h.api('/api/settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ since: '3d' }),
    });
    expect(settings.status).toBe(200);
    await h.service.poller.cycleOnce();
    expect(h.service.poller.status.state).toBe('ok');
    expect(h.service.poller.status.last_error).toBeNull();
  });
});
