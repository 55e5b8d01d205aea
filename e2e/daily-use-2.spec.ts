// Issue 30 "Daily-use polish, round 2", the dashboard items (1, 2, 3 and 10), against
// `serve --demo` in Chromium, plus screenshots of the changed views at 1024×640 in light and dark
// (test-results/screenshots/polish-*.png).
import type { Page } from '@playwright/test';
import type {
  DefaultBranchesResponse,
  FailuresResponse,
  ProjectSummary,
  RecentPipeline,
  SummaryResponse,
} from '../server/contract.ts';
import { analyseOnTab, expect, snap, test } from './fixtures.ts';
import type { DemoService } from './service.ts';

test.describe.configure({ mode: 'serial' });

type Row = { project: ProjectSummary; pipeline: RecentPipeline };

const rowsOf = (summary: SummaryResponse): Row[] =>
  summary.projects.flatMap((project) =>
    project.recent_pipelines.map((pipeline) => ({ project, pipeline })),
  );

/** A recent merge-request pipeline whose MR title the service has looked up. */
async function titledMergeRequest(service: DemoService): Promise<Row> {
  let found: Row | undefined;
  await expect(async () => {
    const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
    found = rowsOf(summary).find((r) => r.pipeline.merge_request?.title);
    expect(found).toBeDefined();
  }).toPass({ timeout: 60_000 });
  return found!;
}

const pipelineUrl = (r: Row) => `/pipelines/${r.project.project_id}/${r.pipeline.pipeline_id}`;

/** Clicks `n failed` under the success rate and returns how many failures the list says. */
async function openFailedLink(page: Page): Promise<{ shown: number; listed: number }> {
  const link = page.getByTestId('scope-failed-link');
  const shown = Number((await link.textContent())!.match(/^(\d+) failed$/)![1]);
  await link.click();
  await expect(page).toHaveURL(/\/failures/);
  const count = page.getByTestId('failure-count');
  await expect(count).toHaveText(/^\d+ failed pipelines?$/);
  return { shown, listed: Number((await count.textContent())!.split(' ')[0]) };
}

test('1. a merge request reads `!iid` with its title in project rows, the panel and Recent failures', async ({
  page,
  service,
}) => {
  const mr = await titledMergeRequest(service);
  const { iid, title } = mr.pipeline.merge_request!;

  await page.goto(service.url + '/projects');
  const row = page.locator(`[data-project-id="${mr.project.project_id}"]`);
  await row.locator('.row-main').click();
  const recent = page.getByRole('list', { name: `Recent pipelines of ${mr.project.project_name}` });
  const item = recent.locator('li').filter({ hasText: `#${mr.pipeline.pipeline_id}` });
  await expect(item.getByTestId('mr-ref')).toContainText(`!${iid}`);
  await expect(item.getByTestId('mr-ref')).toContainText(title!);
  // Before: `refs/merge-requests/537…`, cut by the column.
  await expect(recent).not.toContainText('refs/merge-requests/');

  await page.goto(service.url + pipelineUrl(mr));
  await page.getByRole('button', { name: 'Jobs and details' }).click();
  const header = page.locator('.panel-header-info');
  await expect(header.getByTestId('mr-ref')).toContainText(`!${iid}`);
  await expect(header.getByTestId('mr-ref')).toContainText(title!);
  await expect(header.getByRole('link', { name: `!${iid}` })).toHaveAttribute(
    'href',
    mr.pipeline.merge_request!.web_url,
  );
  // One spelling of a source everywhere: never `merge_request_event`.
  await expect(header).not.toContainText('merge_request_event');

  await page.goto(service.url + '/');
  const failures = page.locator('.failure-list');
  await expect(failures.locator('li').first()).toBeVisible();
  await expect(failures).not.toContainText('refs/merge-requests/');
});

