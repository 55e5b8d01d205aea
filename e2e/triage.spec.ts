import type {
  FailureSignaturesResponse,
  MyMergeRequestsResponse,
  PipelineDetails,
} from '../server/contract.ts';
import { expect, snap, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });

// The demo's simulator plants triage scenarios (server/simulator/triage-scenarios.ts): the token
// user's MRs with each verdict, a registry outage in three projects, fixed twice in one of them.
const FIX_TITLE = 'Pin the base image to registry mirror';

test('My MRs lists the token user’s merge requests with a verdict per failing job', async ({
  page,
  service,
}) => {
  let api: MyMergeRequestsResponse | undefined;
  await expect(async () => {
    api = await service.get<MyMergeRequestsResponse>('/api/triage/mine');
    const verdicts = api.merge_requests.flatMap((m) => m.failures.map((f) => f.verdict));
    expect(verdicts).toEqual(expect.arrayContaining(['broken-on-default', 'flaky', 'new']));
  }).toPass({ timeout: 60_000 });
  await page.goto(service.url + '/');
  await page.getByRole('link', { name: 'My MRs' }).click();
  await expect(page.getByRole('heading', { name: /My merge requests/ })).toContainText(
    `@${api!.user.username}`,
  );
  await expect(page.getByTestId('mine-mr')).toHaveCount(api!.merge_requests.length);
  for (const verdict of ['broken-on-default', 'flaky', 'new'])
    await expect(page.locator(`[data-verdict="${verdict}"]`).first()).toBeVisible();
  await expect(page.locator('[data-verdict="broken-on-default"]').first()).toContainText(
    'Broken on the target branch',
  );
  await snap(page, 'triage-my-mrs');
});

test('a failure that was fixed before shows the fix in the analysis panel', async ({
  page,
  service,
}) => {
  // Failed jobs are signed a few per poll cycle: wait for the outage's occurrences, then find the
  // pipeline where it came back after two fixes.
  let found: { projectId: number; pipelineId: number; jobId: number } | undefined;
  await expect(async () => {
    const signatures = await service.get<FailureSignaturesResponse>('/api/failures/signatures');
    const outage = signatures.signatures.find((s) =>
      s.sample_line.includes('registry.acme.example'),
    );
    expect(outage?.projects.length).toBe(3);
    for (const job of outage!.jobs) {
      const details = await service.get<PipelineDetails>(
        `/api/pipelines/${job.project_id}/details/${job.pipeline_id}`,
      );
      const failed = details.jobs.find((j) => j.id === job.job_id);
      if ((failed?.fixed_before?.length ?? 0) === 2) {
        found = { projectId: job.project_id, pipelineId: job.pipeline_id, jobId: job.job_id };
        break;
      }
    }
    expect(found).toBeDefined();
  }).toPass({ timeout: 120_000, intervals: [2_000] });
  await page.goto(
    `${service.url}/pipelines/${found!.projectId}/${found!.pipelineId}?job=${found!.jobId}&tab=ai`,
  );
  const fixes = page.getByTestId('past-fixes');
  await expect(fixes).toContainText('This error was fixed before');
  await expect(fixes.locator('li')).toHaveCount(2);
  await expect(fixes.locator('li').first()).toContainText(FIX_TITLE);
  await snap(page, 'triage-fixed-before');
});
