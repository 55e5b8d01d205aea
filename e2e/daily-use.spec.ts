// Issue 14 "Daily-use polish", items 1–8, against `serve --demo` in Chromium, plus screenshots of
// every view at 1024×640 in light and dark (test-results/screenshots/daily-*.png).
import type { Page, Route } from '@playwright/test';
import type {
  JobTraceResponse,
  PipelineDetails,
  ProjectSummary,
  RecentPipeline,
  SettingsResponse,
  SummaryResponse,
} from '../server/contract.ts';
import { expect, snap, test } from './fixtures.ts';
import type { DemoService } from './service.ts';

test.describe.configure({ mode: 'serial' });

/** The newest failed pipeline whose failing job the service already names. */
async function failedPipeline(service: DemoService) {
  let found: { project: ProjectSummary; pipeline: RecentPipeline } | undefined;
  await expect(async () => {
    const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
    found = summary.projects
      .flatMap((project) => project.recent_pipelines.map((pipeline) => ({ project, pipeline })))
      .filter((x) => x.pipeline.status === 'failed' && x.pipeline.failing_job_id)
      .sort((a, b) => Date.parse(b.pipeline.created_at) - Date.parse(a.pipeline.created_at))[0];
    expect(found).toBeDefined();
  }).toPass({ timeout: 30_000 });
  return found!;
}

const pipelineUrl = (p: { project: ProjectSummary; pipeline: RecentPipeline }) =>
  `/pipelines/${p.project.project_id}/${p.pipeline.pipeline_id}`;

test('1. a failed job opens at its first error; next error, End and running pipelines', async ({
  page,
  service,
}) => {
  const failed = await failedPipeline(service);
  const jobId = failed.pipeline.failing_job_id!;
  const trace = await service.get<JobTraceResponse>(
    `/api/jobtrace?projectId=${failed.project.project_id}&jobId=${jobId}`,
  );
  expect(trace.error_lines!.length).toBeGreaterThan(0);
  const rawLines = trace.trace.split('\n');
  const firstErrorText = rawLines[trace.error_lines![0]!]! // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .trim();

  await page.goto(service.url + pipelineUrl(failed));
  await expect(page).toHaveURL(new RegExp(`job=${jobId}`));
  const current = page.locator('.log-current-error');
  await expect(current).toBeVisible();
  await expect(current).toContainText(firstErrorText.slice(-40));
  await expect(page.getByTestId('log-error-position')).toHaveText(/^1 of \d+$/);
  // The highlighted line is inside the log's visible area.
  const log = page.getByRole('log', { name: 'Job log' });
  const [logBox, lineBox] = [await log.boundingBox(), await current.boundingBox()];
  expect(lineBox!.y).toBeGreaterThanOrEqual(logBox!.y);
  expect(lineBox!.y + lineBox!.height).toBeLessThanOrEqual(logBox!.y + logBox!.height + 1);

  const errors = trace.error_lines!.length;
  if (errors > 1) {
    await page.getByRole('button', { name: 'Next error' }).click();
    await expect(page.getByTestId('log-error-position')).toHaveText(/^2 of \d+$/);
  }
  // End moves the log to its last line, not the page behind the panel.
  await page.keyboard.press('End');
  await expect(async () => {
    const { top, max } = await log.evaluate((el) => ({
      top: el.scrollTop,
      max: el.scrollHeight - el.clientHeight,
    }));
    expect(top).toBeGreaterThanOrEqual(max - 2);
  }).toPass({ timeout: 5_000 });
  expect(await page.evaluate('window.scrollY')).toBe(0);
  await page.keyboard.press('Home');
  await expect.poll(() => log.evaluate((el) => el.scrollTop)).toBe(0);

  // A running pipeline opens on its running job instead of "Select a job".
  const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
  const running = summary.projects
    .flatMap((project) => project.recent_pipelines.map((pipeline) => ({ project, pipeline })))
    .find((x) => x.pipeline.status === 'running');
  const green = summary.projects
    .flatMap((project) => project.recent_pipelines.map((pipeline) => ({ project, pipeline })))
    .find((x) => x.pipeline.status === 'success')!;
  for (const target of running ? [running, green] : [green]) {
    await page.goto(service.url + pipelineUrl(target));
    await expect(page).toHaveURL(/job=\d+/);
    await expect(page.getByText('Select a job to read its log')).toHaveCount(0);
    await expect(page.getByRole('log', { name: 'Job log' })).toBeVisible();
  }
});

