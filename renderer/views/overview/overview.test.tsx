import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { summaryFixture } from '../../testing/fixtures.ts';
import { renderWithFeed, routeFetch } from '../../testing/render-with-feed.tsx';
import { Overview } from './overview.tsx';

const now = new Date();
let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

describe('Overview', () => {
  it('shows the summary totals from the feed', async () => {
    // Recent failures fetch details; answer 404 so rows fall back to the pipeline number.
    restore = routeFetch(() => undefined).restore;
    const summary = summaryFixture(20, now);
    const { container } = renderWithFeed(<Overview />, summary);
    await screen.findByText('Pipelines');
    const metric = (name: string) =>
      container.querySelector(`[data-metric="${name}"] .metric-value`)!.textContent;
    expect(metric('total')).toBe(String(summary.summary.total_pipelines));
    expect(metric('success-rate')).toBe(`${summary.summary.overall_success_rate.toFixed(1)}%`);
    expect(metric('running')).toBe(String(summary.summary.running));
    expect(screen.getByText('Recent failures')).toBeTruthy();
    expect(screen.getByText('Top contributors')).toBeTruthy();
  });

  it('tells a new user what to do when the window has no pipelines', async () => {
    const summary = summaryFixture(0, now);
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
