// Issue 14 item 5: the pipeline panel's first open, from a click on a "Recent failures" row to the
// first log line on screen, in Chromium against a local `serve --demo`, after the page went idle
// (when the panel's chunks preload). Baseline from the same run: the two API calls the panel makes
// (details and job log), timed from the same page.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, withDemoBrowser } from './measure.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_MS = 150;
const RUNS = 7;

/** Clicks the first failure row and resolves with the ms until a log line is on screen. */
const OPEN_PANEL = `new Promise((resolve, reject) => {
  const row = document.querySelector('.failure-main');
  if (!row) return reject(new Error('no failure row'));
  const t0 = performance.now();
  row.click();
  const tick = () =>
    document.querySelector('.log-line') ? resolve(performance.now() - t0) : requestAnimationFrame(tick);
  tick();
})`;

/** Times the panel's two API calls for the row's pipeline from inside the page. */
const API_CALLS = `(async () => {
  const href = location.pathname + location.search;
  const [, , project, pipeline] = href.split('?')[0].split('/');
  const job = new URLSearchParams(location.search).get('job');
  const t0 = performance.now();
  await Promise.all([
    fetch('/api/pipelines/' + project + '/details/' + pipeline).then((r) => r.json()),
    fetch('/api/jobtrace?projectId=' + project + '&jobId=' + job).then((r) => r.json()),
  ]);
  return performance.now() - t0;
})()`;

async function panelRows(): Promise<BenchRow[]> {
  return withDemoBrowser(async (service, browser) => {
    const open: number[] = [];
    const api: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A fresh context per run: the first open in a new window, nothing cached by the page.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${service.url}/`);
      await page.locator('.failure-main').first().waitFor({ timeout: 15_000 });
      // Let the idle preload bring the panel's chunks, as it does while a user reads the overview.
      await page.waitForFunction(
        () =>
          performance
            .getEntriesByType('resource')
            .filter((e) => /\/assets\/(pipeline-panel|job-log)-/.test(e.name)).length >= 2,
        undefined,
        { timeout: 15_000 },
      );
      await page.waitForTimeout(200);
      open.push((await page.evaluate(OPEN_PANEL)) as number);
      api.push((await page.evaluate(API_CALLS)) as number);
      await context.close();
    }
    const value = median(open);
    return [
      {
        name: 'panel first open (failure row click → first log line, Chromium)',
        value: `${value.toFixed(0)} ms`,
        baseline: `${median(api).toFixed(0)} ms details + log API calls`,
        target: `≤ ${TARGET_MS} ms`,
        ok: value <= TARGET_MS,
      },
    ];
  });
}

/** The pipeline panel's first-open figure. */
export const run: BenchSuite = async () => {
  if (!existsSync(path.join(root, 'dist/cli/pipeline-summary.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first');
  }
  return panelRows();
};
