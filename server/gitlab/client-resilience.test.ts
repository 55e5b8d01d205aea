import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { GitLabClient, type GitLabClientOptions } from './client.ts';
import { RequestBudget } from './request-budget.ts';
import { wireGroup, wireJob } from './testing/wire-fixtures.ts';
import { ScriptedGitLabServer, type ScriptedReply } from './testing/scripted-gitlab-server.ts';
import { VirtualTime } from './testing/virtual-time.ts';
import { rejectionOf } from '../platform/testing/rejection.ts';

const TOKEN = 'glpat-resilience-token';

let servers: ScriptedGitLabServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup(
  options: Partial<GitLabClientOptions> & {
    perMinute?: number;
    auto?: boolean;
    /** Keep virtual time still while any request is on the wire (every other slot holder sleeps). */
    holdWhileSending?: boolean;
  } = {},
) {
  let sending = () => false;
  const time = new VirtualTime({ auto: options.auto, holdWhile: () => sending() });
  const gitlab = await ScriptedGitLabServer.start({ now: () => time.clock.now() });
  servers.push(gitlab);
  const budget = new RequestBudget({
    requestsPerMinute: options.perMinute ?? 2000,
    maxConcurrency: options.maxConcurrency ?? 6,
    host: gitlab.url,
    clock: time.clock,
    sleep: time.sleep,
  });
  if (options.holdWhileSending) sending = () => budget.inFlight > time.pending;
  const client = new GitLabClient({
    baseUrl: gitlab.url,
    token: TOKEN,
    budget,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 1, // back-off = its ceiling, so waits are predictable
    ...options,
  });
  return { gitlab, client, time, budget, t0: time.clock.now() };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, AppError);

const JOB = '/api/v4/projects/1/jobs/1';
const ok: ScriptedReply = { json: wireJob(1) };