test('2. at 1024×640 the log gets at least 60% of the panel and only the log scrolls', async ({
  page,
  service,
}) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  const failed = await failedPipeline(service);
  await page.goto(service.url + pipelineUrl(failed));
  const log = page.getByRole('log', { name: 'Job log' });
  await expect(log).toBeVisible();
  const panel = await page.getByRole('dialog').boundingBox();
  const logBox = await log.boundingBox();
  // A pipeline with a JUnit report lists its failed tests before the log (issue 26): on a short
  // window they fold to one line, and the log keeps 60 % of the rest of the panel.
  const tests = page.getByRole('group', { name: 'Failed tests' });
  const testsHeight = (await tests.count()) > 0 ? (await tests.boundingBox())!.height : 0;
  expect(testsHeight).toBeLessThanOrEqual(40);
  expect(logBox!.height / (panel!.height - testsHeight)).toBeGreaterThanOrEqual(0.6);
  // One scroll container: the panel body does not scroll around the log.
  const body = await page
    .locator('.panel-body')
    .evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
  expect(body.scroll).toBeLessThanOrEqual(body.client + 1);
  // Details stay one click away.
  await page.getByRole('button', { name: 'Jobs and details' }).click();
  await expect(page.getByRole('region', { name: 'Jobs by stage' })).toBeVisible();
});

/** Serves the events stream from `frames()`: each connection gets the current frames, then ends. */
async function scriptedEvents(page: Page, frames: () => string) {
  await page.route('**/api/events/pipelines', (route: Route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: `retry: 300\n\n${frames()}`,
    }),
  );
}

test('3. rows keep their order while the user works with the table; "n updates — apply"', async ({
  page,
  service,
}) => {
  const real = await service.get<SummaryResponse>('/api/pipelines/summary');
  let current = real;
  await scriptedEvents(page, () => `event: pipeline-update\ndata: ${JSON.stringify(current)}\n\n`);
  await page.goto(service.url + '/projects');
  const rows = page.locator('[data-project-id]');
  await expect(rows.first()).toBeVisible();
  const order = () => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-project-id')));
  // Expand the second row (the pointer rests on the table).
  const second = rows.nth(1);
  await second.locator('.row-main').click();
  await expect(second.locator('.row-main')).toHaveAttribute('aria-expanded', 'true');
  const before = await order();
  const yBefore = (await second.boundingBox())!.y;

  // A live update in which the last project runs a new pipeline: by "last pipeline" it goes first.
  const last = real.projects.at(-1)!;
  const newest: RecentPipeline = {
    ...(last.recent_pipelines[0] ?? real.projects[0]!.recent_pipelines[0]!),
    pipeline_id: 99_999_999,
    status: 'running',
    created_at: new Date().toISOString(),
  };
  current = {
    ...real,
    projects: [
      { ...last, recent_pipelines: [newest, ...last.recent_pipelines] },
      ...real.projects.slice(0, -1),
    ],
  };
  const apply = page.getByTestId('apply-updates');
  await expect(apply).toBeVisible({ timeout: 15_000 });
  await expect(apply).toHaveText(/^\d+ updates? — apply$/);
  expect(await order()).toEqual(before);
  expect(Math.abs((await second.boundingBox())!.y - yBefore)).toBeLessThan(1);
  await snap(page, 'daily-projects-updates-pending');
  await apply.click();
  await expect(rows.first()).toHaveAttribute('data-project-id', String(last.project_id));
});

