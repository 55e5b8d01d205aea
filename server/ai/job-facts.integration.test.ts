// The analysis of the demo's failed jobs over real HTTP: GitLab's facts (failure reason, exit code,
// allow_failure, the retried attempt) and the locations checked against the repository tree the
// simulator serves (doc/api/repositories.md, "List repository tree": GET
// /projects/:id/repository/tree?ref=<sha>&recursive=true, paged), read once per commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { Dataset } from '../simulator/dataset.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import { createAiService, type AiService } from './ai-service.ts';
import { AnalysisStore } from './store/analysis-store.ts';

const NOW = Date.parse('2026-11-28T12:00:00Z');
let sim: GitLabSimulator;
let store: AnalysisStore;
let ai: AiService;
// The simulator's own dataset, built again from the same seed to find the jobs to ask about.
const demo = new Dataset(
  { seed: 42, projects: 12, pipelinesPerDay: 6, days: 14, groupPath: 'acme', now: NOW },
  new ManualClock(NOW),
);

beforeAll(async () => {
  sim = await startSimulator({ clock: new ManualClock(NOW), live: false });
  store = AnalysisStore.open(':memory:', silentLogger);
  ai = createAiService({
    gitlab: new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger }),
    store,
    logger: silentLogger,
    clock: new ManualClock(NOW),
    config: { maxRetries: 0, timeoutMs: 5000 },
    projectName: () => undefined,
  });
}, 60_000);

afterAll(async () => {
  store.close();
  await sim.close();
});

const treeReads = () => sim.stats.recent.filter((r) => r.url.includes('/repository/tree')).length;

function failedJob(name: string, kind: string) {
  for (const project of demo.projects) {
    for (const pipeline of project.pipelines) {
      const job = demo.jobsOf(pipeline).find((j) => j.name === name && j.failure === kind);
      if (job?.status === 'failed') return { project, pipeline, job };
    }
  }
  throw new Error(`no failed ${name} (${kind}) in the demo`);
}

describe('facts and linked locations against the simulator', () => {
  it('links the Terraform file at the commit, reading the tree once, and answers "which file?" with it', async () => {
    const { project, pipeline, job } = failedJob('apply-staging', 'terraform-error');
    const id = { projectId: project.id, pipelineId: pipeline.id, jobId: job.id };
    sim.stats.reset();
    const { analysis } = await ai.analyse(id);
    const link = new RegExp(
      String.raw`\[\`(modules/[\w-]+/main\.tf):(\d+)\`\]\(${sim.url}/${project.fullPath}/-/blob/${pipeline.sha}/\1#L\2\)`,
    );
    expect(analysis).toMatch(link);
    expect(analysis).toContain('- GitLab: failure_reason = `script_failure`');
    expect(analysis).toContain('- runner: exit code 1');
    expect(analysis).toContain('- GitLab: allow_failure = false');
    expect(treeReads()).toBe(1);
    expect(sim.stats.recent.find((r) => r.url.includes('/repository/tree'))!.url).toBe(
      `/api/v4/projects/${project.id}/repository/tree?ref=${pipeline.sha}&recursive=true&per_page=100`,
    );
    await ai.analyse({ ...id, force: true });
    expect(treeReads()).toBe(1);
    const { answer } = await ai.followup({ ...id, question: 'Which file?' });
    expect(answer).toMatch(link);
  });

  it('says a failed attempt that a retry cured is intermittent', async () => {
    const flaky = demo.projects
      .flatMap((project) => project.pipelines.map((pipeline) => ({ project, pipeline })))
      .find(({ pipeline }) => pipeline.retriedJobs.length > 0)!;
    const first = flaky.pipeline.retriedJobs[0]!;
    const retry = demo.jobsOf(flaky.pipeline).find((j) => j.name === first.name)!;
    const { analysis } = await ai.analyse({
      projectId: flaky.project.id,
      pipelineId: flaky.pipeline.id,
      jobId: first.id,
    });
    expect(analysis).toContain(
      `- GitLab: attempt 1 of 2 of this job in pipeline #${flaky.pipeline.id} (retried since: #${retry.id} success) — a retry of the same commit passed: this failure is intermittent`,
    );
  });

  it('states the timeout GitLab recorded, with the runner line that shows it', async () => {
    const { project, pipeline, job } = failedJob('e2e-tests', 'timeout');
    const { analysis } = await ai.analyse({
      projectId: project.id,
      pipelineId: pipeline.id,
      jobId: job.id,
    });
    expect(analysis).toContain(
      '- GitLab: failure_reason = `job_execution_timeout` — the script ran longer than the maximum execution time set for the job. The log: `ERROR: Job failed: execution took longer than 1h0m0s seconds`',
    );
  });
});
