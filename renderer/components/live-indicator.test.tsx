import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { summaryFixture } from '../testing/fixtures.ts';
import { renderWithFeed } from '../testing/render-with-feed.tsx';
import { LiveIndicator } from './live-indicator.tsx';

const now = new Date();
afterEach(cleanup);

const state = () => document.querySelector('[data-connection]')!.getAttribute('data-connection');

describe('LiveIndicator', () => {
  it('goes live, then reconnecting on a drop (with retry), then live again', async () => {
    const { sources, feed } = renderWithFeed(<LiveIndicator />, summaryFixture(2, now));
    expect(state()).toBe('connecting');
    act(() => sources[0]!.open());
    expect(state()).toBe('live');
    expect(screen.getByText('Live')).toBeTruthy();
    act(() => sources[0]!.fail());
    expect(state()).toBe('reconnecting');
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(sources).toHaveLength(2);
    act(() => sources[1]!.open());
    expect(state()).toBe('live');
    feed.stop();
  });

  it('says how long ago the connection was lost, not "updated just now" (issue 30)', () => {
    const { sources, feed } = renderWithFeed(<LiveIndicator />, null);
    act(() => {
      sources[0]!.open();
      sources[0]!.emit('pipeline-update', summaryFixture(2, new Date()));
    });
    expect(screen.getByText(/· updated just now/)).toBeTruthy();
    vi.useFakeTimers({ now: Date.now(), toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      act(() => sources[0]!.fail());
      act(() => vi.advanceTimersByTime(8_000));
      expect(state()).toBe('reconnecting');
      expect(screen.getByText('· lost 8s ago')).toBeTruthy();
      expect(screen.queryByText(/just now/)).toBeNull();
      expect(screen.getByRole('status').getAttribute('title')).toMatch(
        /^Lost the connection to the service 8s ago; .* Last updated /,
      );
    } finally {
      vi.useRealTimers();
      feed.stop();
    }
  });

  it('says GitLab is unreachable while the service reports degraded polls', () => {
    const summary = summaryFixture(2, now);
    summary.status = { ...summary.status!, state: 'degraded', last_error: 'GitLab answered 503' };
    const { sources } = renderWithFeed(<LiveIndicator />, null);
    act(() => {
      sources[0]!.open();
      sources[0]!.emit('pipeline-update', summary);
    });
    expect(state()).toBe('degraded');
    expect(screen.getByText('GitLab unreachable')).toBeTruthy();
    expect(screen.getByRole('status').getAttribute('title')).toContain('GitLab answered 503');
  });

  it('says when GitLab refused GraphQL and reads go over REST, and why', () => {
    const summary = summaryFixture(2, now);
    const note =
      'GitLab refused the query: HTTP 404; reading test report summaries over REST (one request per pipeline) until the service restarts';
    const { sources } = renderWithFeed(<LiveIndicator />, null);
    act(() => {
      sources[0]!.open();
      sources[0]!.emit('pipeline-update', summary);
    });
    expect(screen.queryByText('· over REST')).toBeNull();
    act(() =>
      sources[0]!.emit('pipeline-update', {
        ...summary,
        status: { ...summary.status!, test_reports_api: 'rest', test_reports_api_note: note },
      }),
    );
    expect(state()).toBe('live');
    expect(screen.getByText('· over REST')).toBeTruthy();
    // A note is a sentence in the tooltip, however the service ended it.
    expect(screen.getByRole('status').getAttribute('title')).toMatch(
      /updated just now\. GitLab refused .* restarts\.$/,
    );
  });
});