describe('retries', () => {
  it('retries a 500 after an exponential back-off and returns the answer', async () => {
    const { gitlab, client, time } = await setup();
    gitlab.on(JOB, [{ status: 500 }, { status: 502 }, ok]);
    await expect(client.getJob(1, 1)).resolves.toMatchObject({ id: 1 });
    expect(gitlab.requests).toHaveLength(3);
    expect(time.sleeps).toEqual([500, 1_000]);
  });

  it('gives up with upstream_unavailable naming host and status after 1 + retries attempts', async () => {
    const { gitlab, client, time } = await setup({ retries: 3 });
    gitlab.on(JOB, [{ status: 500 }]);
    const err = await failure(client.getJob(1, 1));
    expect(err.code).toBe('upstream_unavailable');
    expect(err.message).toContain(new URL(gitlab.url).host);
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('job 1 of GitLab project 1');
    expect(gitlab.requests).toHaveLength(4);
    expect(time.sleeps).toEqual([500, 1_000, 2_000]);
  });

  it('uses full jitter: the wait is a random fraction of the ceiling', async () => {
    const { gitlab, client, time } = await setup({ random: () => 0.25, retries: 2 });
    gitlab.on(JOB, [{ status: 503 }]);
    await failure(client.getJob(1, 1));
    expect(time.sleeps).toEqual([125, 250]);
  });

  it('retries a reset connection and a truncated body', async () => {
    const { gitlab, client } = await setup();
    gitlab.on(JOB, [{ reset: true }, ok]);
    gitlab.on('/api/v4/projects/1/jobs/2', [
      { truncate: '{"id": 2, "na', declaredLength: 400 },
      { json: wireJob(2) },
    ]);
    // Well-formed HTTP, broken JSON: an upstream fault too.
    gitlab.on('/api/v4/projects/1/jobs/3', [
      { body: '{"id": 3, "na', headers: { 'content-type': 'application/json' } },
      { json: wireJob(3) },
    ]);
    await expect(client.getJob(1, 1)).resolves.toMatchObject({ id: 1 });
    await expect(client.getJob(1, 2)).resolves.toMatchObject({ id: 2 });
    await expect(client.getJob(1, 3)).resolves.toMatchObject({ id: 3 });
    expect(gitlab.requests).toHaveLength(6);
  });

  it('retries a truncated page in the middle of a listing', async () => {
    const { gitlab, client } = await setup();
    let calls = 0;
    gitlab.on('/api/v4/groups/9/subgroups', (req) => {
      calls += 1;
      if (req.query.get('page') === '2' && calls === 2) return { body: '[{"id": 3}, {"i' };
      return {
        json: req.query.get('page') === '2' ? [wireGroup(3)] : [wireGroup(1), wireGroup(2)],
        headers: { 'x-next-page': req.query.get('page') === '2' ? '' : '2' },
      };
    });
    const groups = await client.listSubgroups(9);
    expect(groups.map((g) => g.id)).toEqual([1, 2, 3]);
    expect(calls).toBe(3);
  });

  it('times out with upstream_timeout and does not retry a hung request', async () => {
    const { gitlab, client } = await setup({ timeoutMs: 150 });
    gitlab.on(JOB, [{ hang: true }]);
    const err = await failure(client.getJob(1, 1));
    expect(err.code).toBe('upstream_timeout');
    expect(err.message).toContain('did not answer within 150 ms');
    expect(gitlab.requests).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  it('waits the seconds a 429 asks for, then retries', async () => {
    const { gitlab, client, t0 } = await setup();
    gitlab.on(JOB, [{ status: 429, headers: { 'retry-after': '7' } }, ok]);
    await expect(client.getJob(1, 1)).resolves.toMatchObject({ id: 1 });
    expect(gitlab.requests.map((r) => r.at - t0)).toEqual([0, 7_000]);
  });

  it('waits until the HTTP date a 429 names, measured on the server clock', async () => {
    const { gitlab, client, t0 } = await setup();
    gitlab.on(JOB, (req) =>
      req.at === t0
        ? { status: 429, headers: { 'retry-after': new Date(t0 + 9_000).toUTCString() } }
        : ok,
    );
    await expect(client.getJob(1, 1)).resolves.toMatchObject({ id: 1 });
    expect(gitlab.requests.map((r) => r.at - t0)).toEqual([0, 9_000]);
  });

  it('pauses every other caller of the host while a 503 Retry-After runs', async () => {
    const { gitlab, client, t0 } = await setup({ maxConcurrency: 1 });
    gitlab.on(JOB, [{ status: 503, headers: { 'retry-after': '5' } }, ok]);
    gitlab.on(/\/jobs\/[23]$/, (req) => ({ json: wireJob(Number(req.path.slice(-1))) }));
    const results = await Promise.all([
      client.getJob(1, 1),
      client.getJob(1, 2),
      client.getJob(1, 3),
    ]);
    expect(results.map((r) => r.id)).toEqual([1, 2, 3]);
    const arrivals = gitlab.requests.map((r) => ({ path: r.path, after: r.at - t0 }));
    expect(arrivals[0]).toEqual({ path: JOB, after: 0 });
    for (const later of arrivals.slice(1)) expect(later.after).toBeGreaterThanOrEqual(5_000);
    expect(arrivals).toHaveLength(4);
  });

  // Issue 15 §2: one 429 with a day-long Retry-After must not silence the service for a day.
  it('caps a very long Retry-After at 5 minutes, fails fast meanwhile, then re-probes', async () => {
    const { gitlab, client, time } = await setup({ maxRetryAfterMs: 60_000 });
    gitlab.on(JOB, [{ status: 429, headers: { 'retry-after': '86400' } }, { json: wireJob(1) }]);
    const err = await failure(client.getJob(1, 1));
    expect(err.code).toBe('upstream_unavailable');
    expect(err.retryAfterMs).toBe(300_000);
    expect(err.message).toContain('86400s');
    expect(err.message).toContain('300s');
    const other = await failure(client.getJob(1, 2));
    expect(other.retryAfterMs).toBeLessThanOrEqual(300_000);
    expect(gitlab.requests).toHaveLength(1);
    time.advance(300_000);
    await expect(client.getJob(1, 1)).resolves.toMatchObject({ id: 1 });
    expect(gitlab.requests).toHaveLength(2);
  });
});

describe('request budget through the client', () => {
  it('spreads requests when GitLab reports few remaining', async () => {
    const { gitlab, client, t0 } = await setup();
    let remaining = 5;
    const resetAt = t0 / 1000 + 8;
    gitlab.on(/\/jobs\/\d+$/, () => {
      remaining -= 1;
      return {
        json: wireJob(1),
        headers: {
          'ratelimit-limit': '2000',
          'ratelimit-remaining': String(remaining),
          'ratelimit-reset': String(resetAt),
        },
      };
    });
    for (let id = 1; id <= 5; id++) await client.getJob(1, id);
    const arrivals = gitlab.requests.map((r) => r.at - t0);
    // 4 left for 8 s after the first answer: about one every 2 s instead of a burst (the server's
    // Date header has one-second resolution, so the estimate errs on the slow side by up to 1 s).
    for (let i = 1; i < arrivals.length; i++) {
      expect(arrivals[i]! - arrivals[i - 1]!).toBeGreaterThanOrEqual(2_000);
      expect(arrivals[i]! - arrivals[i - 1]!).toBeLessThanOrEqual(3_000);
    }
  });

  it('never exceeds the per-minute cap over simulated minutes', async () => {
    const { gitlab, client, t0 } = await setup({ perMinute: 10, holdWhileSending: true }); // cap 9
    gitlab.on(/\/jobs\/\d+$/, [ok]);
    await Promise.all(Array.from({ length: 25 }, (_, i) => client.getJob(1, i + 1)));
    const arrivals = gitlab.requests.map((r) => r.at - t0).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(25);
    for (let i = 0; i + 9 < arrivals.length; i++) {
      expect(arrivals[i + 9]! - arrivals[i]!).toBeGreaterThanOrEqual(60_000);
    }
    expect(arrivals.filter((a) => a < 60_000)).toHaveLength(9);
  });

  it('keeps at most maxConcurrency requests in flight', async () => {
    const { gitlab, client } = await setup({ maxConcurrency: 3 });
    // Each answer waits until three requests are in flight (or 1 s passed), so a fourth would be seen.
    gitlab.on(/\/jobs\/\d+$/, async () => {
      const deadline = Date.now() + 1_000;
      while (gitlab.inFlight < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, 5));
      return { json: wireJob(1) };
    });
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.getJob(1, i + 1)));
    expect(gitlab.requests).toHaveLength(12);
    expect(gitlab.maxInFlight).toBe(3);
  });

  it('shares the host budget between clients of the same GitLab', async () => {
    const gitlab = await ScriptedGitLabServer.start();
    servers.push(gitlab);
    gitlab.on(JOB, [{ status: 503, headers: { 'retry-after': '0.2' } }, ok]);
    const b = new GitLabClient({ baseUrl: `${gitlab.url}/api/v4`, token: 'another-token' });
    const pauseSeenByB: number[] = [];
    const a = new GitLabClient({
      baseUrl: gitlab.url,
      token: TOKEN,
      onRequest: ({ status }) => {
        if (status === 503) pauseSeenByB.push(b.budget.pauseRemainingMs());
      },
    });
    expect(a.budget).toBe(b.budget);
    await a.getJob(1, 1);
    expect(pauseSeenByB).toHaveLength(1);
    expect(pauseSeenByB[0]).toBeGreaterThan(100);
    expect(gitlab.requests).toHaveLength(2);
  });
});