test('4. Esc returns focus to the opener; Back after closing does not reopen the panel', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/');
  await page.getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  const row = page.locator('[data-project-id]').first().locator('.row-main');
  await row.click();
  // Located by its address: live updates may put newer pipelines above it meanwhile.
  const href = await page.locator('.recent-list a').first().getAttribute('href');
  const link = page.locator(`.recent-list a[href="${href}"]`);
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.locator('.panel-body .skeleton')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/projects$/);
  await expect(link).toBeFocused();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`^${service.url}/$`));
  await page.waitForTimeout(300);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('5. the pipeline panel and its log viewer are loaded before the first open', async ({
  page,
  service,
}) => {
  const failed = await failedPipeline(service);
  await page.goto(service.url + '/');
  await expect(page.locator('[data-metric="total"] .metric-value')).toHaveText(/[0-9]/);
  // Both lazy chunks arrive while the page is idle, not after a click.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((n) => /\/assets\/(pipeline-panel|job-log)-/.test(n)).length,
      ),
    )
    .toBe(2);
  const lateChunks: string[] = [];
  let traceAsked = Infinity;
  let detailsDone = -Infinity;
  page.on('request', (r) => {
    if (/\/assets\/.*\.js$/.test(r.url())) lateChunks.push(r.url());
    if (r.url().includes('/api/jobtrace')) traceAsked = Math.min(traceAsked, Date.now());
  });
  page.on('requestfinished', (r) => {
    if (r.url().includes('/details/')) detailsDone = Date.now();
  });
  // Open it as a click in the app does (history entry + route change) and time it in the page,
  // until the first log line is on screen.
  const opened = (await page.evaluate(`new Promise((resolve) => {
    const t0 = performance.now();
    history.pushState({ from: '/' }, '', ${JSON.stringify(`${pipelineUrl(failed)}?job=${failed.pipeline.failing_job_id}`)});
    dispatchEvent(new PopStateEvent('popstate'));
    const marks = {};
    const tick = () => {
      for (const sel of ['.panel', '.panel-summary', '.job-pane', '.log-viewer', '.log-loading', '.log-line'])
        if (!marks[sel] && document.querySelector(sel)) marks[sel] = Math.round(performance.now() - t0);
      if (document.querySelector('.log-line')) { window.__marks = marks; resolve(performance.now() - t0); }
      else requestAnimationFrame(tick);
    };
    tick();
  })`)) as number;
  test.info().annotations.push({
    type: 'panel first open',
    description: `${opened.toFixed(0)} ms ${String(await page.evaluate('JSON.stringify(window.__marks)'))}`,
  });
  // The figure (≤ 150 ms on a quiet machine) is the bench row "panel first open"; here the test
  // checks why it is fast: no chunk was fetched on open, and the log was asked for before the
  // details had arrived (in parallel, not one after the other).
  expect(opened).toBeGreaterThan(0);
  expect(lateChunks).toEqual([]);
  expect(traceAsked).toBeLessThan(detailsDone);
});

test('6. a group GitLab does not know is not saved, and the message says "not found"', async ({
  page,
  service,
}) => {
  const before = await service.get<SettingsResponse>('/api/settings');
  await page.goto(service.url + '/settings');
  const group = page.getByRole('textbox', { name: 'Group' });
  await group.fill('no-such-group/anywhere');
  await page.getByRole('button', { name: /Save and reload/ }).click();
  const error = page.locator('.error-box', { hasText: 'Settings were not saved' });
  await expect(error).toContainText(/not found/);
  await expect(error).not.toContainText(/unreachable/i);
  expect((await service.get<SettingsResponse>('/api/settings')).group).toBe(before.group);
});

