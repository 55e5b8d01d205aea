import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const unknown = await h.api('/api/health/trends?projectId=999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ ...errorShape, statusCode: 404 });
  });
});
