import { inspect } from 'node:util';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.ts';
import { createLogger } from '../platform/logger.ts';
import { GitLabClient, normaliseGitLabBaseUrl, type GitLabClientOptions } from './client.ts';
import { RequestBudget } from './request-budget.ts';
import {
  wireCommit,
  wireGroup,
  wireJob,
  wirePipelineItem,
  wireProject,
} from './testing/wire-fixtures.ts';
import { ScriptedGitLabServer, type ScriptedReply } from './testing/scripted-gitlab-server.ts';
import { VirtualTime } from './testing/virtual-time.ts';
import { rejectionOf } from '../platform/testing/rejection.ts';

const TOKEN = 'glpat-SECRET-abc123xyz';

let servers: ScriptedGitLabServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function setup(options: Partial<GitLabClientOptions> = {}) {
  const time = new VirtualTime();
  const gitlab = await ScriptedGitLabServer.start({ now: () => time.clock.now() });
  servers.push(gitlab);
  const budget = new RequestBudget({
    requestsPerMinute: 2000,
    maxConcurrency: options.maxConcurrency ?? 6,
    host: gitlab.url,
    clock: time.clock,
    sleep: time.sleep,
  });
  const client = new GitLabClient({
    baseUrl: gitlab.url,
    token: TOKEN,
    budget,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 1,
    ...options,
  });
  return { gitlab, client, time, budget };
}

const failure = (promise: Promise<unknown>) => rejectionOf(promise, AppError);

const project = wireProject;

describe('base URL', () => {
  it('accepts a trailing slash or /api/v4 and keeps a relative URL root', () => {
    expect(normaliseGitLabBaseUrl('https://gitlab.example.com/')).toBe(
      'https://gitlab.example.com',
    );
    expect(normaliseGitLabBaseUrl('https://gitlab.example.com/api/v4/')).toBe(
      'https://gitlab.example.com',
    );
    expect(normaliseGitLabBaseUrl('https://example.com/gitlab/api/v4')).toBe(
      'https://example.com/gitlab',
    );
    expect(() => normaliseGitLabBaseUrl('gitlab.example.com')).toThrow(AppError);
    expect(() => normaliseGitLabBaseUrl('ftp://gitlab.example.com')).toThrow(AppError);
  });

  it('sends requests under <base>/api/v4', async () => {
    const { gitlab } = await setup();
    gitlab.on('/api/v4/projects/1/jobs/2', [{ json: wireJob(2) }]);
    const client = new GitLabClient({ baseUrl: `${gitlab.url}/api/v4/`, retries: 0 });
    expect(client.baseUrl).toBe(gitlab.url);
    await expect(client.getJob(1, 2)).resolves.toMatchObject({ id: 2 });
  });
});

