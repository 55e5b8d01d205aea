import { describe, expect, it } from 'vitest';
import { summaryFixture } from '../testing/fixtures.ts';
import { fakeLiveFeed } from '../testing/fake-live-feed.ts';

const now = new Date('2026-03-10T12:00:00Z');

function setup(snapshot: () => Promise<Response>) {
  let fetches = 0;
  const fake = fakeLiveFeed(
    () => {
      fetches++;
      return snapshot();
    },
    { now: () => now.getTime() },
  );
  return { ...fake, fetches: () => fetches };
}

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

describe('LiveFeed', () => {
  it('paints the snapshot first, then applies pipeline-update events without refetching', async () => {
    const first = summaryFixture(3, now, 1);
    const { feed, sources, fetches } = setup(() => json(first));
    feed.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(feed.getState().summary).toEqual(first);
    expect(sources).toHaveLength(1);
    expect(sources[0]!.url).toBe('/api/events/pipelines');
    sources[0]!.open();
    expect(feed.getState().connection).toBe('live');

    const next = summaryFixture(4, now, 2);
    sources[0]!.emit('pipeline-update', next);
    expect(feed.getState().summary).toEqual(next);
    expect(fetches()).toBe(1);
    feed.stop();
  });

  it('hands pipeline-failed and pipeline-fixed events to subscribers, leaving the summary alone', () => {
    const { feed, sources } = setup(() => json(summaryFixture(1, now)));
    const seen: string[] = [];
    const off = feed.onPipelineEvent((e) => seen.push(`${e.event} ${e.id}`));
    feed.start();
    sources[0]!.open();
    sources[0]!.emit('pipeline-failed', { event: 'pipeline-failed', id: 'a' });
    sources[0]!.emit('pipeline-fixed', { event: 'pipeline-fixed', id: 'b' });
    off();
    sources[0]!.emit('pipeline-failed', { event: 'pipeline-failed', id: 'c' });
    expect(seen).toEqual(['pipeline-failed a', 'pipeline-fixed b']);
    feed.stop();
  });

  it('hands failure-signatures events to their subscribers only, so a view can ask again', () => {
    const { feed, sources } = setup(() => json(summaryFixture(1, now)));
    const signed: number[][] = [];
    const failed: string[] = [];
    feed.onPipelineEvent((e) => failed.push(e.id));
    const off = feed.onFailureSignatures((e) => signed.push(e.jobs.map((j) => j.job_id)));
    feed.start();
    sources[0]!.open();
    const job = { project_id: 1, pipeline_id: 7, signature: 'compile_error: x' };
    sources[0]!.emit('failure-signatures', {
      event: 'failure-signatures',
      jobs: [
        { ...job, job_id: 70 },
        { ...job, job_id: 71 },
      ],
      timestamp: now.toISOString(),
    });
    off();
    sources[0]!.emit('failure-signatures', { event: 'failure-signatures', jobs: [] });
    expect(signed).toEqual([[70, 71]]);
    expect(failed).toEqual([]);
    feed.stop();
  });

  it('reconnects with growing back-off after drops and resets it once live again', async () => {
    const { feed, sources, timers } = setup(() => json(summaryFixture(1, now)));
    feed.start();
    sources[0]!.open();
    sources[0]!.fail();
    expect(feed.getState().connection).toBe('reconnecting');
    expect(sources[0]!.closed).toBe(true);
    const d1 = timers.delays().filter((d) => d < 40_000);
    timers.fireShortest();
    expect(sources).toHaveLength(2);
    sources[1]!.fail();
    const d2 = timers.delays().filter((d) => d < 40_000);
    expect(d2[0]!).toBeGreaterThan(d1[0]!);
    timers.fireShortest();
    sources[2]!.open();
    sources[2]!.emit('heartbeat', { timestamp: now.toISOString() });
    expect(feed.getState().connection).toBe('live');
    sources[2]!.fail();
    expect(feed.getState().retryInMs!).toBeLessThanOrEqual(1_200);
    feed.stop();
  });

  it('treats a silent stream (no heartbeat) as dead and reconnects', () => {
    const { feed, sources, timers } = setup(() => json(summaryFixture(1, now)));
    feed.start();
    sources[0]!.open();
    expect(timers.delays()).toContain(45_000);
    timers.fireShortest();
    expect(feed.getState().connection).toBe('reconnecting');
    feed.stop();
  });

  it("shows the service's error when the first snapshot fails", async () => {
    const { feed } = setup(() =>
      json(
        { error: 'GitLab token is invalid', statusCode: 401, timestamp: now.toISOString() },
        401,
      ),
    );
    feed.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(feed.getState().error).toBe('GitLab token is invalid');
    feed.stop();
  });
});