test('7. statuses in words, the partial first day, distinct icons, author vs. trigger', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/');
  const chart = page.getByRole('group', { name: /^Pipelines per (hour|day)/ });
  await expect(chart).toBeVisible();
  const firstBar = chart.locator('g.bar').first();
  await expect(firstBar).toHaveAttribute('data-partial', 'true');
  await expect(firstBar).toHaveAttribute('aria-label', /partial/);
  await expect(page.locator('.legend-partial')).toContainText(/partial/);

  const failed = await failedPipeline(service);
  const details = await service.get<PipelineDetails>(
    `/api/pipelines/${failed.project.project_id}/details/${failed.pipeline.pipeline_id}`,
  );
  await page.goto(service.url + pipelineUrl(failed));
  await expect(page.getByRole('log', { name: 'Job log' })).toBeVisible();
  const icon = (name: string) =>
    page
      .getByRole('button', { name })
      .locator('svg')
      .evaluate((svg) => svg.innerHTML);
  expect(await icon('Download the plain log')).not.toBe(await icon('Next match'));

  await page.getByRole('button', { name: 'Jobs and details' }).click();
  if (details.commit)
    await expect(page.getByTestId('commit-author')).toContainText(
      `authored by ${details.commit.author_name}`,
    );
  if (details.user)
    await expect(page.getByTestId('triggered-by')).toContainText(
      `Triggered by ${details.user.name}`,
    );
  // Grey job statuses carry their word, not only a glyph.
  const grey = details.jobs.find((j) => ['skipped', 'manual', 'canceled'].includes(j.status));
  if (grey)
    await expect(page.locator(`[data-job-id="${grey.id}"] .status-word`)).toHaveText(grey.status);

  // A canceled/skipped/manual pipeline in a project's list says so in words.
  const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
  const greyPipeline = summary.projects
    .flatMap((project) => project.recent_pipelines.map((pipeline) => ({ project, pipeline })))
    .find((x) => ['canceled', 'skipped', 'manual'].includes(x.pipeline.status));
  expect(grey || greyPipeline).toBeTruthy();
  if (greyPipeline) {
    await page.goto(service.url + '/projects');
    await page
      .getByLabel('Filter projects by name or path')
      .fill(greyPipeline.project.project_path ?? greyPipeline.project.project_name);
    await page.locator('[data-project-id] .row-main').first().click();
    await expect(
      page
        .locator('.recent-list a', { hasText: `#${greyPipeline.pipeline.pipeline_id}` })
        .locator('.status-word'),
    ).toHaveText(greyPipeline.pipeline.status);
  }
});

test('8. normal use logs no failed request and no console error', async ({ page, service }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  const failed = await failedPipeline(service);
  await page.goto(service.url + '/');
  await expect(page.getByRole('heading', { name: 'Recent failures' })).toBeVisible();
  await page.getByRole('link', { name: 'Projects' }).click();
  await page.locator('[data-project-id] .row-main').first().click();
  await page.goto(service.url + pipelineUrl(failed));
  await expect(page.locator('.log-current-error')).toBeVisible();
  await page.getByRole('tab', { name: /Analyze with AI/ }).click();
  await expect(page.getByRole('button', { name: /Analyze/ }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'AI history' }).click();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('textbox', { name: 'Group' })).toBeVisible();
  await page.waitForTimeout(500);
  expect(problems).toEqual([]);
});

test('screenshots of every view at 1024×640, light and dark', async ({ page, service }) => {
  const failed = await failedPipeline(service);
  await page.setViewportSize({ width: 1024, height: 640 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(service.url + '/');
    await expect(page.locator('[data-metric="total"] .metric-value')).toHaveText(/[0-9]/);
    await expect(page.getByRole('group', { name: /^Pipelines per/ })).toBeVisible();
    await snap(page, `daily-1024-${scheme}-overview`);
    await page.goto(service.url + '/projects');
    await page.locator('[data-project-id] .row-main').first().click();
    await snap(page, `daily-1024-${scheme}-projects`);
    await page.goto(service.url + pipelineUrl(failed));
    await expect(page.locator('.log-current-error')).toBeVisible();
    await snap(page, `daily-1024-${scheme}-pipeline-log`);
    await page.getByRole('button', { name: 'Jobs and details' }).click();
    await snap(page, `daily-1024-${scheme}-pipeline-details`);
    await page.goto(service.url + '/settings');
    await expect(page.getByRole('textbox', { name: 'Group' })).toBeVisible();
    await snap(page, `daily-1024-${scheme}-settings`);
  }
});