describe('pagination', () => {
  it('follows Link rel="next" with per_page=100 and the project filters', async () => {
    const { gitlab, client } = await setup();
    const path = '/api/v4/groups/acme%2Fplatform/projects';
    gitlab.on(path, (req): ScriptedReply => {
      const page = Number(req.query.get('page') ?? '1');
      const next = new URL(`${gitlab.url}${path}`);
      req.query.forEach((v, k) => next.searchParams.set(k, v));
      next.searchParams.set('page', String(page + 1));
      return {
        json: [project(page * 10 + 1), project(page * 10 + 2)],
        // x-next-page disagrees on purpose: Link must win.
        headers: page < 3 ? { link: `<${next.href}>; rel="next"`, 'x-next-page': '99' } : {},
      };
    });
    const projects = await client.listGroupProjects('acme/platform');
    expect(projects.map((p) => p.id)).toEqual([11, 12, 21, 22, 31, 32]);
    expect(gitlab.requests).toHaveLength(3);
    for (const req of gitlab.requests) {
      expect(Object.fromEntries(req.query)).toMatchObject({
        per_page: '100',
        include_subgroups: 'true',
        archived: 'false',
        with_shared: 'false',
        simple: 'false',
        order_by: 'last_activity_at',
      });
    }
  });

  it('follows x-next-page when there is no Link header', async () => {
    const { gitlab, client } = await setup();
    gitlab.on('/api/v4/projects/5/pipelines/9/jobs', (req) => {
      const page = Number(req.query.get('page') ?? '1');
      return {
        json: [wireJob(page)],
        headers: { 'x-next-page': page < 4 ? String(page + 1) : '' },
      };
    });
    const jobs = await client.listPipelineJobs(5, 9);
    expect(jobs.map((j) => j.id)).toEqual([1, 2, 3, 4]);
    expect(gitlab.requests.map((r) => r.query.get('include_retried'))).toEqual(
      Array(4).fill('false'),
    );
    expect(gitlab.requests.map((r) => r.query.get('per_page'))).toEqual(Array(4).fill('100'));
  });

  it('stops at the limit, newest first, with updated_after passed through', async () => {
    const { gitlab, client } = await setup();
    gitlab.on('/api/v4/projects/7/pipelines', (req) => {
      const page = Number(req.query.get('page') ?? '1');
      const size = Number(req.query.get('per_page'));
      const first = 1000 - (page - 1) * size;
      return {
        json: Array.from({ length: size }, (_, i) => wirePipelineItem(first - i, 7)),
        headers: { 'x-next-page': String(page + 1) },
      };
    });
    const list = await client.listPipelines(7, {
      limit: 150,
      updatedAfter: '2026-11-20T00:00:00Z',
    });
    expect(list).toHaveLength(150);
    expect(list[0]!.id).toBe(1000);
    expect(list[149]!.id).toBe(851);
    expect(gitlab.requests).toHaveLength(2);
    expect(Object.fromEntries(gitlab.requests[0]!.query)).toMatchObject({
      order_by: 'id',
      sort: 'desc',
      per_page: '100',
      updated_after: '2026-11-20T00:00:00Z',
    });

    // A small limit asks for a small page instead of 100 rows it would throw away.
    await client.listPipelines(7, { limit: 5 });
    expect(gitlab.requests[2]!.query.get('per_page')).toBe('5');
    expect(gitlab.requests).toHaveLength(3);
  });

  it('stops with upstream_unavailable when GitLab sends the same next link twice', async () => {
    const { gitlab, client } = await setup();
    const path = '/api/v4/groups/3/subgroups';
    gitlab.on(path, (req) => ({
      json: [wireGroup(1)],
      headers: {
        link: `<${gitlab.url}${path}?per_page=100&page=${req.query.get('page') === '2' ? 1 : 2}>; rel="next"`,
      },
    }));
    const err = await failure(client.listSubgroups(3));
    expect(err.code).toBe('upstream_unavailable');
    expect(err.message).toMatch(/pagination/);
    expect(gitlab.requests.length).toBeLessThanOrEqual(3);
  });
});

