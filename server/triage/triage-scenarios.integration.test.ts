import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  FailureSignaturesResponse,
  MyMergeRequestsResponse,
  PipelineDetails,
} from '../contract.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

// The simulator's triage scenarios (server/simulator/triage-scenarios.ts) through the composition
// root: every verdict, the registry outage's signature over three projects, and its two fixes.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ simulator: { projects: 12, days: 8 } });
  await h.service.groupHealth.idle();
  await h.service.groupHealth.history.loadAll();
  while ((await h.service.triage.recorder.cycle()) > 0);
}, 120_000);
afterAll(async () => {
  await h.close();
});

const OUTAGE =
  'dependency_network: Error response from daemon: Get "https://registry.acme.example/<p>": received unexpected HTTP status: # Service Unavailable';

describe('triage scenarios', () => {
  it('planted an MR of the token user for each verdict, an outage in three projects and a twice-fixed error', () => {
    const t = h.simulator.triage;
    // The last two are judged by their failed test (test-verdicts.integration.test.ts).
    expect(t.mergeRequests.map((m) => m.verdict)).toEqual([
      'broken-on-default',
      'flaky',
      'new',
      'broken-on-default',
      'flaky',
    ]);
    expect(new Set(t.registryOutage.map((o) => o.projectId)).size).toBe(3);
    expect(t.fixedTwice?.failedPipelineIds).toHaveLength(3);
  });

  it('GET /api/triage/mine gives each planted MR its verdict', async () => {
    const t = h.simulator.triage;
    const res = await h.api('/api/triage/mine');
    expect(res.status).toBe(200);
    const body = res.body as MyMergeRequestsResponse;
    expect(body.user.id).toBe(t.tokenUserId);
    // Two planted MRs can share a verdict and job (which MRs the scenarios plant depends on the
    // hour): project and iid break the tie, so the comparison does not depend on list order.
    const byVerdict = (a: unknown[], b: unknown[]) =>
      String(a[3]).localeCompare(String(b[3])) ||
      Number(a[0]) - Number(b[0]) ||
      Number(a[1]) - Number(b[1]);
    expect(
      body.merge_requests
        .map((m) => [
          m.project_id,
          m.iid,
          m.pipeline?.pipeline_id,
          m.failures.map((f) => [f.job_name, f.verdict]),
        ])
        .sort(byVerdict),
    ).toEqual(
      t.mergeRequests
        .map((m) => [m.projectId, m.iid, m.pipelineId, [[m.jobName, m.verdict]]])
        .sort(byVerdict),
    );
    // Each verdict says why.
    const evidence = Object.fromEntries(
      body.merge_requests.flatMap((m) => m.failures.map((f) => [f.verdict, f.evidence])),
    );
    expect(evidence['broken-on-default']!.since).not.toBeNull();
    expect(evidence.flaky!.flakes!.flakes).toBeGreaterThan(0);
    expect(evidence.new!.last_passed).not.toBeNull();
  });

  it('lists the registry outage as one signature over its three projects, first', async () => {
    const t = h.simulator.triage;
    const body = (await h.api('/api/failures/signatures?since=7d'))
      .body as FailureSignaturesResponse;
    const outage = body.signatures.find((s) => s.signature === OUTAGE);
    expect(outage).toBeDefined();
    expect(outage!.occurrences).toBe(t.registryOutage.length);
    expect(outage!.projects.map((p) => p.project_id).sort()).toEqual(
      [...new Set(t.registryOutage.map((o) => o.projectId))].sort(),
    );
    expect(outage!.jobs.map((j) => j.job_id).sort()).toEqual(
      t.registryOutage.map((o) => o.jobId).sort(),
    );
    expect(body.signatures[0]!.projects.length).toBeGreaterThanOrEqual(3);
  });

  it('names both fixes of the error on the pipeline that failed with it again', async () => {
    const f = h.simulator.triage.fixedTwice!;
    const res = await h.api(`/api/pipelines/${f.projectId}/details/${f.failedPipelineIds[2]}`);
    const details = res.body as PipelineDetails;
    const failed = details.jobs.find((j) => j.status === 'failed')!;
    expect(
      failed.fixed_before!.map((x) => [x.pipeline_id, x.commit_title, x.failed_pipeline_id]),
    ).toEqual([
      [f.fixPipelineIds[1], f.commitTitle, f.failedPipelineIds[1]],
      [f.fixPipelineIds[0], f.commitTitle, f.failedPipelineIds[0]],
    ]);
  });
});