test('2. Recent failures and broken default branches name the job that failed', async ({
  page,
  service,
}) => {
  let named: Row[] = [];
  await expect(async () => {
    const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
    named = rowsOf(summary)
      .filter((r) => r.pipeline.status === 'failed')
      .sort((a, b) => Date.parse(b.pipeline.created_at) - Date.parse(a.pipeline.created_at))
      .slice(0, 6)
      .filter((r) => r.pipeline.failing_job_name);
    expect(named.length).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  await page.goto(service.url + '/');
  const jobs = page.locator('.failure-list').getByTestId('failing-job');
  await expect(jobs.first()).toBeVisible();
  const shown = await jobs.allTextContents();
  expect(shown.map((t) => t.trim())).toEqual(
    expect.arrayContaining(named.slice(0, 1).map((r) => r.pipeline.failing_job_name)),
  );

  let broken: DefaultBranchesResponse['projects'] = [];
  await expect(async () => {
    const api = await service.get<DefaultBranchesResponse>('/api/health/default-branches');
    broken = api.projects.filter((p) => p.state === 'broken' && p.broken_jobs?.length);
    expect(broken.length).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000 });
  await page.goto(service.url + '/health');
  const first = broken[0]!;
  const branchRow = page
    .getByRole('list', { name: 'Default branches' })
    .locator('li')
    .filter({ hasText: first.project_name })
    .first();
  await expect(branchRow.getByTestId('broken-jobs')).toContainText(first.broken_jobs![0]!.name);
  await expect(branchRow.getByTestId('broken-jobs')).toContainText('failed');
});

test('3. "N failed" under the success rate opens a list of N, for every scope', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/health');
  for (const scope of ['Default branch', 'Merge requests', 'All']) {
    await page.getByRole('radio', { name: scope }).click();
    const { shown, listed } = await openFailedLink(page);
    expect([scope, listed]).toEqual([scope, shown]);
    await page.goBack();
    await expect(page.getByTestId('scope-failed-link')).toBeVisible();
  }
  // The default-branch link says which filter it applied.
  await page.getByRole('radio', { name: 'Default branch' }).click();
  await page.getByTestId('scope-failed-link').click();
  await expect(page).toHaveURL(/scope=default_branch/);
  await expect(page.getByRole('combobox', { name: 'Branches' })).toHaveValue('default_branch');
});

test('10. the failures filters: branch as you type, projects sorted and stable', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/failures');
  const count = page.getByTestId('failure-count');
  await expect(count).toHaveText(/failed pipeline/);
  const project = page.getByRole('combobox', { name: 'Project' });
  const names = async () => (await project.locator('option').allTextContents()).slice(1);
  const before = await names();
  expect(before.length).toBeGreaterThan(3);
  expect(before).toEqual(
    [...before].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })),
  );
  await page.reload();
  await expect(count).toHaveText(/failed pipeline/);
  expect(await names()).toEqual(before);

  // Typing filters without Enter, once typing pauses, and the count is the API's for that ref.
  const branch = page.getByRole('textbox', { name: 'Branch' });
  await branch.pressSequentially('main', { delay: 40 });
  await expect(page).toHaveURL(/ref=main/, { timeout: 3_000 });
  const api = await service.get<FailuresResponse>('/api/pipelines/failures?ref=main&pageSize=1');
  await expect(count).toHaveText(
    `${api.pagination.totalCount} failed pipeline${api.pagination.totalCount === 1 ? '' : 's'}`,
  );
  await branch.fill('');
  await expect(page).not.toHaveURL(/ref=/, { timeout: 3_000 });
});

test('10. time to fix counts in words, and "Use <group>" is a button sized to its words', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/health');
  const tile = page.locator('.health-tile').filter({ hasText: 'median time to fix' });
  const label = (await tile.locator('.tile-label').textContent())!;
  const [, n, word] = label.match(/\((\d+) (fix|fixes)\)/)!;
  expect(word).toBe(n === '1' ? 'fix' : 'fixes');

  await page.goto(service.url + '/settings');
  const browser = page.locator('.group-browser');
  const subgroup = browser.locator('.group-list button').first();
  await subgroup.click();
  await browser.getByRole('button', { name: /^Up to / }).click();
  const use = browser.getByRole('button', { name: /^Use / });
  await expect(use).toBeVisible();
  const [useBox, browserBox] = [await use.boundingBox(), await browser.boundingBox()];
  // Before: stretched across the column like a text field.
  expect(useBox!.width).toBeLessThan(browserBox!.width / 2);
  await expect(use).toHaveClass(/btn-primary/);
});

