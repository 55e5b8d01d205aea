// Issue 24: the details route (GET /api/pipelines/:projectId/details/:pipelineId) against the
// simulator behaving as GitLab documents it. Each test names the GitLab source or document it follows.
import { afterEach, describe, expect, it } from 'vitest';
import { failingJob, type PipelineDetails, type SummaryResponse } from '../contract.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { silentLogger } from '../platform/logger.ts';
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
    // Failed jobs' logs are read in the background for their signatures (issue 27): done first.
    await h.service.triage.idle();

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

describe('a pipeline that failed in its downstream pipeline', () => {
  // A trigger job is listed by GET /projects/:id/pipelines/:pipeline_id/bridges, never among the
  // pipeline's jobs (doc/api/jobs.md "List pipeline trigger jobs"); its `downstream_pipeline` is a
  // PipelineBasic with `project_id` (gitlabhq lib/api/entities/ci/bridge.rb, pipeline_basic.rb).
  // With `trigger: strategy: depend` it takes the downstream outcome (app/models/ci/bridge.rb
  // `inherit_status_from_downstream!`: failed → failed), which fails the parent pipeline.
  it('names the failed trigger job and the downstream failing job, in the summary and the details', async () => {
    h = await startHarness({ simulator: { projects: 4 } });
    const sim = h.simulator;
    const [parentProject, childProject] = sim.projectIds();
    const { pipelineId } = sim.startPipeline(parentProject!, { ref: 'feature/trigger' });
    sim.finishPipeline(parentProject!, pipelineId, 'success');
    const { bridgeId, downstreamPipelineId } = sim.addBridge(parentProject!, pipelineId, {
      name: 'deploy-child',
      stage: 'deploy',
      downstreamProjectId: childProject!,
      strategy: 'depend',
    });
    sim.finishPipeline(childProject!, downstreamPipelineId, 'failed');
    await h.service.poller.cycleOnce();
    await h.service.poller.detailsSettled();

    const gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const childJob = failingJob(
      await gitlab.listPipelineJobs(childProject!, downstreamPipelineId),
    )!;
    expect(childJob).not.toBeNull();
    const expected = {
      trigger_job: expect.objectContaining({ id: bridgeId, name: 'deploy-child', stage: 'deploy' }),
      pipeline: expect.objectContaining({
        id: downstreamPipelineId,
        project_id: childProject,
        status: 'failed',
      }),
      job: expect.objectContaining({ id: childJob.id, name: childJob.name, status: 'failed' }),
    };

    const row = (await summary()).projects
      .find((p) => p.project_id === parentProject)!
      .recent_pipelines.find((r) => r.pipeline_id === pipelineId)!;
    // failing_job_id keeps its meaning (a job of this pipeline): none failed here.
    expect(row).toMatchObject({ status: 'failed', failing_job_id: null });
    expect(row.downstream_failure).toEqual(expected);

    const details = (await h.api(`/api/pipelines/${parentProject}/details/${pipelineId}`))
      .body as PipelineDetails;
    expect(details.failing_job_id).toBeNull();
    expect(details.bridges).toEqual([expect.objectContaining({ id: bridgeId, status: 'failed' })]);
    expect(details.downstream_failure).toEqual(expected);
  });

  it('follows a child that failed in its own child down to the failing job', async () => {
    h = await startHarness({ simulator: { projects: 3 } });
    const sim = h.simulator;
    const [project] = sim.projectIds();
    const { pipelineId } = sim.startPipeline(project!, { ref: 'feature/nested' });
    sim.finishPipeline(project!, pipelineId, 'success');
    const child = sim.addBridge(project!, pipelineId, {
      name: 'child',
      stage: 'test',
      downstreamProjectId: project!,
      strategy: 'depend',
    });
    sim.finishPipeline(project!, child.downstreamPipelineId, 'success');
    const grandchild = sim.addBridge(project!, child.downstreamPipelineId, {
      name: 'grandchild',
      stage: 'test',
      downstreamProjectId: project!,
      strategy: 'depend',
    });
    sim.finishPipeline(project!, grandchild.downstreamPipelineId, 'failed');

    const details = (await h.api(`/api/pipelines/${project}/details/${pipelineId}`))
      .body as PipelineDetails;
    expect(details.status).toBe('failed');
    expect(details.downstream_failure).toMatchObject({
      trigger_job: { id: child.bridgeId, name: 'child' },
      pipeline: { id: grandchild.downstreamPipelineId, project_id: project },
      job: { status: 'failed' },
    });
  });
});
