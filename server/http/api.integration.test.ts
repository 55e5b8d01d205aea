import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ActivityResponse,
  JobTraceResponse,
  PipelineDetails,
  SummaryResponse,
} from '../contract.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(() => h?.close());

function expectErrorShape(
  res: { status: number; body: Record<string, unknown> },
  status: number,
  message?: RegExp,
) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'statusCode', 'timestamp']);
  expect(res.body.statusCode).toBe(status);
  if (message) expect(res.body.error).toMatch(message);
}

/** Every pipeline of the group in the window, straight from the simulator (the oracle). */
async function upstreamPipelines(): Promise<{ status: string; project_id: number }[]> {
  const headers = { 'PRIVATE-TOKEN': h.simulator.token };
  const cutoff = Date.now() - 7 * 86_400_000;
  const projects = (await (
    await fetch(
      `${h.simulator.url}/api/v4/groups/${h.simulator.groupPath}/projects?include_subgroups=true&archived=false&per_page=100`,
      { headers },
    )
  ).json()) as { id: number }[];
  const all: { status: string; project_id: number; created_at: string }[] = [];
  for (const p of projects) {
    for (let page = 1; ; page++) {
      const res = await fetch(
        `${h.simulator.url}/api/v4/projects/${p.id}/pipelines?per_page=100&page=${page}`,
        { headers },
      );
      all.push(...((await res.json()) as typeof all));
      if (!res.headers.get('x-next-page')) break;
    }
  }
  return all.filter((p) => Date.parse(p.created_at) >= cutoff);
}

describe('summary', () => {
  it('matches GitLab: totals, successes, failures and running over the window', async () => {
    const { status, body } = await h.api('/api/pipelines/summary');
    expect(status).toBe(200);
    const summary = body as SummaryResponse;
    const upstream = await upstreamPipelines();
    expect(summary.summary.total_pipelines).toBe(upstream.length);
    expect(summary.summary.successful).toBe(upstream.filter((p) => p.status === 'success').length);
    expect(summary.summary.failed).toBe(upstream.filter((p) => p.status === 'failed').length);
    expect(summary.projects.reduce((n, p) => n + p.total_pipelines, 0)).toBe(upstream.length);
    expect(summary.summary.average_duration).toBeGreaterThan(0);
    expect(Number.isInteger(summary.summary.average_duration)).toBe(true);
    expect(summary.status?.state).toBe('ok');
    const first = summary.projects[0]!;
    expect(first.recent_pipelines.length).toBeLessThanOrEqual(10);
    expect(first.recent_pipelines[0]!.user).toMatchObject({
      username: expect.any(String),
      avatar_url: expect.any(String),
    });
  });
});

describe('activity', () => {
  it('covers every pipeline of the window, not just the newest ten per project', async () => {
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const { status, body } = await h.api('/api/pipelines/activity');
    expect(status).toBe(200);
    const activity = body as ActivityResponse;
    expect(activity.bucket).toBe('day');
    const total = activity.buckets.reduce(
      (n, b) => n + b.success + b.failed + b.running + b.other,
      0,
    );
    expect(total).toBe(summary.summary.total_pipelines);
    expect(total).toBeGreaterThan(
      summary.projects.reduce((n, p) => n + p.recent_pipelines.length, 0),
    );
    expect(activity.contributors.reduce((n, c) => n + c.pipelines, 0)).toBeGreaterThan(0);
  });
});

describe('job trace error lines', () => {
  it("marks a failed job's error lines by the distiller's rules", async () => {
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const project = summary.projects.find((p) =>
      p.recent_pipelines.some((r) => r.status === 'failed'),
    )!;
    const pipeline = project.recent_pipelines.find((r) => r.status === 'failed')!;
    const details = (
      await h.api(`/api/pipelines/${project.project_id}/details/${pipeline.pipeline_id}`)
    ).body as PipelineDetails;
    const job = details.jobs.find((j) => j.status === 'failed')!;
    const trace = (await h.api(`/api/jobtrace?projectId=${project.project_id}&jobId=${job.id}`))
      .body as JobTraceResponse;
    expect(trace.error_lines!.length).toBeGreaterThan(0);
    const lines = trace.trace.split('\n');
    expect(lines[trace.error_lines!.at(-1)!]).toMatch(/ERROR: Job failed/);
    const passed = details.jobs.find((j) => j.status === 'success');
    if (passed) {
      const ok = (await h.api(`/api/jobtrace?projectId=${project.project_id}&jobId=${passed.id}`))
        .body as JobTraceResponse;
      expect(ok).not.toHaveProperty('error_lines');
    }
  });
});

