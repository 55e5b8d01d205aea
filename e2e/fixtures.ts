import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import { DemoService } from './service.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where view screenshots go (uploaded as CI artifacts). */
export const SCREENSHOTS = path.join(root, 'test-results/screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

/** Saves a full-viewport screenshot of the current view as an artifact. */
export async function snap(page: Page, name: string): Promise<string> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  // Let animations (panel slide, skeleton shimmer) settle so screenshots are stable.
  await page.waitForTimeout(250);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Copies a screenshot this run took over the committed `docs/<relative>` — only when asked with
 * `UPDATE_SCREENSHOTS=1` (or the older `UPDATE_SCREENSHOT=1`), so a test run leaves a fresh clone
 * clean and the pictures in docs/ change deliberately (issue 30, item 11). True when it copied.
 */
export function keepForDocs(file: string, relative: string, env = process.env): boolean {
  if (env.UPDATE_SCREENSHOTS !== '1' && env.UPDATE_SCREENSHOT !== '1') return false;
  const target = path.join(root, 'docs', relative);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(file, target);
  return true;
}

/** Starts `serve --demo`, hands it over once its first summary is in, and disposes of it afterwards. */
async function useDemoService(
  use: (service: DemoService) => Promise<void>,
  since?: string,
): Promise<void> {
  const service = await DemoService.start({ since });
  try {
    await service.waitForSummary();
    await use(service);
  } finally {
    await service.dispose();
  }
}

/** One `serve --demo` per worker, loaded before the first test; `freshService` for tests that restart it. */
export const test = base.extend<
  { freshService: DemoService },
  { service: DemoService; twoWeekService: DemoService }
>({
  // eslint-disable-next-line no-empty-pattern
  service: [async ({}, use) => useDemoService(use), { scope: 'worker', timeout: 60_000 }],
  // The demo over its whole 14 days: a week of it may hold a single failure of a given job.
  twoWeekService: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => useDemoService(use, '14d'),
    { scope: 'worker', timeout: 60_000 },
  ],
  // eslint-disable-next-line no-empty-pattern
  freshService: async ({}, use) => useDemoService(use),
});

export { expect } from '@playwright/test';

/**
 * On the pipeline panel's "Analyze with AI" tab: starts the analysis unless the answer is cached,
 * once the tab has shown one or the other (right after the click it may show neither yet).
 */
export async function analyseOnTab(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Analyze with AI' });
  const answer = page.getByRole('article', { name: 'AI analysis' });
  await expect(button.or(answer).first()).toBeVisible({ timeout: 15_000 });
  if (await button.isVisible()) await button.click();
}
