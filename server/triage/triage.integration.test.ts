import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailureSignaturesResponse, PipelineDetails } from '../contract.ts';
import { isFinishedStatus } from '../gitlab/pipeline-status.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ simulator: { projects: 6, days: 8 } });
  await h.service.groupHealth.idle();
  await h.service.groupHealth.history.loadAll();
}, 60_000);
afterAll(async () => {
  await h.close();
});

/** Runs signing cycles until every failed job of the last week is signed; returns the log reads. */
async function signEverything(): Promise<number> {
  const { recorder } = h.service.triage;
  const before = h.simulator.stats.byKind.trace ?? 0;
  while ((await recorder.cycle()) > 0);
  return (h.simulator.stats.byKind.trace ?? 0) - before;
}

describe('failure signatures through the composition root', () => {
  it('signs each failed job of the week once, one log read each, and lists them by signature', async () => {
    const { pipelines, jobs } = h.service.groupHealth.history.snapshot();
    const from = Date.now() - 7 * 86_400_000;
    const failedJobs = pipelines
      .filter((p) => p.createdAt >= from && isFinishedStatus(p.status))
      .flatMap((p) => (jobs.get(p.pipelineId) ?? []).filter((j) => j.status === 'failed'));
    expect(failedJobs.length).toBeGreaterThan(10);
    await signEverything();
    // Each failed job's log exactly once, whether the poll cycles after the load or this loop read it.
    expect(h.service.triage.recorder.logsRead).toBe(failedJobs.length);
    expect(h.simulator.stats.byKind.trace).toBe(failedJobs.length);
    expect(await signEverything()).toBe(0);

    const res = await h.api('/api/failures/signatures?since=7d');
    expect(res.status).toBe(200);
    const body = res.body as FailureSignaturesResponse;
    expect(body.window.since).toBe('7d');
    const listed = body.signatures.reduce((n, s) => n + s.occurrences, 0);
    const signed = failedJobs.filter((j) => h.service.triage.recorder.known(j.jobId)?.signature);
    expect(listed).toBe(
      signed.filter((j) => (j.finishedAt ?? j.createdAt) >= Date.parse(body.window.from)).length,
    );
    // Most widespread first.
    const spread = body.signatures.map((s) => s.projects.length);
    expect(spread).toEqual([...spread].sort((a, b) => b - a));
    for (const s of body.signatures) {
      expect(s.signature.startsWith(`${s.category}: `)).toBe(true);
      expect(s.projects.reduce((n, p) => n + p.occurrences, 0)).toBe(s.occurrences);
      expect(s.jobs.length).toBe(Math.min(50, s.occurrences));
    }
  });

  it('refuses a bad window with the error shape', async () => {
    const res = await h.api('/api/failures/signatures?since=yesterday');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: expect.stringContaining('since'),
      statusCode: 400,
      timestamp: expect.any(String),
    });
  });

  it("adds fixed_before to a failed pipeline's failed jobs in the details", async () => {
    const { pipelines } = h.service.groupHealth.history.snapshot();
    const failed = pipelines.filter((p) => p.status === 'failed').at(-1)!;
    const res = await h.api(`/api/pipelines/${failed.projectId}/details/${failed.pipelineId}`);
    expect(res.status).toBe(200);
    const details = res.body as PipelineDetails;
    const failedJobs = details.jobs.filter((j) => j.status === 'failed');
    expect(failedJobs.length).toBeGreaterThan(0);
    for (const job of failedJobs) expect(Array.isArray(job.fixed_before)).toBe(true);
    for (const job of details.jobs.filter((j) => j.status !== 'failed'))
      expect(job.fixed_before).toBeUndefined();
  });
});
