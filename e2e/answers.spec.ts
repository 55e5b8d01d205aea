// Issue 25 in Chromium: failed jobs as a new user reads their built-in analysis at 1024×640 — a
// Terraform apply with its file linked at the line, an apply that ran out of time with a repro that
// changes nothing remote, the e2e timeout with what the job was doing when it stopped (every
// component's retries one quoted line), and the image build with BuildKit's pull error. Each is
// failed on purpose in a simulator the tests drive.
// Screenshots: test-results/screenshots/answers-*.png.
import type { Page } from '@playwright/test';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import { plantFailure, type PlantedJob } from '../server/simulator/testing/plant.ts';
import { analyseOnTab, expect, snap, test } from './fixtures.ts';
import { DemoService } from './service.ts';

test.describe.configure({ mode: 'serial' });

/** Opens the job's panel, analyses it and shows the answer from its top. */
async function analyse(page: Page, service: DemoService, job: PlantedJob) {
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
 * Failures the tests plant themselves, in a simulator they drive: what the demo's two weeks hold
 * depends on the hour (CI at 01:10 had no Terraform diagnostic; at 03:40 the newest build-image
 * failure was an out-of-memory kill). The analysis of the demo's own failures is tested
 * clock-free in server/simulator/logs/demo-analysis.test.ts.
 */
let planted: {
  sim: GitLabSimulator;
  service: DemoService;
  terraform: PlantedJob;
  applyTimeout: PlantedJob;
  e2eTimeout: PlantedJob;
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
  const applyTimeout = await plantFailure(sim, 'terraform-modules', 'apply-staging', 'timeout');
  const e2eTimeout = await plantFailure(sim, 'web-app', 'e2e-tests', 'timeout');
  const buildImage = await plantFailure(sim, 'data-pipeline', 'build-image', 'network');
  const service = await DemoService.start({ gitlab: sim });
  await service.waitForSummary();
  planted = { sim, service, terraform, applyTimeout, e2eTimeout, buildImage };
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
}) => {
  const answer = await analyse(page, planted.service, planted.applyTimeout);
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
}) => {
  const answer = await analyse(page, planted.service, planted.e2eTimeout);
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
