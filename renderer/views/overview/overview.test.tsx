import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityFixture, summaryFixture } from '../../testing/fixtures.ts';
import { renderWithFeed, routeFetch } from '../../testing/render-with-feed.tsx';
import { Overview } from './overview.tsx';

const now = new Date();
let restore = () => {};
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  restore();
});

/** Fails any fetch the overview makes: everything it shows arrives over the live connection. */
function serveNothing() {
  const routed = routeFetch(() => undefined);
  restore = routed.restore;
  return routed.calls;
}

/** Renders the overview and pushes the summary and its activity as the service's hub sends them. */
function renderPushed(summary: ReturnType<typeof summaryFixture>) {
  const rendered = renderWithFeed(<Overview />, summary);
  act(() => {
    rendered.sources[0]!.open();
    rendered.sources[0]!.emit('pipeline-update', summary);
    rendered.sources[0]!.emit(
      'pipeline-activity',
      activityFixture(
        summary.projects.flatMap((p) => p.recent_pipelines),
        now,
      ),
    );
  });
  return rendered;
}

describe('Overview', () => {
  it('shows the summary totals from the feed', async () => {
    const summary = summaryFixture(20, now);
    serveNothing();
    const { container } = renderPushed(summary);
    await screen.findByText('Pipelines');
    const metric = (name: string) =>
      container.querySelector(`[data-metric="${name}"] .metric-value`)!.textContent;
    expect(metric('total')).toBe(String(summary.summary.total_pipelines));
    expect(metric('success-rate')).toBe(`${summary.summary.overall_success_rate.toFixed(1)}%`);
    expect(metric('running')).toBe(String(summary.summary.running));
    expect(screen.getByText('Recent failures')).toBeTruthy();
  });

  it('charts the whole window from the pushed activity, with counts on hover', async () => {
    const summary = summaryFixture(20, now);
    serveNothing();
    const { container } = renderPushed(summary);
    const chart = await screen.findByRole('group', { name: /Pipelines per day/ });
    expect(chart.getAttribute('data-total')).toBe(String(summary.summary.total_pipelines));
    expect(screen.getByRole('heading', { name: 'Pipelines per day' })).toBeTruthy();
    expect(screen.getByText('the last 7 days · UTC days')).toBeTruthy();
    expect(screen.queryByText(/live feed/)).toBeNull();
    const bars = container.querySelectorAll('g.bar');
    expect(bars).toHaveLength(8);
    const busiest = [...bars].find((b) => b.querySelector('rect.series-success'))!;
    fireEvent.mouseEnter(busiest);
    const tip = screen.getByRole('tooltip');
    const label = busiest.getAttribute('aria-label')!;
    const passed = /(\d+) passed/.exec(label)![1];
    expect(within(tip).getByText(`${passed} passed`)).toBeTruthy();
  });

  it('lists top contributors over the whole window', async () => {
    const summary = summaryFixture(20, now);
    serveNothing();
    renderPushed(summary);
    const heading = await screen.findByRole('heading', { name: 'Top contributors' });
    const section = heading.closest('section')!;
    const all = summary.projects.flatMap((p) => p.recent_pipelines);
    const top = activityFixture(all, now).contributors[0]!;
    const row = (await within(section).findByText(top.name)).closest('li')!;
    expect(row.querySelector('.contributor-count')!.textContent).toBe(String(top.pipelines));
    expect(within(section).getAllByRole('listitem').length).toBeLessThanOrEqual(6);
  });

  it('applies activity pushed after a live update without fetching anything', async () => {
    const summary = summaryFixture(20, now);
    const calls = serveNothing();
    const { sources } = renderPushed(summary);
    const chart = await screen.findByRole('group', { name: /Pipelines per day/ });
    expect(chart.getAttribute('data-total')).toBe(String(summary.summary.total_pipelines));
    const more = summaryFixture(30, now, 7);
    act(() => {
      sources[0]!.emit('pipeline-update', more);
      sources[0]!.emit(
        'pipeline-activity',
        activityFixture(
          more.projects.flatMap((p) => p.recent_pipelines),
          now,
        ),
      );
    });
    expect(
      screen.getByRole('group', { name: /Pipelines per day/ }).getAttribute('data-total'),
    ).toBe(String(more.summary.total_pipelines));
    expect(calls.filter((c) => c.url.pathname.startsWith('/api/pipelines/'))).toEqual([]);
  });

  it('opens a failure row at the failing job the service names, without fetching details', async () => {
    const summary = summaryFixture(20, now);
    const failed = summary.projects
      .flatMap((p) => p.recent_pipelines.map((r) => ({ p, r })))
      .filter(({ r }) => r.status === 'failed')
      .sort((a, b) => Date.parse(b.r.created_at) - Date.parse(a.r.created_at))[0]!;
    failed.r.failing_job_id = 4242;
    failed.r.commit_title = 'Break the build on purpose';
    const calls = serveNothing();
    renderPushed(summary);
    fireEvent.click(await screen.findByText('Break the build on purpose'));
    expect(window.location.pathname).toBe(
      `/pipelines/${failed.p.project_id}/${failed.r.pipeline_id}`,
    );
    expect(window.location.search).toContain('job=4242');
    expect(calls.filter((c) => c.url.pathname.includes('/details/'))).toEqual([]);
  });

  it('shows a merge request as `!406` with its title and names the failing job (issue 30)', async () => {
    const summary = summaryFixture(20, now);
    const failed = summary.projects
      .flatMap((p) => p.recent_pipelines.map((r) => ({ p, r })))
      .filter(({ r }) => r.status === 'failed')
      .sort((a, b) => Date.parse(b.r.created_at) - Date.parse(a.r.created_at))[0]!;
    Object.assign(failed.r, {
      ref: 'refs/merge-requests/406/head',
      ref_label: '!406',
      merge_request: { iid: 406, title: 'Rebuild the search index', web_url: 'http://g/mr/406' },
      failing_job_id: 4242,
      failing_job_name: 'integration-tests',
      commit_title: 'Break the build on purpose',
    });
    serveNothing();
    renderPushed(summary);
    const row = (await screen.findByText('Break the build on purpose')).closest('li')!;
    expect(within(row).getByText('!406')).toBeTruthy();
    expect(within(row).getByText('Rebuild the search index')).toBeTruthy();
    expect(within(row).queryByText(/refs\/merge-requests/)).toBeNull();
    expect(within(row).getByTestId('failing-job').textContent).toContain('integration-tests');
  });

  it('tells a new user what to do when the window has no pipelines', async () => {
    const summary = summaryFixture(0, now);
    serveNothing();
    renderPushed(summary);
    expect(await screen.findByText('No pipelines in this window')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open settings' })).toBeTruthy();
  });

  it("shows the service's error instead of a blank page", async () => {
    renderWithFeed(<Overview />, new Error('GitLab rejected the token (401): set a new one'));
    expect(await screen.findByText('GitLab rejected the token (401): set a new one')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeTruthy();
  });
});
