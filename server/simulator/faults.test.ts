import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import { startSimulator, type GitLabSimulator } from './index.ts';
import { simGet } from './testing/http.ts';

describe('simulator faults, rate limits and stats', () => {
  let sim: GitLabSimulator;
  const clock = new ManualClock(Date.parse('2026-11-18T15:00:30Z'));

  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, live: false, clock, rateLimitPerMinute: 50 });
  });
  afterEach(() => {
    sim.faults.clear();
    // A fresh rate-limit window per test.
    clock.advance(60_000);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('answers injected statuses in GitLab style, `times` then recovers', async () => {
    const handle = sim.faults.add({ kind: 'status', status: 503, retryAfterSec: 7, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await simGet(sim, '/user');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
    }
    expect((await simGet(sim, '/user')).status).toBe(200);
    expect(handle.hits).toBe(2);
    expect(sim.faults.active).toEqual([]);

    sim.faults.add({ kind: 'status', status: 500, times: 1 });
    const five = await simGet(sim, '/user');
    expect([five.status, five.body]).toEqual([500, { message: '500 Internal Server Error' }]);

    sim.faults.add({ kind: 'status', status: 429, retryAfterSec: 2, times: 1 });
    const throttled = await simGet(sim, '/user');
    expect([throttled.status, throttled.text, throttled.headers.get('retry-after')]).toEqual([
      429,
      'Retry later\n',
      '2',
    ]);
    expect(throttled.headers.get('ratelimit-limit')).toBe('50');

    sim.faults.add({ kind: 'status', status: 502, times: 1 });
    expect((await simGet(sim, '/user')).status).toBe(502);
  });

  it('applies faults only to matching requests and until cleared when `times` is omitted', async () => {
    const handle = sim.faults.add({ kind: 'status', status: 500, match: /\/pipelines\b/ });
    expect((await simGet(sim, '/user')).status).toBe(200);
    const project = (await simGet(sim, '/groups/acme/projects?include_subgroups=true&per_page=1'))
      .body as { id: number }[];
    for (let i = 0; i < 3; i++) {
      expect((await simGet(sim, `/projects/${project[0]!.id}/pipelines`)).status).toBe(500);
    }
    expect(handle.hits).toBe(3);
    handle.remove();
    expect((await simGet(sim, `/projects/${project[0]!.id}/pipelines`)).status).toBe(200);
  });

  it('delays responses', async () => {
    sim.faults.add({ kind: 'delay', ms: 400, times: 1, match: /\/user$/ });
    await expect(simGet(sim, '/user', { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    // The delay was used up by the aborted request.
    expect((await simGet(sim, '/user')).status).toBe(200);
  });

  it('truncates a body mid-way and resets sockets', async () => {
    sim.faults.add({ kind: 'truncate', times: 1 });
    const res = await fetch(`${sim.url}/api/v4/groups/acme?with_projects=true`, {
      headers: { 'private-token': sim.token },
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(100);
    await expect(res.text()).rejects.toThrow();

    sim.faults.add({ kind: 'reset', times: 1 });
    await expect(simGet(sim, '/user')).rejects.toThrow();
    expect((await simGet(sim, '/user')).status).toBe(200);
    const recorded = sim.stats.recent.slice(-3).map((r) => r.status);
    expect(recorded).toEqual([0, 0, 200]);
  });

  it('sends RateLimit-* headers and throttles past the per-minute limit', async () => {
    let last = await simGet(sim, '/user');
    expect(last.headers.get('ratelimit-observed')).toBe('1');
    expect(last.headers.get('ratelimit-remaining')).toBe('49');
    const reset = Number(last.headers.get('ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThan(clock.now());
    expect(reset * 1000 - clock.now()).toBeLessThanOrEqual(60_000);
    for (let i = 0; i < 49; i++) last = await simGet(sim, '/user');
    expect([last.status, last.headers.get('ratelimit-remaining')]).toEqual([200, '0']);
    const over = await simGet(sim, '/user');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(60_000);
    expect((await simGet(sim, '/user')).status).toBe(200);
  });

  it('counts requests by route kind', async () => {
    sim.stats.reset();
    const [project] = (await simGet(sim, '/groups/acme/projects?include_subgroups=true&per_page=1'))
      .body as {
      id: number;
    }[];
    const pipelines = (await simGet(sim, `/projects/${project!.id}/pipelines?per_page=2`)).body as {
      id: number;
      user?: unknown;
    }[];
    const jobs = (await simGet(sim, `/projects/${project!.id}/pipelines/${pipelines[0]!.id}/jobs`))
      .body as {
      id: number;
    }[];
    await simGet(sim, `/projects/${project!.id}/pipelines/${pipelines[0]!.id}`);
    await simGet(sim, `/projects/${project!.id}/jobs/${jobs[0]!.id}`);
    await simGet(sim, `/projects/${project!.id}/jobs/${jobs[0]!.id}/trace`);
    await simGet(sim, '/groups/acme%2Fweb');
    await simGet(sim, '/user');
    await simGet(sim, '/uploads/-/system/user/avatar/1/avatar.png', { token: null });
    expect(sim.stats.total).toBe(9);
    expect(sim.stats.byKind).toMatchObject({
      projects: 1,
      'pipelines-list': 1,
      jobs: 1,
      pipeline: 1,
      job: 1,
      trace: 1,
      groups: 1,
      user: 1,
      avatar: 1,
      commit: 0,
    });
    expect(sim.stats.recent[1]!.url).toBe(`/api/v4/projects/${project!.id}/pipelines?per_page=2`);
    sim.stats.reset();
    expect(sim.stats.total).toBe(0);
  });
});
