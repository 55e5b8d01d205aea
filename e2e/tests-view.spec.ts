import type { FailingTestsResponse } from '../server/contract.ts';
import { expect, snap, test } from './fixtures.ts';

// The demo's simulator plants a test failing on a default branch since a known pipeline
// (server/simulator/test-reports/scenarios.ts); its JUnit reports are read as the history fills.
test("the Tests view lists failing tests, filters them, and opens a failed test's trace", async ({
  page,
  service,
}) => {
  await expect(async () => {
    const api = await service.get<FailingTestsResponse>('/api/tests/failing');
    expect(api.tests.some((t) => t.failing_on_default_branch && t.last_failure.job_id)).toBe(true);
  }).toPass({ timeout: 60_000 });

  await page.goto(service.url + '/');
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Tests' })
    .click();
  const table = page.getByRole('table', { name: 'Failing tests' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  // The history still fills while the demo starts: compare the page with the API until they agree.
  let failing: FailingTestsResponse['tests'][number] | undefined;
  const row = () => table.locator('tbody tr').filter({ hasText: failing!.name }).first();
  await expect(async () => {
    const api = await service.get<FailingTestsResponse>('/api/tests/failing');
    failing = api.tests.find((t) => t.failing_on_default_branch && t.last_failure.job_id)!;
    await page.reload();
    await page.getByRole('searchbox', { name: 'Filter by test name' }).fill(failing.name);
    await page.getByRole('combobox', { name: 'Project' }).selectOption(String(failing.project_id));
    await expect(row()).toContainText(failing.project_name, { timeout: 2_000 });
    await expect(row()).toContainText(`${failing.failures}/${failing.runs}`, { timeout: 2_000 });
    await expect(row()).toContainText('default branch', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  // Its history: one mark per run, failures counted as the API counts them.
  await row().getByRole('button').click();
  const history = page.getByLabel(`History of ${failing!.name}`);
  await expect(history).toContainText(/Failed \d+ of \d+ runs/);
  await snap(page, 'tests-view');

  // The last failure's pipeline: its failed tests come before the log, each with its trace.
  // The last failure's link comes first (a test that failed once links one pipeline twice).
  await row()
    .getByRole('link', { name: `#${failing!.last_failure.pipeline_id}` })
    .first()
    .click();
  const failed = page.getByRole('group', { name: 'Failed tests' });
  await expect(failed).toBeVisible();
  await failed.getByText(failing!.name, { exact: true }).click();
  const trace = page.getByLabel(`Trace of ${failing!.name}`);
  await expect(trace).toBeVisible();
  await expect(trace).not.toBeEmpty();
  await expect(failed).toContainText('failing on the default branch since');
  await snap(page, 'pipeline-failed-tests');
});
