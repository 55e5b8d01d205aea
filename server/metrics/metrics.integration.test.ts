import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineDetails, SummaryResponse } from '../contract.ts';
import type { DefaultBranchesResponse, FlakyJobsResponse } from '../group-health/contract.ts';
import type { RouteKind } from '../simulator/index.ts';
import { basicAuth, startLanHarness, type LanHarness } from '../testing/lan-harness.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';
import {
  family,
  parseMetrics,
  sampleValue,
  samplesOf,
  type Scraped,
} from './testing/prometheus-text.ts';

// GET /metrics against the service composed on the GitLab simulator, parsed with a Prometheus
// text-format parser (testing/prometheus-text.ts) and checked against the service's own API and the
// simulator's request log: the numbers must be the ones the dashboard shows and GitLab saw.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(() => h?.close());

async function scrape(harness = h): Promise<Scraped> {
  const res = await fetch(`${harness.service.url}/metrics`);
  expect(res.status).toBe(200);
  // prom-client's Registry.PROMETHEUS_CONTENT_TYPE: the text format, version 0.0.4.
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseMetrics(await res.text());
}

/** Our request kinds, folded into the simulator's (server/simulator/server.ts `routeKind`). */
const SIMULATOR_KIND: Record<string, RouteKind> = {
  group: 'groups',
  subgroups: 'groups',
  projects: 'projects',
  pipelines: 'pipelines-list',
  pipeline: 'pipeline',
  pipeline_jobs: 'jobs',
  job: 'job',
  project_jobs: 'project-jobs',
  job_log: 'trace',
  commit: 'commit',
  repository_tree: 'other',
  image: 'avatar',
  user: 'user',
  graphql: 'graphql',
  bridges: 'other',
  test_report: 'test-report',
  test_report_summary: 'test-report-summary',
  merge_request: 'merge-request',
  merge_requests: 'merge-request',
  other: 'other',
};

