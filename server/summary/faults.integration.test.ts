import { afterEach, describe, expect, it } from 'vitest';
import type { SummaryResponse } from '../contract.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function summary(): Promise<SummaryResponse> {
  return (await h!.api('/api/pipelines/summary')).body as SummaryResponse;
}

describe('when GitLab misbehaves', () => {
  it('a rejected token is reported as 401 and on the dashboard, without crashing', async () => {
    h = await startHarness({ token: 'wrong-token' });
    await expect(h.service.poller.cycleOnce()).rejects.toThrow(/401/);
    const s = await summary();
    expect(s.status).toMatchObject({
      state: 'degraded',
      last_error: expect.stringMatching(/token/),
    });
    const details = await h.api('/api/pipelines/1/details/1');
    expect(details.status).toBe(401);
    expect(details.body.error).toMatch(/invalid token for the source-control host/);
    expect(JSON.stringify(details.body)).not.toContain('wrong-token');
    expect((await h.api('/api/health')).status).toBe(200);
  });

  it('keeps serving the last good summary through 500s and recovers after', async () => {
    h = await startHarness();
    const good = await summary();
    h.simulator.faults.add({ kind: 'status', status: 500 });
    await expect(h.service.poller.cycleOnce()).rejects.toThrow();
    const during = await summary();
    expect(during.summary).toEqual(good.summary);
    expect(during.status?.state).toBe('degraded');
    h.simulator.faults.clear();
    await h.service.poller.cycleOnce();
    expect((await summary()).status?.state).toBe('ok');
  });

  it('waits out a 429 Retry-After and succeeds', async () => {
    h = await startHarness();
    h.simulator.faults.add({ kind: 'status', status: 429, retryAfterSec: 1, times: 1 });
    await h.service.poller.cycleOnce();
    expect((await summary()).status?.state).toBe('ok');
  });

  it('survives dropped connections and truncated pages mid-response', async () => {
    h = await startHarness();
    const before = await summary();
    h.simulator.faults.add({ kind: 'truncate', times: 2 });
    h.simulator.faults.add({ kind: 'reset', times: 2 });
    await h.service.poller.cycleOnce();
    expect((await summary()).summary).toEqual(before.summary);
  });

  it('reports a GitLab that does not answer in time as a timeout, serving the last summary', async () => {
    h = await startHarness();
    const before = await summary();
    const { GitLabClient } = await import('../gitlab/client.ts');
    const { silentLogger } = await import('../platform/logger.ts');
    const slowClient = new GitLabClient({
      baseUrl: h.simulator.url,
      token: h.simulator.token,
      logger: silentLogger,
      timeoutMs: 200,
      retries: 0,
    });
    h.simulator.faults.add({ kind: 'delay', ms: 1_000 });
    await expect(slowClient.getGroup(h.simulator.groupPath)).rejects.toMatchObject({
      code: 'upstream_timeout',
    });
    expect((await summary()).summary).toEqual(before.summary);
  });
});

describe('live updates', () => {
  it('pushes a pipeline-update over SSE when a new pipeline appears, and only then', async () => {
    h = await startHarness();
    const res = await fetch(`${h.service.url}/api/events/pipelines`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let open = true;
    // Pump the stream in the background so the test can look at what arrived at any moment.
    void (async () => {
      while (open) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
      }
    })();
    const updates = () =>
      buffer.split('\n\n').filter((b) => b.startsWith('event: pipeline-update'));
    const waitForUpdates = async (n: number) => {
      for (let i = 0; i < 200 && updates().length < n; i++)
        await new Promise((r) => setTimeout(r, 10));
      return updates().map((b) => JSON.parse(b.split('\ndata: ')[1]!) as SummaryResponse);
    };
    const [initial] = await waitForUpdates(1);
    h.simulator.startPipeline();
    await h.service.poller.cycleOnce();
    const afterNew = await waitForUpdates(2);
    const updated = afterNew[1]!;
    expect(updated.summary.total_pipelines).toBe(initial!.summary.total_pipelines + 1);
    expect(updated.summary.running).toBeGreaterThan(initial!.summary.running);
    await h.service.poller.detailsSettled();
    await new Promise((r) => setTimeout(r, 200));
    const settled = updates().length;
    // Nothing changed upstream: a cycle must not push another update.
    await h.service.poller.cycleOnce();
    await h.service.poller.detailsSettled();
    await new Promise((r) => setTimeout(r, 200));
    open = false;
    await reader.cancel();
    expect(updates().length).toBe(settled);
  });
});