describe('pipeline details and job traces', () => {
  let failed: { projectId: number; pipelineId: number };
  beforeAll(async () => {
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    for (const project of summary.projects) {
      const p = project.recent_pipelines.find((r) => r.status === 'failed');
      if (p) {
        failed = { projectId: project.project_id, pipelineId: p.pipeline_id };
        break;
      }
    }
    expect(failed).toBeDefined();
  });

  it('returns the pipeline with jobs in stage order, user and commit', async () => {
    const { status, body } = await h.api(
      `/api/pipelines/${failed.projectId}/details/${failed.pipelineId}`,
    );
    expect(status).toBe(200);
    const details = body as PipelineDetails;
    expect(details).toMatchObject({
      pipeline_id: failed.pipelineId,
      project_id: failed.projectId,
      status: 'failed',
    });
    expect(details.user).toMatchObject({
      id: expect.any(Number),
      username: expect.any(String),
      name: expect.any(String),
    });
    expect(details.commit).toMatchObject({
      id: expect.any(String),
      short_id: expect.any(String),
      title: expect.any(String),
      author_email: expect.any(String),
    });
    expect(details.jobs.length).toBeGreaterThan(0);
    expect(details.jobs.every((j) => j.duration === null || Number.isInteger(j.duration))).toBe(
      true,
    );
    expect(details.jobs.some((j) => j.status === 'failed')).toBe(true);
  });

  it("names the failing job and commit on the summary's failed row, agreeing with the details", async () => {
    await h.service.poller.detailsSettled();
    await new Promise((r) => setTimeout(r, 150)); // the poller's throttled recompute
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const row = summary.projects
      .find((p) => p.project_id === failed.projectId)!
      .recent_pipelines.find((r) => r.pipeline_id === failed.pipelineId)!;
    const details = (await h.api(`/api/pipelines/${failed.projectId}/details/${failed.pipelineId}`))
      .body as PipelineDetails;
    const job = details.jobs.find((j) => j.id === details.failing_job_id)!;
    expect(job.status).toBe('failed');
    expect(row.failing_job_id).toBe(details.failing_job_id);
    expect(row.commit_title).toBe(details.commit!.title);
    const project = summary.projects.find((p) => p.project_id === failed.projectId)!;
    expect(project.average_duration).toEqual(expect.any(Number));
  });

  it("names the failing job on the summary's failed row (issue 30, item 2)", async () => {
    await h.service.poller.detailsSettled();
    await h.service.poller.cycleOnce();
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const row = summary.projects
      .find((p) => p.project_id === failed.projectId)!
      .recent_pipelines.find((r) => r.pipeline_id === failed.pipelineId)!;
    const details = (await h.api(`/api/pipelines/${failed.projectId}/details/${failed.pipelineId}`))
      .body as PipelineDetails;
    expect(row.failing_job_name).toBe(details.jobs.find((j) => j.id === row.failing_job_id)!.name);
  });

  it('labels merge-request refs `!iid` with the title GitLab gives, in the summary and the details (issue 30, item 1)', async () => {
    await h.service.groupHealth.idle();
    await h.service.poller.cycleOnce();
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const mr = summary.projects
      .flatMap((p) => p.recent_pipelines.map((r) => ({ project: p, r })))
      .find(({ r }) => r.ref.startsWith('refs/merge-requests/'));
    expect(mr).toBeDefined();
    const iid = Number(mr!.r.ref.split('/')[2]);
    const upstream = (await (
      await fetch(
        `${h.simulator.url}/api/v4/projects/${mr!.project.project_id}/merge_requests/${iid}`,
        { headers: { 'PRIVATE-TOKEN': h.simulator.token } },
      )
    ).json()) as { title: string; web_url: string };
    const expected = {
      ref_label: `!${iid}`,
      merge_request: { iid, title: upstream.title, web_url: upstream.web_url },
    };
    expect(mr!.r).toMatchObject(expected);
    const details = (
      await h.api(`/api/pipelines/${mr!.project.project_id}/details/${mr!.r.pipeline_id}`)
    ).body as PipelineDetails;
    expect(details).toMatchObject(expected);
    const branch = summary.projects[0]!.recent_pipelines.find((r) => !r.ref.startsWith('refs/'));
    if (branch) expect(branch).toMatchObject({ ref_label: branch.ref, merge_request: null });
  });

  it('serves a failed job log with ANSI colours and section markers, complete', async () => {
    const details = (await h.api(`/api/pipelines/${failed.projectId}/details/${failed.pipelineId}`))
      .body as PipelineDetails;
    const job = details.jobs.find((j) => j.status === 'failed')!;
    const { status, body } = await h.api(
      `/api/jobtrace?projectId=${failed.projectId}&jobId=${job.id}`,
    );
    expect(status).toBe(200);
    expect(body.complete).toBe(true);
    expect(body.trace).toContain('\u001b[');
    expect(body.trace).toMatch(/section_start:\d+:/);
  });

  it('analyses a failed job through the composed AI service, reading its log capped', async () => {
    const details = (await h.api(`/api/pipelines/${failed.projectId}/details/${failed.pipelineId}`))
      .body as PipelineDetails;
    const job = details.jobs.find((j) => j.status === 'failed')!;
    const { status, body } = await h.api('/api/ai/analyse', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        projectId: failed.projectId,
        pipelineId: failed.pipelineId,
        jobId: job.id,
        jobName: job.name,
        stage: job.stage,
      }),
    });
    expect(status).toBe(200);
    expect(typeof body.analysis).toBe('string');
    expect(body.analysis.length).toBeGreaterThan(20);
  });

  it('says a running job log is not complete', async () => {
    const { projectId, pipelineId } = h.simulator.startPipeline();
    for (let i = 0; i < 4; i++) h.simulator.step();
    const details = (await h.api(`/api/pipelines/${projectId}/details/${pipelineId}`))
      .body as PipelineDetails;
    const running = details.jobs.find((j) => j.status === 'running' || j.status === 'pending');
    expect(running).toBeDefined();
    const { body } = await h.api(`/api/jobtrace?projectId=${projectId}&jobId=${running!.id}`);
    expect(body.complete).toBe(false);
  });

  it('answers unknown pipelines, jobs and bad ids in the error shape', async () => {
    expectErrorShape(await h.api(`/api/pipelines/${failed.projectId}/details/99999999`), 404);
    expectErrorShape(
      await h.api('/api/pipelines/abc/details/1'),
      400,
      /projectId.*positive integer/,
    );
    expectErrorShape(await h.api('/api/pipelines/1/details/0'), 400, /pipelineId/);
    expectErrorShape(await h.api('/api/jobtrace?projectId=1'), 400, /jobId/);
    expectErrorShape(
      await h.api(`/api/jobtrace?projectId=${failed.projectId}&jobId=99999999`),
      404,
    );
  });
});

