import type {
  DefaultBranchesResponse,
  FailuresResponse,
  FlakyJobsResponse,
  RegressionsResponse,
} from '../server/contract.ts';
import { expect, keepForDocs, snap, test } from './fixtures.ts';

test.describe.configure({ mode: 'serial' });

/** Refreshes docs/screenshots/<name> for docs/health.md, under UPDATE_SCREENSHOTS=1 only. */
function keep(file: string, name: string): void {
  keepForDocs(file, `screenshots/${name}`);
}

test('group health lists default branches broken first, as the API says', async ({
  page,
  service,
}) => {
  // The history fills while the recorder reads jobs; wait until the simulator's broken branch shows.
  await expect(async () => {
    const api = await service.get<DefaultBranchesResponse>('/api/health/default-branches');
    expect(api.broken).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  await page.goto(service.url + '/health');
  const rows = page.getByRole('list', { name: 'Default branches' }).locator('li');
  await expect(rows.first()).toBeVisible();
  await expect(async () => {
    const api = await service.get<DefaultBranchesResponse>('/api/health/default-branches');
    await page.reload();
    await expect(page.getByTestId('broken-count')).toHaveText(String(api.broken));
    await expect(rows).toHaveCount(api.projects.length);
    await expect(rows.first()).toContainText(api.projects[0]!.project_name);
    const since = api.projects[0]!.broken_since!;
    await expect(rows.first()).toContainText(`Broken since #${since.pipeline_id}`);
  }).toPass({ timeout: 30_000 });
  // The success-rate split is a switch between three server-computed numbers.
  await page.getByRole('radio', { name: 'Merge requests' }).click();
  await expect(page.getByRole('radio', { name: 'Merge requests' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await page.getByRole('radio', { name: 'Default branch' }).click();
  keep(await snap(page, 'health-default-branches'), 'health-default-branches.png');
});

test('flaky jobs view shows every flaky job with its rate', async ({ page, service }) => {
  await expect(async () => {
    const api = await service.get<FlakyJobsResponse>('/api/health/flaky-jobs');
    expect(api.jobs.length).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  await page.goto(service.url + '/health/flaky');
  const table = page.getByRole('table', { name: 'Flaky jobs' });
  await expect(async () => {
    const api = await service.get<FlakyJobsResponse>('/api/health/flaky-jobs');
    await page.reload();
    await expect(table.locator('tbody tr')).toHaveCount(api.jobs.length);
    const top = api.jobs[0]!;
    await expect(table.locator('tbody tr').first()).toContainText(top.job_name);
    await expect(table.locator('tbody tr').first()).toContainText(`${top.flake_rate.toFixed(1)}%`);
  }).toPass({ timeout: 30_000 });
  keep(await snap(page, 'health-flaky-jobs'), 'health-flaky-jobs.png');
});

test('durations view charts each job and lists the regressions', async ({ page, service }) => {
  await expect(async () => {
    const api = await service.get<RegressionsResponse>('/api/health/regressions');
    expect(api.regressions.length).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  await page.goto(service.url + '/health/trends');
  const api = await service.get<RegressionsResponse>('/api/health/regressions');
  const list = page.getByRole('list', { name: 'Regressions' });
  await expect(list.locator('li')).toHaveCount(api.regressions.length);
  const first = api.regressions[0]!;
  await expect(list.locator('li').first()).toContainText(`#${first.first_slow.pipeline_id}`);
  const cards = page.getByTestId('trend-card');
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThan(1);
  await expect(cards.first().locator('svg path.chart-p50')).toHaveAttribute('d', /^M/);
  // The regressed job's card is marked.
  await expect(page.locator('.trend-card.trend-regressed').first()).toBeVisible();
  keep(await snap(page, 'health-durations'), 'health-durations.png');
});

test('failures view lists every failure and filters it', async ({ page, service }) => {
  await page.goto(service.url + '/failures');
  const count = page.getByTestId('failure-count');
  await expect(async () => {
    const api = await service.get<FailuresResponse>('/api/pipelines/failures');
    await page.reload();
    await expect(count).toHaveText(new RegExp(`^${api.pagination.totalCount} failed`));
  }).toPass({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Flaky' }).selectOption('false');
  await expect(page).toHaveURL(/flaky=false/);
  await expect(async () => {
    const api = await service.get<FailuresResponse>('/api/pipelines/failures?flaky=false');
    await expect(count).toHaveText(new RegExp(`^${api.pagination.totalCount} failed`));
  }).toPass({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Flaky' }).selectOption('');
  // Merge-request pipelines read `!iid`, never refs/merge-requests/…/head.
  await expect(page.getByRole('list', { name: 'Failed pipelines' })).not.toContainText(
    'refs/merge-requests/',
  );
  keep(await snap(page, 'health-failures'), 'health-failures.png');
});

test('the overview says how many default branches are red, and a bar opens its failures', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/');
  const headline = page.getByTestId('red-default-branches');
  await expect(async () => {
    const api = await service.get<DefaultBranchesResponse>('/api/health/default-branches');
    await expect(headline).toHaveAttribute('data-count', String(api.broken));
  }).toPass({ timeout: 30_000 });
  await expect(headline).toContainText(/default branch(es)? (is|are) red/);
  // A bar from the middle of the window: neither the live newest one nor the edge that moves.
  const bars = page.locator('g.bar[data-failures]');
  await expect(bars.first()).toBeVisible();
  const bar = bars.nth(Math.floor((await bars.count()) / 2));
  const failures = Number(await bar.getAttribute('data-failures'));
  await bar.click();
  await expect(page).toHaveURL(/\/failures\?from=.*&to=/);
  const url = new URL(page.url());
  const api = await service.get<FailuresResponse>(`/api/pipelines/failures${url.search}`);
  // The bar counts failed pipelines created in its hour or day; the list shows the same ones.
  expect(api.pagination.totalCount).toBe(failures);
  await expect(page.getByTestId('failure-count')).toHaveText(
    new RegExp(`^${api.pagination.totalCount} failed`),
  );
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByTestId('red-default-branches').click();
  await expect(page).toHaveURL(/\/health$/);
});
