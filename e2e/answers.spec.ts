// Issue 25 in Chromium: failed jobs as a new user reads their built-in analysis at 1024×640 — a
// Terraform apply with its file linked at the line and the image build with BuildKit's pull error
// (both failed on purpose in a simulator the tests drive), and, from `serve --demo`'s own two
// weeks, the apply-staging repro that changes nothing remote and the e2e timeout with what the job
// was doing when it stopped (every component's retries one quoted line).
// Screenshots: test-results/screenshots/answers-*.png.
import type { Page } from '@playwright/test';
import type { FailuresResponse } from '../server/contract.ts';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import { plantFailure, type PlantedJob } from '../server/simulator/testing/plant.ts';
import { analyseOnTab, expect, snap, test } from './fixtures.ts';
import { DemoService } from './service.ts';

test.describe.configure({ mode: 'serial' });

interface JobRef {
  projectId: number;
  pipelineId: number;
  jobId: number;
}

/**
 * The failed jobs of the demo's two weeks by name (and GitLab's failure reason), newest first;
 * waits up to 30 s for them, since an older failure's jobs are read after the first summary.
 */
async function failedJobs(service: DemoService, names: string[], reason?: string) {
  for (const deadline = Date.now() + 30_000; ;) {
    const found = await listedFailedJobs(service, names, reason);
    if (found.length > 0) return found;
    if (Date.now() > deadline)
      throw new Error(`the demo has no failed ${names.join('/')} job in two weeks`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

async function listedFailedJobs(service: DemoService, names: string[], reason?: string) {
  const out: JobRef[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = await service.get<FailuresResponse>(
      `/api/pipelines/failures?since=14d&page=${page}&pageSize=100`,
    );
    for (const f of res.failures)
      for (const job of f.failed_jobs)
        if (names.includes(job.name) && (reason === undefined || job.failure_reason === reason))
          out.push({
            projectId: f.project_id,
            pipelineId: f.pipeline.pipeline_id,
            jobId: job.job_id,
          });
    if (res.failures.length < 100) break;
  }
  return out;
}

const failedJob = async (service: DemoService, name: string, reason?: string) =>
  (await failedJobs(service, [name], reason))[0]!;

/** Opens the job's panel, analyses it and shows the answer from its top. */
async function analyse(
  page: Page,
  service: DemoService,
  job: Awaited<ReturnType<typeof failedJob>>,
) {
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${service.url}/pipelines/${job.projectId}/${job.pipelineId}?job=${job.jobId}`);
  await page.getByRole('tab', { name: /Analyze with AI/ }).click();
  await analyseOnTab(page);
  const answer = page.getByRole('article', { name: 'AI analysis' }).locator('.markdown');
  await expect(answer).toContainText('Next steps', { timeout: 30_000 });
  return answer;
}

/**
 * Failures the tests plant themselves, in a simulator they drive: the demo's two weeks hold a
 * Terraform diagnostic or a base-image pull failure only at some hours (CI at 01:10 had no
 * Terraform diagnostic; at 04:00 the newest build-image failure was an out-of-memory kill). The
 * analysis of the demo's own failures is tested clock-free in
 * server/simulator/logs/demo-analysis.test.ts.
 */
let planted: {
  sim: GitLabSimulator;
  service: DemoService;
  terraform: PlantedJob;
  buildImage: PlantedJob;
};

test.beforeAll(async () => {
  const sim = await startSimulator({ live: false, projects: 6, days: 1 });
  const terraform = await plantFailure(
    sim,
    'terraform-modules',
    'apply-staging',
    'terraform-error',
  );
  const buildImage = await plantFailure(sim, 'data-pipeline', 'build-image', 'network');
  const service = await DemoService.start({ gitlab: sim });
  await service.waitForSummary();
  planted = { sim, service, terraform, buildImage };
});

test.afterAll(async () => {
  await planted?.service.dispose();
  await planted?.sim.close();
});

test('a Terraform error: the error box, its file linked at the line, the tool’s suggestion', async ({
  page,
}) => {
  await terraformAnswer(page, planted.service, planted.terraform);
});

/** The Terraform job's answer: the diagnostic, the file linked at its line, and no apply advised. */
async function terraformAnswer(page: Page, service: DemoService, job: PlantedJob) {
  const answer = await analyse(page, service, job);
  await expect(answer).toContainText(/Did you mean "(id|instance_type)"\?/);
  const where = answer.locator('a', { hasText: /^modules\/[\w-]+\/main\.tf:\d+$/ }).first();
  await expect(where).toHaveAttribute(
    'href',
    /\/-\/blob\/[0-9a-f]{40}\/modules\/[\w-]+\/main\.tf#L\d+$/,
  );
  // The failing step may name an apply (two weeks hold apply-staging failures too); the advice never runs one.
  await expect(answer.locator('ol').last()).not.toContainText('terraform apply');
  await expect(answer).not.toContainText('suspect flakiness');
  await answer
    .locator('strong', { hasText: 'Decisive lines' })
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await snap(page, 'answers-terraform');
}

test('apply-staging: what stopped the deploy, and a repro that changes nothing remote', async ({
  page,
  twoWeekService: service,
}) => {
  const answer = await analyse(page, service, await failedJob(service, 'apply-staging'));
  // The failing step names the deploy; the advice never runs it.
  const steps = answer.locator('ol').last();
  await expect(steps).not.toContainText('terraform apply');
  await expect(steps).not.toContainText('helm upgrade');
  await answer
    .locator('strong', { hasText: 'Decisive lines' })
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await snap(page, 'answers-apply-staging');
});

test('e2e-tests: the timeout GitLab states and the last activity, retries folded', async ({
  page,
  twoWeekService: service,
}) => {
  const answer = await analyse(
    page,
    service,
    await failedJob(service, 'e2e-tests', 'job_execution_timeout'),
  );
  await expect(answer).toContainText('job_execution_timeout');
  const quoted = answer.locator('pre').first();
  await expect(quoted).toContainText(/retrying request \d+ after \d+ms {3}\(×\d+\)/);
  expect(((await quoted.textContent()) ?? '').match(/retrying request/g)).toHaveLength(1);
  await answer
    .locator('strong', { hasText: 'Decisive lines' })
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await snap(page, 'answers-e2e-tests');
});

test('build-image: the docker build step and the base image BuildKit could not pull', async ({
  page,
}) => {
  const answer = await analyse(page, planted.service, planted.buildImage);
  await expect(answer).toContainText('Failing step: docker build');
  // The pull BuildKit could not make is the cause, not the registry login before it.
  await expect(answer.locator('pre').first()).toContainText('ERROR: failed to solve:');
  await expect(answer.locator('ol').last()).not.toContainText('docker push');
  await answer
    .locator('strong', { hasText: 'Decisive lines' })
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await snap(page, 'answers-build-image');
});