describe('GET /metrics (loopback)', () => {
  it('names every family by the conventions: prefix, base units, _total counters, bounded labels', async () => {
    const scraped = await scrape();
    const ours = scraped.families.filter((f) => f.name.startsWith('pipeline_summary_'));
    expect(ours.map((f) => f.name).sort()).toEqual([
      'pipeline_summary_ai_analyses_total',
      'pipeline_summary_build_info',
      'pipeline_summary_default_branch_broken',
      'pipeline_summary_default_branches',
      'pipeline_summary_flaky_jobs',
      'pipeline_summary_gitlab_rate_limit_remaining',
      'pipeline_summary_gitlab_request_budget_remaining',
      'pipeline_summary_gitlab_request_duration_seconds',
      'pipeline_summary_gitlab_requests_total',
      'pipeline_summary_job_duration_seconds',
      'pipeline_summary_job_flakes',
      'pipeline_summary_last_update_timestamp_seconds',
      'pipeline_summary_pipeline_duration_seconds',
      'pipeline_summary_pipelines',
      'pipeline_summary_poll_cycle_duration_seconds',
      'pipeline_summary_poll_state',
      'pipeline_summary_sse_subscribers',
    ]);
    const projects = new Set(
      ((await h.api('/api/pipelines/summary')).body as SummaryResponse).projects.map(
        (p) => p.project_path,
      ),
    );
    for (const f of ours) {
      if (f.type === 'COUNTER') expect(f.name).toMatch(/_total$/);
      if (f.type === 'SUMMARY' || f.type === 'HISTOGRAM') expect(f.name).toMatch(/_seconds$/);
      const series = ['', '_sum', '_count', '_bucket'].flatMap((s) =>
        samplesOf(scraped, f.name + s),
      );
      for (const sample of series) {
        for (const [label, value] of Object.entries(sample.labels)) {
          // Nothing id-like: an id as a label would make a series per pipeline or job.
          expect(label, f.name).not.toMatch(/id$/i);
          if (label === 'project') expect(projects, f.name).toContain(value);
        }
      }
    }
    // Process metrics under their standard names, from prom-client's default collectors.
    for (const name of ['process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']) {
      expect(family(scraped, name).metrics.length).toBeGreaterThan(0);
    }
  });

  it('counts the window as the dashboard does, by project and status', async () => {
    const families = await scrape();
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    for (const p of summary.projects) {
      const project = p.project_path!;
      const byStatus = samplesOf(families, 'pipeline_summary_pipelines', { project });
      const total = byStatus.reduce((sum, m) => sum + m.value, 0);
      expect(total, project).toBe(p.total_pipelines);
      expect(
        sampleValue(families, 'pipeline_summary_pipelines', { project, status: 'success' }),
      ).toBe(p.successful);
      expect(
        sampleValue(families, 'pipeline_summary_pipelines', { project, status: 'failed' }),
      ).toBe(p.failed);
    }
    expect(summary.summary.total_pipelines).toBeGreaterThan(0);
  });

  it('says what group health says: default branches and flaky jobs', async () => {
    const families = await scrape();
    const branches = (await h.api('/api/health/default-branches')).body as DefaultBranchesResponse;
    for (const state of ['broken', 'passing', 'unknown'] as const) {
      expect(sampleValue(families, 'pipeline_summary_default_branches', { state })).toBe(
        branches[state],
      );
    }
    expect(branches.broken).toBeGreaterThan(0);
    for (const p of branches.projects) {
      const broken = sampleValue(families, 'pipeline_summary_default_branch_broken', {
        project: p.project_path,
      });
      expect(broken, p.project_path).toBe(
        p.state === 'broken' ? 1 : p.state === 'passing' ? 0 : undefined,
      );
    }
    const flaky = (await h.api('/api/health/flaky-jobs')).body as FlakyJobsResponse;
    const flakesOf = new Map<number, number>();
    for (const job of flaky.jobs)
      for (const p of job.projects)
        flakesOf.set(p.project_id, (flakesOf.get(p.project_id) ?? 0) + p.flakes);
    expect(flakesOf.size).toBeGreaterThan(0);
    for (const p of branches.projects) {
      expect(
        sampleValue(families, 'pipeline_summary_job_flakes', { project: p.project_path }),
        p.project_path,
      ).toBe(flakesOf.get(p.project_id) ?? 0);
    }
  });

  it('summarises pipeline and job durations per project in seconds', async () => {
    const scraped = await scrape();
    for (const name of [
      'pipeline_summary_pipeline_duration_seconds',
      'pipeline_summary_job_duration_seconds',
    ]) {
      const counts = samplesOf(scraped, `${name}_count`);
      expect(counts.length, name).toBeGreaterThan(0);
      for (const { labels, value: count } of counts) {
        const { project } = labels;
        expect(Object.keys(labels), name).toEqual(['project']);
        const quantiles = samplesOf(scraped, name, { project: project! });
        expect(quantiles.map((q) => q.labels.quantile)).toEqual(['0.5', '0.9', '0.99']);
        const [p50, , p99] = quantiles.map((q) => q.value);
        expect(p50!).toBeLessThanOrEqual(p99!);
        expect(count).toBeGreaterThan(0);
        // Seconds, not milliseconds: the simulator's CI takes minutes, not days.
        const mean = sampleValue(scraped, `${name}_sum`, { project: project! })! / count;
        expect(mean, `${name} ${project}`).toBeGreaterThan(1);
        expect(mean).toBeLessThan(86_400);
      }
    }
  });

  it('counts every GitLab request by kind and code, as the simulator saw them', async () => {
    await h.service.poller.cycleOnce();
    await h.service.groupHealth.idle();
    const families = await scrape();
    const counted = new Map<string, number>();
    for (const m of samplesOf(families, 'pipeline_summary_gitlab_requests_total')) {
      const kind = SIMULATOR_KIND[m.labels.kind!]!;
      expect(m.labels.code).toMatch(/^(\d{3}|none)$/);
      counted.set(kind, (counted.get(kind) ?? 0) + m.value);
    }
    const seen = Object.entries(h.simulator.stats.byKind).filter(([, n]) => n > 0);
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(seen));
    const durations = samplesOf(families, 'pipeline_summary_gitlab_request_duration_seconds_count');
    const observed = durations.reduce((sum, m) => sum + m.value, 0);
    expect(observed).toBe(h.simulator.stats.total);
  });

  it('times poll cycles and reports the poller state, freshness and the host budget', async () => {
    await h.service.poller.cycleOnce();
    const families = await scrape();
    expect(
      sampleValue(families, 'pipeline_summary_poll_cycle_duration_seconds_count', {
        outcome: 'ok',
      }),
    ).toBeGreaterThan(0);
    expect(sampleValue(families, 'pipeline_summary_poll_state', { state: 'ok' })).toBe(1);
    expect(sampleValue(families, 'pipeline_summary_poll_state', { state: 'degraded' })).toBe(0);
    const updated = Date.parse(h.service.poller.status.last_updated!) / 1000;
    expect(sampleValue(families, 'pipeline_summary_last_update_timestamp_seconds')).toBe(updated);
    const host = new URL(h.simulator.url).origin;
    const budget = sampleValue(families, 'pipeline_summary_gitlab_request_budget_remaining', {
      host,
    })!;
    // 90% of GitLab.com's 2000/min, less what this process asked of the host in the last minute.
    expect(budget).toBeGreaterThan(0);
    expect(budget).toBeLessThan(1800);
    // The simulator sends RateLimit-* headers as GitLab.com does.
    expect(
      sampleValue(families, 'pipeline_summary_gitlab_rate_limit_remaining', { host }),
    ).toBeGreaterThan(0);
  });

  it('counts dashboards on the live stream', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${h.service.url}/api/events/pipelines`, {
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    await reader.read();
    expect(sampleValue(await scrape(), 'pipeline_summary_sse_subscribers')).toBe(1);
    controller.abort();
    await reader.closed.catch(() => undefined);
    for (let i = 0; i < 50 && h.service.hub.size > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(sampleValue(await scrape(), 'pipeline_summary_sse_subscribers')).toBe(0);
  });

  it('counts AI analyses by who answered, and not the ones served from the store', async () => {
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const failed = summary.projects
      .flatMap((p) => p.recent_pipelines.map((r) => ({ ...r, project_id: p.project_id })))
      .find((r) => r.status === 'failed')!;
    const details = (
      await h.api(`/api/pipelines/${failed.project_id}/details/${failed.pipeline_id}`)
    ).body as PipelineDetails;
    const job = details.jobs.find((j) => j.status === 'failed')!;
    const analyse = () =>
      h.api('/api/ai/analyse', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          projectId: failed.project_id,
          pipelineId: failed.pipeline_id,
          jobId: job.id,
          jobName: job.name,
          stage: job.stage,
        }),
      });
    expect((await analyse()).body.cached).toBe(false);
    expect((await analyse()).body.cached).toBe(true);
    const families = await scrape();
    expect(samplesOf(families, 'pipeline_summary_ai_analyses_total')).toEqual([
      { labels: { provider: 'offline', task: 'analyse-job', outcome: 'answered' }, value: 1 },
    ]);
  });
});

describe('GET /metrics in LAN mode, beside another service in the same process', () => {
  let lan: LanHarness;
  beforeAll(async () => {
    lan = await startLanHarness();
  }, 60_000);
  afterAll(() => lan?.close());

  const get = (authorization?: string) =>
    fetch(`${lan.service.url}/metrics`, { headers: authorization ? { authorization } : {} });

  it('answers 200 with the Bearer token (or as the Basic password), 401 without', async () => {
    const ok = await get(`Bearer ${lan.accessToken}`);
    expect(ok.status).toBe(200);
    const families = parseMetrics(await ok.text());
    // Its own registry: the first service's analysis is not counted here.
    expect(family(families, 'pipeline_summary_ai_analyses_total').metrics).toEqual([]);
    expect(samplesOf(families, 'pipeline_summary_ai_analyses_total')).toEqual([]);
    expect((await get(basicAuth('prometheus', lan.accessToken))).status).toBe(200);
    for (const authorization of [undefined, 'Bearer wrong']) {
      const refused = await get(authorization);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
  });
});