describe('settings', () => {
  it('reads and re-targets group and window, persisting them', async () => {
    const before = await h.api('/api/settings');
    expect(before.body).toEqual({
      group: h.simulator.groupPath,
      since: '7d',
      forgeUrl: h.simulator.url,
    });
    const post = (body: unknown) =>
      h.api('/api/settings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const changed = await post({ since: '1d' });
    expect(changed.body).toEqual({ success: true, group: h.simulator.groupPath, since: '1d' });
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(`${h.dataDir}/settings.json`, 'utf8'))).toMatchObject({
      since: '1d',
    });
    await h.service.poller.cycleOnce();
    const day = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    expect(day.status?.since).toBe('1d');
    await post({ since: '7d' });
    await h.service.poller.cycleOnce();
    await h.service.poller.detailsSettled();
    const week = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    expect(week.summary.total_pipelines).toBeGreaterThan(day.summary.total_pipelines);
  });

  it('rejects bad settings without changing anything', async () => {
    const post = (body: string) =>
      h.api('/api/settings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expectErrorShape(await post(JSON.stringify({ since: '7 days' })), 400, /Invalid since/);
    expectErrorShape(await post(JSON.stringify({ group: '' })), 400, /group/);
    expectErrorShape(await post(JSON.stringify({ colour: 'red' })), 400);
    expectErrorShape(await post('{}'), 400, /Send 'group', 'since' or both/);
    expectErrorShape(await post('{"since":'), 400, /not valid JSON/);
    // A group GitLab does not know is not saved, and the answer says so (not "unreachable").
    expectErrorShape(await post(JSON.stringify({ group: 'no-such/group' })), 404, /not found/);
    expect((await h.api('/api/settings')).body.since).toBe('7d');
    expect((await h.api('/api/settings')).body.group).toBe(h.simulator.groupPath);
  });
});

