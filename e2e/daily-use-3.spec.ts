// Issue 30 "Daily-use polish, round 2", items 7 and 9 (second half) against `serve --demo` in Chromium: the Durations
// charts have a duration axis and a date axis with units, a legend for p50 (solid) and p90
// (dashed), a title naming the days the data covers (not "last 30 days" over 7 days of data), and
// use their card's width at 1440×900 and 1024×640; screenshots in light and dark
// (test-results/screenshots/polish-*-durations.png).
import type { Page } from '@playwright/test';
import type { DefaultBranchesResponse, TrendsResponse } from '../server/contract.ts';
import { analyseOnTab, expect, snap, test } from './fixtures.ts';
import type { DemoService } from './service.ts';

test.describe.configure({ mode: 'serial' });

/** The browser globals the in-page code below uses (the e2e type-check has no DOM library). */
interface PageGlobals {
  getComputedStyle(el: unknown): { strokeDasharray: string };
  scrollBy(x: number, y: number): void;
}

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
const label = (day: string) => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`;

/** Opens Durations and returns the trends of the project it shows, as the API serves them. */
async function shownTrends(page: Page, service: DemoService): Promise<TrendsResponse> {
  await page.goto(service.url + '/health/trends');
  await expect(page.getByTestId('trend-card').first()).toBeVisible();
  // The view picks the project of the first regression once regressions are in.
  await expect(
    page
      .getByRole('list', { name: 'Regressions' })
      .or(page.getByText('No job got materially slower.')),
  ).toBeVisible();
  const projectId = await page.getByRole('combobox', { name: 'Project' }).inputValue();
  return service.get<TrendsResponse>(`/api/health/trends?projectId=${projectId}&days=30`);
}

async function expectCharts(page: Page, trends: TrendsResponse): Promise<void> {
  // The title says the span the data covers, computed by the service.
  expect(trends.data_days).toBeGreaterThan(1);
  await expect(page.getByTestId('trends-title')).toHaveText(
    `Daily durations · ${trends.data_days} days (${label(trends.data_from!)} – ${label(trends.data_to!)})`,
  );
  const legend = page.getByTestId('duration-legend');
  await expect(legend).toContainText('p50 (median)');
  await expect(legend).toContainText('p90');
  await expect(legend).toContainText('successful runs per UTC day');
  // The legend's samples are the charts' own strokes: p50 solid, p90 dashed.
  const dash = (selector: string) =>
    legend
      .locator(selector)
      .evaluate(
        (el) => (globalThis as unknown as PageGlobals).getComputedStyle(el).strokeDasharray,
      );
  expect(await dash('.legend-p50 line')).toBe('none');
  expect(await dash('.legend-p90 line')).toMatch(/^\d/);

  const cards = page.getByTestId('trend-card');
  await expect(cards).toHaveCount(trends.jobs.length + 1);
  const card = cards.first();
  const svg = card.locator('svg.duration-chart');
  // A duration axis in whole units from 0, and dates along the bottom from the first day covered
  // to the last.
  const yTicks = await svg.locator('.y-tick text').allTextContents();
  expect(yTicks[0]).toBe('0');
  expect(yTicks.length).toBeGreaterThanOrEqual(2);
  for (const t of yTicks.slice(1)) expect(t).toMatch(/^\d+(s|m|h)( \d+(s|m))?$/);
  const xTicks = await svg.locator('.x-tick').allTextContents();
  expect(xTicks[0]).toBe(label(trends.data_from!));
  expect(xTicks.at(-1)).toBe(label(trends.data_to!));
  // Date labels never run into each other (before this test: "27 Nov28 Nov").
  const xs = await svg
    .locator('.x-tick')
    .evaluateAll((els) =>
      els
        .map((el) => (el as unknown as { getBBox(): { x: number; width: number } }).getBBox())
        .map((b) => [b.x, b.x + b.width] as const),
    );
  for (let i = 1; i < xs.length; i++) expect(xs[i]![0]! - xs[i - 1]![1]!).toBeGreaterThan(8);
  // The chart fills its card's width (before: a 280 px sparkline in a wider card) and is tall
  // enough to read (before: 64 px).
  const cardBox = (await card.boundingBox())!;
  const chartBox = (await svg.boundingBox())!;
  expect(chartBox.width).toBeGreaterThanOrEqual(cardBox.width - 28); // its padding and border
  expect(chartBox.height).toBe(132);
  // One dot per day with runs in the covered span, each with its numbers on hover.
  const covered = trends.pipeline.days.filter(
    (d) => d.day >= trends.data_from! && d.day <= trends.data_to! && d.duration_p50 !== null,
  );
  await expect(svg.locator('circle.chart-dot')).toHaveCount(covered.length);
  const last = covered.at(-1)!;
  await expect(svg.locator('circle.chart-dot title').last()).toHaveText(
    new RegExp(`^${label(last.day)}: p50 .+, p90 .+, ${last.runs} runs?$`),
  );
}

test('7. durations charts: axes with units, a p50/p90 legend, a true title, the card’s width', async ({
  page,
  service,
}) => {
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 640 },
  ]) {
    await page.setViewportSize(size);
    const trends = await shownTrends(page, service);
    await expectCharts(page, trends);
    await expect(page.getByTestId('trends-title')).not.toContainText('last 30 days');
  }
});

test('screenshots of the durations charts at 1024×640 and 1440×900, light and dark', async ({
  page,
  service,
}) => {
  for (const [width, height] of [
    [1024, 640],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shownTrends(page, service);
      const grid = page.locator('.trend-grid');
      await expect(grid.getByTestId('trend-card').first()).toBeVisible();
      // The charts' section at the top of the window, below the sticky header.
      await page.getByTestId('trends-title').evaluate((el) => {
        el.closest('section')!.scrollIntoView({ block: 'start' });
        (globalThis as unknown as PageGlobals).scrollBy(0, -64);
      });
      await snap(page, `polish-${width}-${scheme}-durations`);
    }
  }
});

test('9. "who broke it and when did it last pass?" is answered from the job’s runs', async ({
  page,
  service,
}) => {
  // The demo's broken default branch: the job that failed in the pipeline that broke it.
  const health = await service.get<DefaultBranchesResponse>('/api/health/default-branches');
  const broken = health.projects.find((p) => p.broken_since && p.broken_jobs?.length)!;
  const since = broken.broken_since!;
  const job = broken.broken_jobs![0]!;
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.goto(
    `${service.url}/pipelines/${broken.project_id}/${since.pipeline_id}?job=${job.job_id}`,
  );
  await page.getByRole('tab', { name: /Analyze with AI/ }).click();
  await analyseOnTab(page);
  await expect(
    page.getByRole('article', { name: 'AI analysis' }).locator('.markdown'),
  ).not.toBeEmpty({ timeout: 30_000 });
  await page.getByLabel('Follow-up question').fill('Who broke it and when did it last pass?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.locator('.chat-answer .markdown').last();
  // Before: "The log does not mention “broke”, “last”, “pass”…".
  await expect(answer).toContainText('Last green: job #', { timeout: 30_000 });
  await expect(answer).toContainText(
    `First failure after it: job #${job.job_id} in pipeline #${since.pipeline_id}`,
  );
  await expect(answer).toContainText('— this run.');
  // The last green run's commit, as the answer names it: the same commit failing later is
  // nobody's change; a new one is where the failures start.
  const green = /Last green: .*? at commit (\w+) /.exec((await answer.textContent()) ?? '')![1];
  await expect(answer).toContainText(
    green === since.short_sha
      ? `Who broke it: no commit — the first failing run built the same commit that passed (${green})`
      : `Who broke it: the failures start at ${since.short_sha} by ${since.commit_author}. What came in between is git log ${green}..${since.short_sha}`,
  );
  await expect(answer).not.toContainText('does not mention');
  await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await snap(page, `polish-1024-${scheme}-who-broke-it`);
  }
});
