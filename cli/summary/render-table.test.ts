import { describe, expect, it } from 'vitest';
import type { ProjectSummary, RecentPipeline, SummaryResponse } from '../../server/contract.ts';
import { formatDuration, renderSummaryTable, timeAgo } from './render-table.ts';

const now = new Date('2026-03-10T12:00:00Z');

function recent(status: string, minutesAgo: number): RecentPipeline {
  return {
    pipeline_id: 1,
    status,
    ref: 'main',
    source: 'push',
    created_at: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
    duration: 120,
    web_url: 'http://gitlab.test/p/-/pipelines/1',
    user: null,
  };
}

function project(
  path: string,
  counts: Partial<ProjectSummary>,
  latest: RecentPipeline[],
): ProjectSummary {
  return {
    project_id: 1,
    project_name: path.split('/').pop()!,
    project_path: path,
    total_pipelines: 0,
    successful: 0,
    failed: 0,
    running: 0,
    total_duration: 0,
    success_rate: 0,
    recent_pipelines: latest,
    ...counts,
  };
}

const summary: SummaryResponse = {
  projects: [
    project(
      'acme/backend/api',
      {
        total_pipelines: 10,
        successful: 7,
        failed: 2,
        running: 1,
        total_duration: 3000,
        average_duration: 300,
        success_rate: 77.8,
      },
      [recent('failed', 5)],
    ),
    project(
      'acme/frontend/web-app-with-a-very-long-name-that-goes-on',
      {
        total_pipelines: 4,
        successful: 4,
        total_duration: 480,
        average_duration: 120,
        success_rate: 100,
      },
      [recent('success', 180)],
    ),
    project('acme/docs', {}, []),
  ],
  summary: {
    total_pipelines: 14,
    successful: 11,
    failed: 2,
    running: 1,
    average_duration: 249,
    overall_success_rate: 84.6,
  },
  status: {
    state: 'ok',
    last_updated: '2026-03-10T11:59:40Z',
    last_error: null,
    group: 'acme',
    since: '7d',
  },
};

describe('renderSummaryTable', () => {
  it('prints a plain table with one row per project and an overall line when piped', () => {
    const out = renderSummaryTable(summary, { color: false, width: 120, now });
    expect(out).not.toContain('\x1b[');
    const lines = out.split('\n');
    expect(lines[0]).toBe('Pipeline summary · group acme · last 7d · updated just now');
    const header = lines.find((l) => l.startsWith('PROJECT'))!;
    expect(header).toMatch(
      /PROJECT\s+PIPELINES\s+PASSED\s+FAILED\s+RUNNING\s+SUCCESS\s+AVG DUR\s+LATEST\s+WHEN/,
    );
    const api = lines.find((l) => l.startsWith('acme/backend/api'))!;
    expect(api.split(/\s{2,}/)).toEqual([
      'acme/backend/api',
      '10',
      '7',
      '2',
      '1',
      '77.8%',
      '5m',
      'failed',
      '5m ago',
    ]);
    const docs = lines.find((l) => l.startsWith('acme/docs'))!;
    expect(docs.split(/\s{2,}/).slice(1)).toEqual(['0', '0', '0', '0', '-', '-', '-', '-']);
    expect(out).toContain(
      'Overall · 14 pipelines · 11 passed · 2 failed · 1 running · 84.6% success · avg 4m 9s · 3 projects',
    );
  });

  it('aligns columns and shrinks long project names to the terminal width', () => {
    const out = renderSummaryTable(summary, { color: false, width: 90, now });
    const rows = out.split('\n').filter((l) => l.startsWith('acme/') || l.startsWith('PROJECT'));
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(90);
    expect(new Set(rows.map((r) => r.length)).size).toBe(1);
    expect(out).toContain('…');
  });

  it('colours statuses and success rates on a TTY', () => {
    const out = renderSummaryTable(summary, { color: true, width: 120, now });
    expect(out).toContain('\x1b[31m✗ failed\x1b[0m');
    expect(out).toContain('\x1b[32m✓ success\x1b[0m');
    expect(out).toContain('\x1b[33m77.8%\x1b[0m');
    expect(out).toContain('\x1b[32m100.0%\x1b[0m');
    // Colour codes do not break alignment: visible widths match.
    const visible = out
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((l) => l.startsWith('acme/'));
    expect(new Set(visible.map((l) => l.length)).size).toBe(1);
  });

  it('warns when GitLab is failing and says when there is nothing', () => {
    const out = renderSummaryTable(
      {
        projects: [],
        summary: { ...summary.summary, total_pipelines: 0, successful: 0, failed: 0, running: 0 },
        status: { ...summary.status!, state: 'degraded', last_error: 'GitLab answered 503' },
      },
      { color: false, width: 80, now },
    );
    expect(out).toContain('! GitLab problem: GitLab answered 503');
    expect(out).toContain('No pipelines in this window.');
    expect(out).toContain('no finished pipelines');
  });
});

