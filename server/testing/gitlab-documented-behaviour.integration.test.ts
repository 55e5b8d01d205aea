// Issue 15 §1: the service against the simulator behaving as GitLab documents it. Each test names
// the GitLab document (gitlab-org/gitlab doc/…) or source file whose rule it checks.
import { afterEach, describe, expect, it } from 'vitest';
import type { PipelineDetails, SummaryResponse } from '../contract.ts';
import { silentLogger } from '../platform/logger.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { startHarness, type Harness } from './service-harness.ts';
import { GitLabClient } from '../gitlab/client.ts';
import { MAX_GROUP_DEPTH, parseGroupRef } from '../gitlab/group-ref.ts';

let h: Harness | undefined;
let sim: GitLabSimulator | undefined;
afterEach(async () => {
  await h?.close();
  await sim?.close();
  h = undefined;
  sim = undefined;
});

async function summary(): Promise<SummaryResponse> {
  return (await h!.api('/api/pipelines/summary')).body as SummaryResponse;
}

/** A pipeline of the summary with the given status (newest first), or the first one. */
async function pipelineWith(status?: string): Promise<{ projectId: number; pipelineId: number }> {
  for (const project of (await summary()).projects) {
    for (const p of project.recent_pipelines) {
      if (!status || p.status === status)
        return { projectId: project.project_id, pipelineId: p.pipeline_id };
    }
  }
  throw new Error(`no ${status ?? ''} pipeline in the summary`);
}

describe('authentication (doc/api/rest/authentication.md)', () => {
  it('an OAuth 2.0 access token works, because the client sends Authorization: Bearer', async () => {
    sim = await startSimulator({ live: false, projects: 2, oauthTokens: ['oauth-access-token'] });
    const client = new GitLabClient({ baseUrl: sim.url, token: 'oauth-access-token', retries: 0 });
    await expect(client.getGroup(sim.groupPath)).resolves.toMatchObject({ full_path: 'acme' });
    // GitLab refuses OAuth tokens in PRIVATE-TOKEN: the old header would have been a 401.
    const privateHeader = new GitLabClient({
      baseUrl: sim.url,
      token: 'oauth-access-token',
      tokenType: 'private',
      retries: 0,
    });
    await expect(privateHeader.getGroup(sim.groupPath)).rejects.toMatchObject({
      code: 'unauthorized',
      upstreamStatus: 401,
    });
  });
});

describe('403 is not 401 (doc/user/permissions.md, doc/api/rest/troubleshooting.md)', () => {
  it('a project with CI/CD disabled answers 403: details say so and name the project; the summary skips it', async () => {
    h = await startHarness({ simulator: { projects: 4 } });
    const { projectId, pipelineId } = await pipelineWith();
    h.simulator.setPipelineAccess(projectId, 'ci-disabled');
    const res = await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toContain(`GitLab project ${projectId}`);
    expect(res.body.error).toContain('CI/CD may be disabled');
    await h.service.poller.cycleOnce();
    // Skipped until the next project refresh, not failing the whole group.
    expect((await summary()).status?.state).toBe('ok');
  });

  it('a Guest of a private project gets 403 too, while a bad token stays a 401 "invalid token"', async () => {
    sim = await startSimulator({ live: false, projects: 2 });
    const [projectId] = sim.projectIds();
    sim.setPipelineAccess(projectId!, 'guest');
    const client = new GitLabClient({ baseUrl: sim.url, token: sim.token, retries: 0 });
    await expect(client.listPipelines(projectId!)).rejects.toMatchObject({
      code: 'forbidden',
      upstreamStatus: 403,
    });
    const wrong = new GitLabClient({ baseUrl: sim.url, token: 'not-a-token', retries: 0 });
    const err = await wrong.listPipelines(projectId!).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unauthorized', upstreamStatus: 401 });
    expect((err as Error).message).toContain('invalid token');
  });
});