describe('authentication', () => {
  // doc/api/rest/authentication.md: OAuth 2.0 tokens only in `Authorization: Bearer`; personal,
  // project and group tokens in either header — so Bearer is the default that works for all.
  it('sends Authorization: Bearer by default and PRIVATE-TOKEN only when asked', async () => {
    const { gitlab, client } = await setup();
    gitlab.on('/api/v4/projects/1/jobs/1', [{ json: wireJob(1) }]);
    await client.getJob(1, 1);
    const privateToken = new GitLabClient({
      baseUrl: gitlab.url,
      token: TOKEN,
      tokenType: 'private',
    });
    await privateToken.getJob(1, 1);
    const anonymous = new GitLabClient({ baseUrl: gitlab.url });
    await anonymous.getJob(1, 1);
    const [bearerReq, privateReq, anonymousReq] = gitlab.requests;
    expect(bearerReq!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(bearerReq!.headers['private-token']).toBeUndefined();
    expect(privateReq!.headers['private-token']).toBe(TOKEN);
    expect(privateReq!.headers.authorization).toBeUndefined();
    expect(anonymousReq!.headers['private-token']).toBeUndefined();
    expect(anonymousReq!.headers.authorization).toBeUndefined();
    // Without a token the stricter anonymous limit applies.
    expect(anonymous.budget.perMinuteCap).toBe(270);
    expect(privateToken.budget.perMinuteCap).toBe(1800);
  });

  it('never sends the token to another host named in a pagination link', async () => {
    const { gitlab, client } = await setup();
    const elsewhere = await ScriptedGitLabServer.start();
    servers.push(elsewhere);
    gitlab.on('/api/v4/groups/1/subgroups', (req) =>
      req.query.get('page') === '2'
        ? { json: [wireGroup(2)] }
        : {
            json: [wireGroup(1)],
            headers: {
              link: `<${elsewhere.url}/api/v4/groups/1/subgroups?per_page=100&page=2>; rel="next"`,
            },
          },
    );
    const groups = await client.listSubgroups(1);
    expect(groups.map((g) => g.id)).toEqual([1, 2]);
    expect(elsewhere.requests).toHaveLength(0);
    expect(gitlab.requests).toHaveLength(2);
  });
});

describe('error mapping', () => {
  it('maps 401 to unauthorized with the fix in the message', async () => {
    const { gitlab, client } = await setup();
    gitlab.on(/.*/, [{ status: 401, json: { message: '401 Unauthorized' } }]);
    const err = await failure(client.getGroup('acme'));
    expect(err.code).toBe('unauthorized');
    expect(err.message).toBe(
      "GitLab rejected the token (401): invalid token for the source-control host. Check GITLAB_TOKEN or run 'pipeline-summary token set'.",
    );
    expect(gitlab.requests).toHaveLength(1); // 4xx is not retried
  });

  // doc/api/rest/troubleshooting.md: 403 = authenticated but not allowed (CI/CD disabled, Guest,
  // IP restriction) — not an invalid token, so not 401.
  it('maps 403 to forbidden naming the resource and the likely reasons', async () => {
    const { gitlab, client } = await setup();
    gitlab.on(/.*/, [{ status: 403, json: { message: '403 Forbidden' } }]);
    const err = await failure(client.listPipelineJobs(4, 5));
    expect(err.code).toBe('forbidden');
    expect(err.upstreamStatus).toBe(403);
    expect(err.message).toContain('pipeline 5 of GitLab project 4');
    expect(err.message).toContain('CI/CD may be disabled');
    expect(err.message).toContain('Guest');
  });

  it('maps 404 to not_found naming what is missing, with the group path URL-encoded', async () => {
    const { gitlab, client } = await setup();
    const err = await failure(client.getGroup('acme/x'));
    expect(err.code).toBe('not_found');
    expect(err.message).toMatch(/^GitLab group 'acme\/x' not found/);
    expect(gitlab.requests[0]!.path).toBe('/api/v4/groups/acme%2Fx');

    const job = await failure(client.getJobTrace(3, 77));
    expect(job.message).toMatch(/^The log of job 77 of GitLab project 3 not found/);
    expect(gitlab.requests[1]!.path).toBe('/api/v4/projects/3/jobs/77/trace');
  });

  it('returns job logs as text and commits as JSON', async () => {
    const { gitlab, client } = await setup();
    const log = '\u001b[32;1m$ npm test\u001b[0;m\nsection_start:1:step_script\r\u001b[0K';
    gitlab.on('/api/v4/projects/3/jobs/8/trace', [
      { body: log, headers: { 'content-type': 'text/plain' } },
    ]);
    gitlab.on('/api/v4/projects/3/repository/commits/abc123', [{ json: wireCommit('abc123') }]);
    await expect(client.getJobTrace(3, 8)).resolves.toBe(log);
    // Committer offsets become UTC at the boundary (docs/api.md promises …Z everywhere).
    await expect(client.getCommit(3, 'abc123')).resolves.toMatchObject({
      id: 'abc123',
      created_at: '2026-11-20T10:00:00.000Z',
    });
    expect(gitlab.requests[0]!.headers.accept).toBe('text/plain');
  });

  it('keeps the token out of every error message, cause and log line', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    const { gitlab, client } = await setup({ logger, retries: 1, timeoutMs: 200 });
    gitlab.on('/api/v4/projects/1/jobs/1', [{ status: 401 }]);
    gitlab.on('/api/v4/projects/1/jobs/2', [{ status: 500 }]);
    gitlab.on('/api/v4/projects/1/jobs/3', [{ reset: true }]);
    gitlab.on('/api/v4/projects/1/jobs/4', [{ hang: true }]);
    gitlab.on('/api/v4/projects/1/jobs/5', [{ truncate: '{"id":', declaredLength: 50 }]);
    const errors = await Promise.all([1, 2, 3, 4, 5].map((id) => failure(client.getJob(1, id))));
    const refused = new GitLabClient({
      baseUrl: 'http://127.0.0.1:1',
      token: TOKEN,
      retries: 0,
    });
    errors.push(await failure(refused.getJob(1, 1)));
    expect(errors.map((e) => e.code)).toEqual([
      'unauthorized',
      'upstream_unavailable',
      'upstream_unavailable',
      'upstream_timeout',
      'upstream_unavailable',
      'upstream_unavailable',
    ]);
    for (const err of errors) {
      const views = [
        err.message,
        inspect(err, { depth: 10, showHidden: true }),
        JSON.stringify(err),
        JSON.stringify(err.cause ?? null),
        String(err.cause),
      ];
      for (const view of views) expect(view).not.toContain(TOKEN);
    }
    expect(errors[2]!.cause).toMatchObject({ code: expect.stringMatching(/ECONNRESET|EPIPE/) });
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.join('')).not.toContain(TOKEN);
    expect(lines.join('')).toContain('/api/v4/projects/1/jobs/2');
  });
});
