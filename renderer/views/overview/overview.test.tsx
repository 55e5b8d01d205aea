import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityFixture, summaryFixture } from '../../testing/fixtures.ts';
import { jsonResponse, renderWithFeed, routeFetch } from '../../testing/render-with-feed.tsx';
import { Overview } from './overview.tsx';

const now = new Date();
let restore = () => {};
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  restore();
});

/** Answers the activity route from the summary's pipelines; details 404 (rows fall back to the number). */
function serveActivity(summary: ReturnType<typeof summaryFixture>) {
  const routed = routeFetch((_method, url) =>
    url.pathname === '/api/pipelines/activity'
      ? jsonResponse(
          activityFixture(
            summary.projects.flatMap((p) => p.recent_pipelines),
            now,
          ),
        )
      : undefined,
  );
  restore = routed.restore;
  return routed.calls;
}

const activityCalls = (calls: ReturnType<typeof routeFetch>['calls']) =>
  calls.filter((c) => c.url.pathname === '/api/pipelines/activity').length;

describe('Overview', () => {
  it('shows the summary totals from the feed', async () => {
    const summary = summaryFixture(20, now);
    serveActivity(summary);
    const { container } = renderWithFeed(<Overview />, summary);
    await screen.findByText('Pipelines');
    const metric = (name: string) =>
      container.querySelector(`[data-metric="${name}"] .metric-value`)!.textContent;
    expect(metric('total')).toBe(String(summary.summary.total_pipelines));
    expect(metric('success-rate')).toBe(`${summary.summary.overall_success_rate.toFixed(1)}%`);
    expect(metric('running')).toBe(String(summary.summary.running));
    expect(screen.getByText('Recent failures')).toBeTruthy();
  });

  it('charts the whole window from the activity route, with counts on hover', async () => {
    const summary = summaryFixture(20, now);
    serveActivity(summary);
    const { container } = renderWithFeed(<Overview />, summary);
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
    serveActivity(summary);
    renderWithFeed(<Overview />, summary);
    const heading = await screen.findByRole('heading', { name: 'Top contributors' });
    const section = heading.closest('section')!;
    const all = summary.projects.flatMap((p) => p.recent_pipelines);
    const top = activityFixture(all, now).contributors[0]!;
    const row = (await within(section).findByText(top.name)).closest('li')!;
    expect(row.querySelector('.contributor-count')!.textContent).toBe(String(top.pipelines));
    expect(within(section).getAllByRole('listitem').length).toBeLessThanOrEqual(6);
  });

  it('reloads the activity after a live update, at most once per 5 s', async () => {
    const summary = summaryFixture(20, now);
    const calls = serveActivity(summary);
    const { sources } = renderWithFeed(<Overview />, summary);
    await screen.findByRole('group', { name: /Pipelines per day/ });
    expect(activityCalls(calls)).toBe(1);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    act(() => {
      sources[0]!.open();
      for (let i = 0; i < 3; i++)
        sources[0]!.emit('pipeline-update', { ...summary, summary: { ...summary.summary } });
    });
    expect(activityCalls(calls)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(activityCalls(calls)).toBe(2);
  });

  it('tells a new user what to do when the window has no pipelines', async () => {
    const summary = summaryFixture(0, now);
    serveActivity(summary);
    renderWithFeed(<Overview />, summary);
    expect(await screen.findByText('No pipelines in this window')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open settings' })).toBeTruthy();
  });

  it("shows the service's error instead of a blank page", async () => {
    renderWithFeed(<Overview />, new Error('GitLab rejected the token (401): set a new one'));
    expect(await screen.findByText('GitLab rejected the token (401): set a new one')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeTruthy();
  });
});