describe('UTC everywhere (docs/api.md: timestamps are ISO 8601 UTC)', () => {
  it('an instance in +01:00 and committers in their own zones still give …Z timestamps', async () => {
    h = await startHarness({ simulator: { projects: 3, utcOffsetMinutes: 60 } });
    const body = await summary();
    const stamps = body.projects.flatMap((p) => p.recent_pipelines.map((r) => r.created_at));
    expect(stamps.length).toBeGreaterThan(0);
    for (const stamp of stamps) expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { projectId, pipelineId } = await pipelineWith();
    const details = (await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`))
      .body as PipelineDetails;
    // GitLab's commit dates carry the committer's offset (doc/api/commits.md examples).
    const raw = await fetch(
      `${h.simulator.url}/api/v4/projects/${projectId}/pipelines/${pipelineId}`,
      { headers: { authorization: `Bearer ${h.simulator.token}` } },
    ).then((r) => r.json() as Promise<{ created_at: string }>);
    expect(raw.created_at).toMatch(/\+01:00$/);
    expect(details.created_at).toBe(new Date(raw.created_at).toISOString());
    expect(details.commit?.created_at).toMatch(/Z$/);
    for (const job of details.jobs) expect(job.created_at).toMatch(/Z$/);
  });
});

describe('no stale details (doc/api/pipelines.md "Retry jobs in a pipeline")', () => {
  it('a retried pipeline shows running again with the new attempt, stages in pipeline order', async () => {
    h = await startHarness({ simulator: { projects: 6 } });
    const { projectId, pipelineId } = await pipelineWith('failed');
    const before = (await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`))
      .body as PipelineDetails;
    expect(before.status).toBe('failed');
    const stages = [...new Set(before.jobs.map((j) => j.stage))];
    const failedJob = before.jobs.find((j) => j.status === 'failed')!;

    h.simulator.retryPipeline(projectId, pipelineId);
    await h.service.poller.cycleOnce();
    const after = (await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`))
      .body as PipelineDetails;
    expect(after.status).not.toBe('failed');
    const retried = after.jobs.find((j) => j.name === failedJob.name)!;
    expect(retried.id).toBeGreaterThan(failedJob.id); // the new attempt, not the old one
    expect(after.jobs.filter((j) => j.name === failedJob.name)).toHaveLength(1);
    expect([...new Set(after.jobs.map((j) => j.stage))]).toEqual(stages);
  });

  it('a pipeline GitLab deleted is a 404 once the poller has seen it go, even if its details were cached', async () => {
    h = await startHarness({
      simulator: { projects: 3 },
      edges: { timing: { fastIntervalMs: 60_000, slowIntervalMs: 60_000, reconcileMs: 0 } },
    });
    const { projectId, pipelineId } = await pipelineWith('success');
    expect((await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`)).status).toBe(200);
    h.simulator.deletePipeline(projectId, pipelineId);
    // The cache is keyed on the updated_at the poller holds; the next cycle reconciles deletions,
    // after which the details route asks GitLab again and passes its 404 on.
    await h.service.poller.cycleOnce();
    expect((await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`)).status).toBe(404);
  });
});

describe('deletions (doc/api/pipelines.md "Delete a pipeline"; doc/ci/pipelines/settings.md pipeline expiry)', () => {
  it('a deleted pipeline leaves the summary at the next reconciliation, which reads only ids', async () => {
    h = await startHarness({
      simulator: { projects: 3 },
      edges: { timing: { fastIntervalMs: 60_000, slowIntervalMs: 60_000, reconcileMs: 0 } },
    });
    const total = (await summary()).summary.total_pipelines;
    const { projectId, pipelineId } = await pipelineWith('success');
    h.simulator.deletePipeline(projectId, pipelineId);
    h.simulator.stats.reset();
    await h.service.poller.cycleOnce();
    expect((await summary()).summary.total_pipelines).toBe(total - 1);
    // Reconciling asked for ids over GraphQL, not for any pipeline's details again.
    expect(h.simulator.stats.byKind.pipeline).toBe(0);
    expect(h.simulator.stats.byKind['pipelines-list']).toBe(0);
  });
});

describe('trigger jobs (doc/api/jobs.md "List pipeline trigger jobs")', () => {
  it('details list bridges apart from jobs, with the downstream pipeline id, status and link', async () => {
    h = await startHarness({ simulator: { projects: 4 } });
    const { projectId, pipelineId } = await pipelineWith('success');
    const [downstreamProject] = h.simulator.projectIds().filter((id) => id !== projectId);
    const { bridgeId, downstreamPipelineId } = h.simulator.addBridge(projectId, pipelineId, {
      name: 'deploy-child',
      stage: 'deploy',
      downstreamProjectId: downstreamProject!,
      // The trigger job takes the downstream outcome only with `trigger: strategy: depend`.
      strategy: 'depend',
    });
    h.simulator.finishPipeline(downstreamProject!, downstreamPipelineId, 'failed');
    await h.service.poller.cycleOnce();
    const details = (await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`))
      .body as PipelineDetails;
    expect(details.jobs.map((j) => j.id)).not.toContain(bridgeId);
    expect(details.bridges).toEqual([
      expect.objectContaining({
        id: bridgeId,
        name: 'deploy-child',
        status: 'failed',
        downstream_pipeline: {
          id: downstreamPipelineId,
          status: 'failed',
          web_url: expect.stringMatching(new RegExp(`/-/pipelines/${downstreamPipelineId}$`)),
        },
      }),
    ]);
  });
});

describe('groups (doc/api/groups.md, doc/user/group/subgroups/index.md)', () => {
  it('reads a group with with_projects=false', async () => {
    sim = await startSimulator({ live: false, projects: 2 });
    const client = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    const group = await client.getGroup(sim.groupPath);
    expect(group).not.toHaveProperty('projects');
    expect(sim.stats.recent.at(-1)!.url).toContain('with_projects=false');
  });

  it('accepts paths of a group and 20 levels of subgroups; refuses deeper, empty, . and .. segments', async () => {
    const deepest = Array.from({ length: MAX_GROUP_DEPTH }, (_, i) => `g${i}`).join('/');
    expect(parseGroupRef(deepest)).toBe(deepest);
    expect(() => parseGroupRef(`${deepest}/one-more`)).toThrow(/at most 21/);
    for (const bad of ['..', 'acme/..', 'acme/./x', 'acme//x', '/'])
      expect(() => parseGroupRef(bad)).toThrow(/Invalid group/);

    h = await startHarness({ simulator: { projects: 2 } });
    h.simulator.stats.reset();
    for (const group of ['..', 'acme/../..', 'a//b', '.']) {
      const res = await h.api('/api/settings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ group }),
      });
      expect(res.status).toBe(400);
    }
    expect(h.service.poller.target.group).toBe('acme');
    expect(h.simulator.stats.recent.some((r) => r.url.startsWith('/api/v4/projects?'))).toBe(false);
  });
});
