import { describe, expect, it } from 'vitest';
import type { ActivityResponse, SummaryResponse, SummaryStatus } from '../../contract.ts';
import { ManualClock } from '../../platform/clock.ts';
import { PublishedSummary } from './published-summary.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

function setup() {
  const clock = new ManualClock(NOW);
  let total = 0;
  let windowStart = '2026-11-14T12:00:00.000Z';
  let state: SummaryStatus['state'] = 'ok';
  let api: NonNullable<SummaryStatus['gitlab_api']> = 'graphql';
  let note: string | null = null;
  let testNote: string | null = null;
  let statusReads = 0;
  const pushed: [string, string][] = [];
  const published = new PublishedSummary({
    clock,
    data: (): Omit<SummaryResponse, 'status'> => ({
      projects: [],
      summary: {
        total_pipelines: total,
        successful: total,
        failed: 0,
        running: 0,
        average_duration: 0,
        overall_success_rate: 100,
      },
    }),
    activity: () =>
      ({ window_start: windowStart, buckets: [], contributors: [] }) as unknown as ActivityResponse,
    status: () => {
      statusReads++;
      return {
        state,
        last_updated: null,
        last_error: null,
        group: 'acme',
        since: '7d',
        gitlab_api: api,
        gitlab_api_note: note,
        test_reports_api: testNote ? 'rest' : 'graphql',
        test_reports_api_note: testNote,
      };
    },
    onChange: (summary, activity) => pushed.push([summary, activity]),
  });
  return {
    clock,
    published,
    pushed,
    set: (next: {
      total?: number;
      windowStart?: string;
      state?: SummaryStatus['state'];
      api?: typeof api;
      note?: string;
      testNote?: string;
    }) => {
      total = next.total ?? total;
      windowStart = next.windowStart ?? windowStart;
      state = next.state ?? state;
      api = next.api ?? api;
      note = next.note ?? note;
      testNote = next.testNote ?? testNote;
    },
    statusReads: () => statusReads,
  };
}

describe('PublishedSummary', () => {
  it('pushes the summary and activity together, and only when something a reader sees changed', () => {
    const { published, pushed, set } = setup();
    published.recompute();
    expect(pushed).toHaveLength(1);
    expect(JSON.parse(pushed[0]![0])).toMatchObject({
      summary: { total_pipelines: 0 },
      status: { state: 'ok' },
    });
    published.recompute();
    set({ windowStart: '2026-11-14T13:00:00.000Z' }); // the window moves with the clock: no news
    published.recompute();
    expect(pushed).toHaveLength(1);
    set({ total: 3 });
    published.recompute();
    set({ state: 'degraded' });
    published.recompute();
    expect(pushed).toHaveLength(3);
    published.publish(true);
    expect(pushed).toHaveLength(4);
  });

  it('serialises the snapshot once per recompute', () => {
    const { published, statusReads } = setup();
    published.recompute();
    const reads = statusReads();
    expect(published.snapshotJson).toBe(published.snapshotJson);
    expect(statusReads()).toBe(reads);
    expect(JSON.parse(published.snapshotJson).status.group).toBe('acme');
  });

  it('recomputes once for a burst of scheduled recomputes, and not at all when cancelled', () => {
    const { clock, published, pushed, set } = setup();
    published.recompute();
    set({ total: 1 });
    published.scheduleRecompute();
    published.scheduleRecompute();
    expect(clock.pendingTimers).toBe(1);
    clock.advance(100);
    expect(pushed).toHaveLength(2);
    set({ total: 2 });
    published.scheduleRecompute();
    published.cancel();
    clock.advance(1_000);
    expect(pushed).toHaveLength(2);
  });

  it('pushes when reads switch to REST, so the dashboard learns why without another change', () => {
    const { published, pushed, set } = setup();
    published.recompute();
    const before = pushed.length;
    set({ api: 'rest', note: 'GitLab refused GraphQL (HTTP 405)' });
    published.recompute();
    expect(pushed).toHaveLength(before + 1);
    expect(JSON.parse(pushed.at(-1)![0]).status).toMatchObject({ gitlab_api: 'rest' });
  });

  it('pushes when test report summaries switch to REST, with the reason', () => {
    const { published, pushed, set } = setup();
    published.recompute();
    const before = pushed.length;
    set({ testNote: 'GitLab refused the query: HTTP 404' });
    published.recompute();
    expect(pushed).toHaveLength(before + 1);
    expect(JSON.parse(pushed.at(-1)![0]).status).toMatchObject({
      gitlab_api: 'graphql',
      test_reports_api: 'rest',
      test_reports_api_note: 'GitLab refused the query: HTTP 404',
    });
  });
});
