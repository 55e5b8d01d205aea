// Issue 24 §2: a pipeline whose CI configuration is invalid keeps its commit. GitLab creates it
// failed and without jobs (gitlabhq lib/gitlab/ci/pipeline/chain/helpers.rb: `error(message,
// config_error: true)` sets `yaml_errors` and `drop!(:config_error)`; doc/api/pipelines.md shows
// `yaml_errors` on the single pipeline), so no job carries its commit; the commit is read by the
// pipeline's sha (doc/api/commits.md "Get a single commit": GET /projects/:id/repository/commits/:sha).
import { afterEach, describe, expect, it } from 'vitest';
import type { DefaultBranchesResponse, FailuresResponse, SummaryResponse } from '../contract.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { silentLogger } from '../platform/logger.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function cycle(harness: Harness): Promise<void> {
  await harness.service.poller.cycleOnce();
  await harness.service.poller.detailsSettled();
  await harness.service.groupHealth.idle();
}

describe('a pipeline broken by its CI configuration', () => {
  it('shows its commit title and author in the failures view, group health and the summary, for one commit read', async () => {
    h = await startHarness({ simulator: { projects: 3 } });
    const branches = (await h.api('/api/health/default-branches')).body as DefaultBranchesResponse;
    const { project_id: projectId, default_branch: branch } = branches.projects[0]!;
    const { pipelineId } = h.simulator.startPipeline(projectId, {
      ref: branch,
      yamlErrors: 'jobs:build config contains unknown keys: scrpt',
    });
    const gitlab = new GitLabClient({
      baseUrl: h.simulator.url,
      token: h.simulator.token,
      logger: silentLogger,
    });
    const pipeline = await gitlab.getPipeline(projectId, pipelineId);
    expect(pipeline).toMatchObject({ status: 'failed', yaml_errors: expect.any(String) });
    expect(await gitlab.listPipelineJobs(projectId, pipelineId)).toEqual([]);
    const commit = await gitlab.getCommit(projectId, pipeline.sha);

    h.simulator.stats.reset();
    await cycle(h);
    // Looked up once by sha, for the history and the summary together.
    expect(h.simulator.stats.byKind.commit).toBe(1);

    const failures = (await h.api(`/api/pipelines/failures?projectId=${projectId}`))
      .body as FailuresResponse;
    const entry = failures.failures.find((f) => f.pipeline.pipeline_id === pipelineId)!;
    expect(entry.failed_jobs).toEqual([]);
    expect(entry.pipeline).toMatchObject({
      commit_title: commit.title,
      commit_author: commit.author_name,
    });

    const health = (await h.api('/api/health/default-branches')).body as DefaultBranchesResponse;
    const latest = health.projects.find((p) => p.project_id === projectId)!.latest!;
    expect(latest).toMatchObject({ pipeline_id: pipelineId, commit_title: commit.title });

    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const row = summary.projects
      .find((p) => p.project_id === projectId)!
      .recent_pipelines.find((r) => r.pipeline_id === pipelineId)!;
    expect(row).toMatchObject({
      status: 'failed',
      failing_job_id: null,
      commit_title: commit.title,
    });

    // The details route finds the same commit kept per sha: no second commit read.
    const details = await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`);
    expect(details.body.commit).toMatchObject({ id: commit.id, title: commit.title });
    expect(h.simulator.stats.byKind.commit).toBe(1);
  });
});
