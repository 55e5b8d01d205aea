// Issue 24: the details route (GET /api/pipelines/:projectId/details/:pipelineId) against the
// simulator behaving as GitLab documents it. Each test names the GitLab source or document it follows.
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

function listed(s: SummaryResponse, pipelineId: number): boolean {
  return s.projects.some((p) => p.recent_pipelines.some((r) => r.pipeline_id === pipelineId));
}

describe('a pipeline deleted on GitLab', () => {
  // gitlabhq lib/api/ci/pipelines.rb: `get ':id/pipelines/:pipeline_id'` documents failure
  // `{ code: 404, message: 'Not found' }`, and `delete ':id/pipelines/:pipeline_id'` destroys the
  // pipeline (204, doc/api/pipelines.md "Delete a pipeline"); an `updated_after` list never shows
  // a deletion, so only asking for the pipeline itself tells.
  it('is a 404 in the error shape when its details are opened, cached or not, and leaves the summary at once', async () => {
    h = await startHarness({ simulator: { projects: 3 } });
    const before = await summary();
    const project = before.projects.find((p) =>
      p.recent_pipelines.some((r) => r.status === 'success'),
    )!;
    const pipelineId = project.recent_pipelines.find((r) => r.status === 'success')!.pipeline_id;
    const path = `/api/pipelines/${project.project_id}/details/${pipelineId}`;
    // Opened once: its finished details are cached on the updated_at GitLab reported.
    expect((await h.api(path)).status).toBe(200);

    h.simulator.deletePipeline(project.project_id, pipelineId);
    h.simulator.stats.reset();
    const res = await h.api(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: expect.stringContaining(
        `Pipeline ${pipelineId} of GitLab project ${project.project_id}`,
      ),
      statusCode: 404,
      timestamp: expect.any(String),
    });
    // One cheap request, no jobs or bridges read.
    expect(h.simulator.stats.total).toBe(1);
    expect(h.simulator.stats.byKind.pipeline).toBe(1);

    // Gone from the summary without waiting for a cycle or the deletion reconciliation.
    const after = await summary();
    expect(listed(after, pipelineId)).toBe(false);
    expect(after.summary.total_pipelines).toBe(before.summary.total_pipelines - 1);
    expect(h.service.poller.pipelineUpdatedAt(project.project_id, pipelineId)).toBeUndefined();
  });
});
