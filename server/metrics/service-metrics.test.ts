import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SummaryStatus } from '../contract.ts';
import { computeGroupHealth, type GroupHealth } from '../group-health/group-health.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { ServiceMetrics, type MetricSources } from './service-metrics.ts';
import { parseMetrics, sampleValue, samplesOf } from './testing/prometheus-text.ts';
import { windowStats } from './window-stats.ts';

const WEEK_MS = 7 * 86_400_000;

function health(build: (b: HistoryBuilder) => void): GroupHealth {
  const b = new HistoryBuilder().project(1, 'api').project(2, 'web');
  build(b);
  return computeGroupHealth({
    snapshot: b.build(),
    now: FIXTURE_NOW,
    windowMs: WEEK_MS,
    since: '7d',
  });
}

const STATUS: SummaryStatus = {
  state: 'ok',
  last_updated: '2026-11-21T11:59:00.000Z',
  last_error: null,
  group: 'acme',
  since: '7d',
};

function metrics(sources: Partial<MetricSources> & Pick<MetricSources, 'health'>) {
  const m = new ServiceMetrics({ version: '1.2.3' });
  m.gaugeFrom({ status: () => STATUS, sseSubscribers: () => 2, ...sources });
  return m;
}

describe('windowStats', () => {
  it('counts the window by status (unknown ones as other) and keeps finished durations only', () => {
    const stats = windowStats(
      health((b) => {
        b.pipeline({
          projectId: 1,
          status: 'success',
          minutesAgo: 60,
          duration: 100,
          jobs: [
            { name: 'test', status: 'success', duration: 40 },
            { name: 'lint', status: 'skipped', duration: null },
          ],
        });
        b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 50, duration: 300 });
        b.pipeline({ projectId: 1, status: 'running', minutesAgo: 5, duration: 20 });
        b.pipeline({ projectId: 1, status: 'brand_new_status', minutesAgo: 4 });
        b.pipeline({ projectId: 1, status: 'success', minutesAgo: 8 * 24 * 60, duration: 999 });
      }),
    );
    const api = stats.pipelines.get('acme/api')!;
    expect([api.get('success'), api.get('failed'), api.get('running'), api.get('other')]).toEqual([
      1, 1, 1, 1,
    ]);
    expect(api.get('canceled')).toBe(0);
    // Every GitLab status has its series, the newest one too (GITLAB_PIPELINE_STATUSES).
    expect(api.get('waiting_for_callback')).toBe(0);
    expect(stats.pipelineDurations.get('acme/api')).toEqual([100, 300]);
    expect(stats.jobDurations.get('acme/api')).toEqual([40]);
    expect(stats.pipelineDurations.get('acme/web')).toEqual([]);
  });

  it('counts flaky job names and their flakes per project', () => {
    const stats = windowStats(
      health((b) => {
        // A retry that passed on the same commit: one flake of `test` in api.
        b.pipeline({
          projectId: 1,
          status: 'success',
          minutesAgo: 30,
          jobs: [
            { name: 'test', status: 'failed' },
            { name: 'test', status: 'success' },
          ],
        });
      }),
    );
    expect(stats.flakes.get('acme/api')).toEqual({ jobs: 1, flakes: 1 });
    expect(stats.flakes.get('acme/web')).toEqual({ jobs: 0, flakes: 0 });
  });
});

