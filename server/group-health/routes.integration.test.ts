import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefaultBranchesResponse, FailuresResponse } from '../contract.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ simulator: { projects: 4, days: 8 } });
}, 60_000);
afterAll(async () => {
  await h.close();
});

const errorShape = {
  error: expect.any(String),
  statusCode: expect.any(Number),
  timestamp: expect.any(String),
};

describe('group health routes (through the composition root)', () => {
  it('answers each view; history.db is private', async () => {
    const branches = await h.api('/api/health/default-branches');
    expect(branches.status).toBe(200);
    expect(branches.body.window.since).toBe('7d');
    expect(branches.body.projects).toHaveLength(4);
    const week = await h.api('/api/health/flaky-jobs?since=1w');
    expect(week.status).toBe(200);
    expect(week.body.window.since).toBe('1w');
    const regressions = await h.api('/api/health/regressions');
    expect(regressions.body.rule).toMatchObject({ recent_runs: 10, ratio: 1.25 });
    const projectId = branches.body.projects[0].project_id;
    const trends = await h.api(`/api/health/trends?projectId=${projectId}&days=3`);
    expect(trends.status).toBe(200);
    expect(trends.body.pipeline.days).toHaveLength(4);
    const failures = await h.api('/api/pipelines/failures?pageSize=1000');
    expect(failures.body.pagination.pageSize).toBe(100);
    if (process.platform !== 'win32')
      expect(statSync(path.join(h.dataDir, 'history.db')).mode & 0o777).toBe(0o600);
    // The seed API is unchanged by the additive routes.
    expect((await h.api('/api/health')).body).toEqual({
      status: 'healthy',
      timestamp: expect.any(String),
    });
  });

  it('lists the failures a success rate counts: `scope` reproduces health\'s "N failed" (issue 30, item 3)', async () => {
    const branches = (await h.api('/api/health/default-branches')).body as DefaultBranchesResponse;
    for (const scope of ['default_branch', 'merge_requests', 'all'] as const) {
      const failures = (await h.api(`/api/pipelines/failures?scope=${scope}&pageSize=1`))
        .body as FailuresResponse;
      expect([scope, failures.pagination.totalCount]).toEqual([
        scope,
        branches.success_rates[scope].failed,
      ]);
    }
    const onDefault = (await h.api('/api/pipelines/failures?scope=default_branch&pageSize=100'))
      .body as FailuresResponse;
    expect(onDefault.failures.every((f) => f.default_branch)).toBe(true);
    const all = (await h.api('/api/pipelines/failures?pageSize=1')).body as FailuresResponse;
    expect(all.pagination.totalCount).toBeGreaterThan(onDefault.pagination.totalCount);
  });

  it('refuses bad input with a 400 in the error shape, and an unknown project with a 404', async () => {
    for (const url of [
      '/api/health/default-branches?since=7x',
      '/api/health/trends',
      '/api/health/trends?projectId=abc',
      '/api/pipelines/failures?flaky=maybe',
      '/api/pipelines/failures?page=0',
      '/api/pipelines/failures?from=yesterday',
    ]) {
      const res = await h.api(url);
      expect([url, res.status]).toEqual([url, 400]);
      expect(res.body).toEqual({ ...errorShape, statusCode: 400 });
    }
    // Each says what is wrong in words a caller can act on (issue 30, item 8).
    for (const [url, message] of [
      [
        '/api/pipelines/failures?from=2026-03-10T12:00:00Z&to=2026-03-10T11:00:00Z',
        "Invalid 'from': must not be later than 'to'",
      ],
      [
        '/api/pipelines/failures?ref=main&ref=develop',
        "Invalid 'ref': is duplicated (given 2 times); give it once",
      ],
      [
        '/api/health/trends?projectId=1&days=100000',
        "Invalid 'days': must be a whole number of days from 1 to 3650",
      ],
      [
        '/api/health/trends?projectId=1&days=0',
        "Invalid 'days': must be a whole number of days from 1 to 3650",
      ],
      [
        '/api/pipelines/failures?scope=feature',
        "Invalid 'scope': must be default_branch, merge_requests or all",
      ],
      [
        '/api/jobtrace?projectId=1&projectId=2&jobId=3',
        "Invalid 'projectId': is duplicated (given 2 times); give it once",
      ],
    ]) {
      const res = await h.api(url!);
      expect([url, res.status, res.body]).toEqual([
        url,
        400,
        { ...errorShape, statusCode: 400, error: message },
      ]);
    }
    const unknown = await h.api('/api/health/trends?projectId=999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ ...errorShape, statusCode: 404 });
  });
});