describe('formatters', () => {
  it('formats durations and ages', () => {
    expect(formatDuration(null)).toBe('-');
    expect(formatDuration(3725)).toBe('1h 2m');
    expect(timeAgo('2026-03-08T12:00:00Z', now)).toBe('2d ago');
  });
});

describe('renderSummaryTable at 80 columns (tmux, a split terminal)', () => {
  it('fits every line without wrapping and keeps names apart', () => {
    const many: SummaryResponse = {
      ...summary,
      projects: [
        ...summary.projects,
        project(
          'acme/frontend/web-app-with-a-very-long-name-that-goes-off',
          { total_pipelines: 2, successful: 1, failed: 1, success_rate: 50, average_duration: 65 },
          [recent('waiting_for_resource', 30)],
        ),
      ],
    };
    const out = renderSummaryTable(many, { color: true, width: 80, now });
    // eslint-disable-next-line no-control-regex
    const visible = out.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
    for (const line of visible) expect(line.length).toBeLessThanOrEqual(80);
    const rows = visible.filter((l) => /^\S+\s{2,}\d/.test(l));
    const names = rows.map((l) => l.split(/\s{2,}/)[0]);
    expect(names).toHaveLength(4);
    expect(new Set(names).size).toBe(4);
    // The shared `acme/` prefix goes (the title names the group); long names keep both ends.
    expect(names).toContain('backend/api');
    expect(names.filter((n) => n!.includes('…') && /goes-o(n|ff)$/.test(n!))).toHaveLength(2);
    expect(visible[0]).toContain('group acme');
  });
});

describe('renderSummaryTable at 60 columns (issue 30, item 4)', () => {
  const many: SummaryResponse = {
    ...summary,
    projects: [
      ...summary.projects,
      project(
        'acme/platform/notifications',
        { total_pipelines: 12, successful: 9, failed: 3, success_rate: 75, average_duration: 605 },
        [recent('canceled', 600)],
      ),
    ],
  };

  it('drops the columns the Overall line repeats, so no row wraps and names stay apart', () => {
    for (const color of [false, true]) {
      const out = renderSummaryTable(many, { color, width: 60, now });
      // eslint-disable-next-line no-control-regex
      const visible = out.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
      for (const line of visible) expect([line, line.length <= 60]).toEqual([line, true]);
      const header = visible.find((l) => l.startsWith('PROJECT'))!;
      const titles = header.split(/\s+/);
      expect(titles).toEqual(expect.arrayContaining(['PROJECT', 'FAIL', 'RATE', 'LATEST', 'WHEN']));
      expect(titles).not.toContain('AVG');
      expect(titles).not.toContain('RUN');
      const rows = visible.slice(
        visible.indexOf(header) + 1,
        visible.indexOf('', visible.indexOf(header)),
      );
      expect(rows).toHaveLength(4);
      const names = rows.map((r) => r.split(/\s{2,}/)[0]!);
      // The project's own name stays whole (`platf…/notifications`, never `notifi…tions`).
      expect(names.filter((n) => n.endsWith('/notifications'))).toHaveLength(1);
      expect(new Set(names).size).toBe(4);
      // Each row has a value under each title: nothing shifted into a wrapped second line.
      for (const row of rows) expect(row.split(/\s{2,}/)).toHaveLength(titles.length);
      const row = rows
        .map((l) => l.split(/\s{2,}/))
        .find((cells) => cells[0]!.endsWith('/notifications'))!;
      expect(row.slice(-4)).toEqual(['3', '75.0%', color ? '○ canceled' : 'canceled', '10h ago']);
      // What went is still on the Overall line.
      expect(out).toMatch(/11 passed.*1 running.*avg 4m 9s/s);
    }
  });

  it('keeps every column at 80 and drops one at a time as the terminal narrows', () => {
    const headerAt = (width: number) =>
      renderSummaryTable(many, { color: false, width, now })
        .split('\n')
        .find((l) => l.startsWith('PROJECT'))!
        .split(/\s+/);
    expect(headerAt(80)).toEqual([
      'PROJECT',
      'TOTAL',
      'PASS',
      'FAIL',
      'RUN',
      'RATE',
      'AVG',
      'LATEST',
      'WHEN',
    ]);
    expect(headerAt(70)).not.toContain('AVG');
    expect(headerAt(70)).toContain('TOTAL');
  });
});