describe('ServiceMetrics', () => {
  it('drops the series of a project that left the window, and refills only on a change', async () => {
    let current = health((b) => {
      b.pipeline({ projectId: 1, status: 'success', minutesAgo: 60, duration: 100 });
      b.pipeline({ projectId: 2, status: 'success', minutesAgo: 60, duration: 200 });
    });
    const m = metrics({ health: async () => current });
    const count = async (project: string) =>
      sampleValue(
        parseMetrics(await m.scrape()),
        'pipeline_summary_pipeline_duration_seconds_count',
        { project },
      );
    expect([await count('acme/api'), await count('acme/web')]).toEqual([1, 1]);
    // Scraping again with the same state observes nothing twice.
    expect(await count('acme/api')).toBe(1);
    current = health((b) => {
      b.pipeline({ projectId: 1, status: 'success', minutesAgo: 60, duration: 100 });
      b.pipeline({ projectId: 1, status: 'failed', minutesAgo: 30, duration: 50 });
    });
    expect([await count('acme/api'), await count('acme/web')]).toEqual([2, undefined]);
  });

  it("leaves GitLab's rate limit out until GitLab sent one, and reports the budget by host", async () => {
    const budget = {
      host: 'https://gitlab.example',
      remainingInWindow: () => 1700,
      lastRateLimitRemaining: null as number | null,
    };
    const m = metrics({ health: async () => health(() => undefined), budget });
    let scraped = parseMetrics(await m.scrape());
    expect(samplesOf(scraped, 'pipeline_summary_gitlab_rate_limit_remaining')).toEqual([]);
    expect(
      sampleValue(scraped, 'pipeline_summary_gitlab_request_budget_remaining', {
        host: budget.host,
      }),
    ).toBe(1700);
    budget.lastRateLimitRemaining = 1234;
    scraped = parseMetrics(await m.scrape());
    expect(
      sampleValue(scraped, 'pipeline_summary_gitlab_rate_limit_remaining', { host: budget.host }),
    ).toBe(1234);
  });

  it('labels requests that got no answer code="none", and builds gauges once', async () => {
    const m = metrics({ health: async () => health(() => undefined) });
    m.countGitLabRequest({
      method: 'GET',
      path: '/api/v4/user',
      kind: 'user',
      status: 0,
      durationMs: 15_000,
    });
    m.countGitLabRequest({
      method: 'GET',
      path: '/api/v4/user',
      kind: 'user',
      status: 200,
      durationMs: 20,
    });
    const scraped = parseMetrics(await m.scrape());
    expect(samplesOf(scraped, 'pipeline_summary_gitlab_requests_total')).toEqual([
      { labels: { kind: 'user', code: 'none' }, value: 1 },
      { labels: { kind: 'user', code: '200' }, value: 1 },
    ]);
    expect(
      sampleValue(scraped, 'pipeline_summary_gitlab_request_duration_seconds_sum', {
        kind: 'user',
      }),
    ).toBeCloseTo(15.02);
    expect(sampleValue(scraped, 'pipeline_summary_build_info', { version: '1.2.3' })).toBe(1);
    expect(sampleValue(scraped, 'pipeline_summary_sse_subscribers')).toBe(2);
    expect(() =>
      m.gaugeFrom({
        health: async () => health(() => undefined),
        status: () => STATUS,
        sseSubscribers: () => 0,
      }),
    ).toThrow(/already/);
  });
});

describe('the Grafana dashboard in docs/', () => {
  // Grafana's import reads `__inputs` to ask for the data source and substitutes `${DS_PROMETHEUS}`
  // (grafana.com/docs/grafana/latest/dashboards/share-dashboards-panels, "Export a dashboard").
  const dashboard = JSON.parse(
    readFileSync(path.join(import.meta.dirname, '../../docs/grafana-dashboard.json'), 'utf8'),
  ) as {
    __inputs: { name: string; type: string; pluginId: string }[];
    uid: string;
    panels: {
      id: number;
      type: string;
      gridPos: { x: number; w: number };
      datasource?: { uid: string };
      targets?: { expr: string; datasource: { uid: string } }[];
    }[];
  };

  it('asks for a Prometheus data source and uses it in every query', () => {
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({
        name: 'DS_PROMETHEUS',
        type: 'datasource',
        pluginId: 'prometheus',
      }),
    ]);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type === 'row') continue;
      expect(panel.datasource?.uid).toBe('${DS_PROMETHEUS}');
      for (const target of panel.targets ?? [])
        expect(target.datasource.uid).toBe('${DS_PROMETHEUS}');
    }
  });

  it('queries only metrics the service exports', async () => {
    const m = metrics({ health: async () => health(() => undefined) });
    const { families } = parseMetrics(await m.scrape());
    const exported = new Set(
      families.flatMap((f) => {
        const suffixes = {
          SUMMARY: ['', '_sum', '_count'],
          HISTOGRAM: ['_bucket', '_sum', '_count'],
        };
        return (suffixes[f.type as keyof typeof suffixes] ?? ['']).map((s) => f.name + s);
      }),
    );
    const queried = dashboard.panels
      .flatMap((p) => p.targets ?? [])
      .flatMap((t) => t.expr.match(/\b(pipeline_summary|process|nodejs)_[a-z_]+\b/g) ?? []);
    expect(queried.length).toBeGreaterThan(20);
    for (const name of queried) expect(exported, name).toContain(name);
    // Every family of ours is on the dashboard somewhere.
    for (const f of families.filter((f) => f.name.startsWith('pipeline_summary_'))) {
      if (f.name === 'pipeline_summary_build_info') continue;
      expect(
        queried.some((q) => q.startsWith(f.name)),
        f.name,
      ).toBe(true);
    }
  });
});
