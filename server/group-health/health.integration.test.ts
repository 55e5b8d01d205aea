// Group health against the GitLab simulator: every detection is asserted exactly against the
// scenarios the simulator's dataset carries (server/simulator/health-scenarios.ts) and against
// GitLab's own answers. Retried attempts are read with include_retried=true
// (https://docs.gitlab.com/api/jobs/#list-pipeline-jobs).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import { silentLogger } from '../platform/logger.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { parseSince } from '../summary/since.ts';
import type { HealthService } from './health-service.ts';
import { openPollerWithHealth } from './testing/poller-with-health.ts';

let sim: GitLabSimulator;
let dir: string;
let gitlab: GitLabClient;
let health: HealthService;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  sim = await startSimulator({ live: false });
  dir = mkdtempSync(path.join(os.tmpdir(), 'health-int-'));
  gitlab = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
  // The production wiring (server/group-health/index.ts), as the composition root uses it.
  const { poller, group, settle, close } = openPollerWithHealth(gitlab, sim.groupPath, dir);
  health = group.health;
  closers.push(
    () => sim.close(),
    () => rmSync(dir, { recursive: true, force: true }),
    close,
  );
  await poller.cycleOnce();
  await settle();
}, 120_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('group health against the simulator', () => {
  it('finds the default branch that is still broken, since its breaking commit', async () => {
    const scenario = sim.scenarios.broken!;
    const report = await health.defaultBranches();
    const project = report.projects.find((p) => p.project_id === scenario.projectId)!;
    const breaking = await gitlab.getPipeline(scenario.projectId, scenario.breakingPipelineId);
    const commit = await gitlab.getCommit(scenario.projectId, breaking.sha);
    expect(project.state).toBe('broken');
    expect(project.broken_since).toMatchObject({
      pipeline_id: scenario.breakingPipelineId,
      sha: breaking.sha,
      commit_title: commit.title,
      commit_author: commit.author_name,
    });
    // One more failed default-branch pipeline came after it.
    expect(project.pipelines_since.map((p) => p.status)).toEqual(['failed']);
    // Every project's state is what GitLab's newest finished default-branch pipeline says.
    for (const p of report.projects) {
      const list = await gitlab.listPipelines(p.project_id, {
        updatedAfter: new Date(Date.now() - parseSince('7d')).toISOString(),
      });
      const newest = list
        .filter((x) => x.ref === p.default_branch && ['success', 'failed'].includes(x.status))
        .filter((x) => Date.parse(x.created_at) >= Date.now() - parseSince('7d'))
        .sort((a, b) => b.id - a.id)[0];
      if (newest)
        expect([p.project_name, p.state]).toEqual([
          p.project_name,
          newest.status === 'failed' ? 'broken' : 'passing',
        ]);
    }
    expect(report.projects[0]!.state).toBe('broken');
  });

  it('measures the recovered branch’s time to fix exactly', async () => {
    const scenario = sim.scenarios.recovered!;
    const report = await health.defaultBranches();
    const project = report.projects.find((p) => p.project_id === scenario.projectId)!;
    const breaking = await gitlab.getPipeline(scenario.projectId, scenario.breakingPipelineId);
    const fixing = await gitlab.getPipeline(scenario.projectId, scenario.fixingPipelineId);
    // The poller reads over GraphQL, whose `Time` has whole seconds where REST has milliseconds
    // (gitlabhq app/graphql/types/time_type.rb: `value.iso8601`): exact at that precision.
    const wholeSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    const seconds = wholeSeconds(fixing.finished_at!) - wholeSeconds(breaking.created_at);
    expect(project.state).toBe('passing');
    expect(project.time_to_fix).toEqual({
      fixes: 1,
      median_seconds: seconds,
      p90_seconds: seconds,
      max_seconds: seconds,
      mean_seconds: seconds,
    });
  });

  it('names the flaky job: failed and passed on retry in exactly the scenario’s pipelines', async () => {
    const scenario = sim.scenarios.flaky!;
    const index = health.health().flakes;
    const retries = index
      .historyOf(scenario.projectId, scenario.jobName)
      .flakes.filter((f) => f.kind === 'retry')
      .map((f) => f.pipeline.pipelineId)
      .sort();
    expect(retries).toEqual([...scenario.pipelineIds].sort());
    const report = await health.flakyJobs();
    const job = report.jobs.find((j) => j.job_name === scenario.jobName)!;
    expect(job.projects.find((p) => p.project_id === scenario.projectId)!.flakes).toBe(
      index.historyOf(scenario.projectId, scenario.jobName).flakes.length,
    );
    // The seeded background may also fail this job in another pipeline on a commit where it passed
    // (an MR pipeline reuses its branch's commit): a same-commit flake, named after the retries.
    const sameCommit = index
      .historyOf(scenario.projectId, scenario.jobName)
      .flakes.filter((f) => f.kind === 'same-commit').length;
    const words = await health.flakeHistory(scenario.projectId, scenario.jobName);
    const also =
      sameCommit === 0
        ? ''
        : `, and failed and passed on the same commit ${sameCommit === 1 ? 'once' : `${sameCommit} times`}`;
    expect(words.summary).toMatch(
      new RegExp(
        `^failed and passed on retry ${scenario.pipelineIds.length} times${also} this week`,
      ),
    );
  });

  it('detects the slowdown at its commit', async () => {
    const scenario = sim.scenarios.slowdown!;
    const report = await health.regressions();
    const found = report.regressions.find(
      (r) => r.project_id === scenario.projectId && r.job_name === scenario.jobName,
    )!;
    expect(found).toBeDefined();
    expect(found.first_slow.pipeline_id).toBe(scenario.fromPipelineId);
    expect(found.ratio).toBeGreaterThanOrEqual(1.8);
    expect(found.ratio).toBeLessThanOrEqual(2.25);
    const fromPipeline = await gitlab.getPipeline(scenario.projectId, scenario.fromPipelineId);
    const commit = await gitlab.getCommit(scenario.projectId, fromPipeline.sha);
    expect(found.first_slow.commit_title).toBe(commit.title);
    const trends = (await health.trends(scenario.projectId, 7))!;
    expect(trends.jobs.find((j) => j.job_name === scenario.jobName)!.regression).toEqual(found);
  });

  it('lists every failed pipeline of the window, MR pipelines with their titles', async () => {
    const report = await health.failures({ page: 1, pageSize: 100 });
    let failed = 0;
    for (const id of sim.projectIds()) {
      const list = await gitlab.listPipelines(id, {
        updatedAfter: new Date(Date.now() - parseSince('7d')).toISOString(),
      });
      failed += list.filter(
        (p) => p.status === 'failed' && Date.parse(p.created_at) >= Date.now() - parseSince('7d'),
      ).length;
    }
    expect(report.pagination.totalCount).toBe(failed);
    const mr = report.failures.find((f) => f.pipeline.merge_request)!;
    const iid = mr.pipeline.merge_request!.iid;
    const wire = await gitlab.getMergeRequest(mr.project_id, iid);
    expect(mr.pipeline.ref_label).toBe(`!${iid}`);
    expect(mr.pipeline.merge_request).toEqual({ iid, title: wire.title, web_url: wire.web_url });
    // `mine`: the token's user.
    const me = (await gitlab.getCurrentUser()).username;
    const mine = await health.failures({ page: 1, pageSize: 100, user: 'mine' });
    expect(mine.failures.every((f) => f.pipeline.user?.username === me)).toBe(true);
    expect(mine.pagination.totalCount).toBe(
      report.failures.filter((f) => f.pipeline.user?.username === me).length,
    );
  });
});