test('10. the header says how long ago the service went away, not "updated just now"', async ({
  page,
  freshService,
}) => {
  await page.goto(freshService.url + '/');
  const indicator = page.locator('[data-connection]');
  await expect(indicator).toHaveAttribute('data-connection', 'live');
  await freshService.stop();
  await expect(indicator).toHaveAttribute('data-connection', 'reconnecting', { timeout: 20_000 });
  await page.waitForTimeout(8_000);
  const text = (await indicator.textContent())!;
  expect(text).toMatch(/Reconnecting· lost (\d+)s ago/);
  expect(Number(text.match(/lost (\d+)s ago/)![1])).toBeGreaterThanOrEqual(8);
  expect(text).not.toContain('just now');
  // At 1024 the header keeps only "Reconnecting" and "Retry now" (the age is in its tooltip).
  await expect(indicator).toHaveAttribute('title', /^Lost the connection to the service \d+s ago/);
  await page.setViewportSize({ width: 1024, height: 640 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await snap(page, `polish-1024-${scheme}-reconnecting`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await snap(page, 'polish-1440-dark-reconnecting');
});

test('9. the follow-up box stays in view after seven questions, scrolled anywhere', async ({
  page,
  service,
}) => {
  let failed: Row | undefined;
  await expect(async () => {
    const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
    failed = rowsOf(summary).find(
      (r) => r.pipeline.status === 'failed' && r.pipeline.failing_job_id,
    );
    expect(failed).toBeDefined();
  }).toPass({ timeout: 30_000 });
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.goto(service.url + pipelineUrl(failed!));
  await page.getByRole('tab', { name: /Analyze with AI/ }).click();
  const panel = page.locator('.ai-panel');
  // A job analysed by an earlier test opens from the cache; otherwise analyse it now.
  await analyseOnTab(page);
  await expect(
    page.getByRole('article', { name: 'AI analysis' }).locator('.markdown'),
  ).not.toBeEmpty({ timeout: 30_000 });
  const box = page.getByLabel('Follow-up question');
  const inView = async () => {
    const [b, p] = [await box.boundingBox(), await panel.boundingBox()];
    return b!.y >= p!.y && b!.y + b!.height <= p!.y + p!.height + 1 && b!.y + b!.height <= 640;
  };
  for (let i = 1; i <= 7; i++) {
    await box.fill(`Question ${i}: how do I reproduce this locally?`);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect(page.locator('.chat-answer .markdown')).toHaveCount(i, { timeout: 30_000 });
  }
  expect(await inView()).toBe(true);
  // Back at the analysis, the box is still there to ask the eighth.
  await panel.evaluate((el) => (el.scrollTop = 0));
  expect(await inView()).toBe(true);
  await box.fill('And the eighth?');
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await snap(page, `polish-1024-${scheme}-ai-followups`);
  }
});

test('screenshots of the changed views at 1024×640, light and dark', async ({ page, service }) => {
  const mr = await titledMergeRequest(service);
  await page.setViewportSize({ width: 1024, height: 640 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(service.url + '/');
    await expect(page.locator('.failure-list li').first()).toBeVisible();
    await page.locator('.failure-list').scrollIntoViewIfNeeded();
    await snap(page, `polish-1024-${scheme}-recent-failures`);
    await page.goto(service.url + '/projects');
    await page.locator(`[data-project-id="${mr.project.project_id}"] .row-main`).click();
    await page
      .getByRole('list', { name: `Recent pipelines of ${mr.project.project_name}` })
      .locator('li')
      .filter({ hasText: `#${mr.pipeline.pipeline_id}` })
      .scrollIntoViewIfNeeded();
    await snap(page, `polish-1024-${scheme}-projects-mr`);
    await page.goto(service.url + pipelineUrl(mr));
    await page.getByRole('button', { name: 'Jobs and details' }).click();
    await expect(page.locator('.panel-header-info').getByTestId('mr-ref')).toBeVisible();
    await snap(page, `polish-1024-${scheme}-pipeline-mr`);
    await page.goto(service.url + '/health');
    await expect(page.getByTestId('scope-failed-link')).toBeVisible();
    await snap(page, `polish-1024-${scheme}-health`);
    await page.goto(service.url + '/failures?scope=default_branch');
    await expect(page.getByTestId('failure-count')).toBeVisible();
    await snap(page, `polish-1024-${scheme}-failures-scope`);
    await page.goto(service.url + '/settings');
    const browser = page.locator('.group-browser');
    await browser.locator('.group-list button').first().click();
    await browser.getByRole('button', { name: /^Up to / }).click();
    await expect(browser.getByRole('button', { name: /^Use / })).toBeVisible();
    await browser.scrollIntoViewIfNeeded();
    await snap(page, `polish-1024-${scheme}-settings-use`);
  }
});