describe('groups', () => {
  it('looks up a group by path and id, its subgroups and its parent siblings', async () => {
    const group = await h.api(`/api/groups/${h.simulator.groupPath}`);
    expect(group.status).toBe(200);
    expect(Object.keys(group.body).sort()).toEqual([
      'description',
      'full_path',
      'id',
      'name',
      'parent_id',
      'path',
      'visibility',
    ]);
    const byId = await h.api(`/api/groups/${group.body.id}`);
    expect(byId.body.full_path).toBe(h.simulator.groupPath);
    const subgroups = await h.api(`/api/groups/${h.simulator.groupPath}/subgroups`);
    expect(subgroups.body.length).toBeGreaterThan(0);
    expect(Object.keys(subgroups.body[0]).sort()).toEqual(['full_path', 'id', 'name', 'path']);
    const child = subgroups.body[0];
    const nested = await h.api(`/api/groups/${encodeURIComponent(child.full_path)}`);
    expect(nested.body.parent_id).toBe(group.body.id);
    const slashPath = await h.api(`/api/groups/${child.full_path}`);
    expect(slashPath.body.id).toBe(child.id);
    const siblings = await h.api(`/api/groups/parent/${group.body.id}`);
    expect(siblings.body.map((g: { id: number }) => g.id)).toContain(child.id);
    expect(Object.keys(siblings.body[0]).sort()).toEqual(['id', 'name', 'path']);
  });

  it('answers unknown groups with 404 and bad references with 400', async () => {
    expectErrorShape(await h.api('/api/groups/no-such-group'), 404);
    expectErrorShape(await h.api('/api/groups/parent/abc'), 400);
    expectErrorShape(await h.api('/api/groups/bad%20name'), 400);
  });
});

describe('avatar proxy', () => {
  it('proxies images from the GitLab origin only', async () => {
    const summary = (await h.api('/api/pipelines/summary')).body as SummaryResponse;
    const avatar = summary.projects
      .flatMap((p) => p.recent_pipelines)
      .find((p) => p.user?.avatar_url)!.user!.avatar_url;
    const res = await fetch(`${h.service.url}/api/avatar?url=${encodeURIComponent(avatar)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expectErrorShape(
      await h.api(
        `/api/avatar?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`,
      ),
      400,
      /only from/,
    );
    expectErrorShape(
      await h.api(`/api/avatar?url=${encodeURIComponent('file:///etc/passwd')}`),
      400,
    );
    expectErrorShape(await h.api('/api/avatar'), 400, /url/);
  });
});

describe('security', () => {
  it('refuses foreign Origins on state-changing requests', async () => {
    const res = await h.api('/api/settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://attacker.example' },
      body: JSON.stringify({ since: '1h' }),
    });
    expectErrorShape(res, 403, /Origin not allowed/);
    expect((await h.api('/api/settings')).body.since).toBe('7d');
  });
});