describe('cancellation', () => {
  it('rejects with the abort reason while waiting on a paused host, sending nothing', async () => {
    const { gitlab, client, budget, time } = await setup({ auto: false });
    gitlab.on(JOB, [ok]);
    budget.pauseFor(30_000);
    const controller = new AbortController();
    const pending = client.getJob(1, 1, controller.signal);
    await new Promise((r) => setTimeout(r, 20));
    expect(time.pending).toBe(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(gitlab.requests).toHaveLength(0);
    expect(budget.inFlight).toBe(0);
  });

  it('rejects with the abort reason during a request and during back-off', async () => {
    const { gitlab, client, time } = await setup({ auto: false });
    gitlab.on(JOB, [{ hang: true }]);
    gitlab.on('/api/v4/projects/1/jobs/2', [{ status: 500 }]);
    const inFlight = new AbortController();
    const hung = client.getJob(1, 1, inFlight.signal);
    await new Promise((r) => setTimeout(r, 30));
    inFlight.abort(new Error('stopped by the poller'));
    await expect(hung).rejects.toThrow('stopped by the poller');

    const backingOff = new AbortController();
    const retrying = client.getJob(1, 2, backingOff.signal);
    while (time.pending === 0) await new Promise((r) => setTimeout(r, 5));
    backingOff.abort();
    await expect(retrying).rejects.toMatchObject({ name: 'AbortError' });
    expect(gitlab.requestsTo('/api/v4/projects/1/jobs/2')).toHaveLength(1);
  });
});
