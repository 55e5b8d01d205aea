// Dashboard budget (issue 5): the initial route's gzipped bundle against 250 KB, and the overview's
// first meaningful paint (metric cards with numbers) in Chromium against a local `serve --demo`,
// next to a same-run baseline: loading a tiny page from the same service in the same browser.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { median, withDemoBrowser } from './measure.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist/renderer');
const BUDGET_KB = 250;
const PAINT_TARGET_MS = 1_000;
const RUNS = 7;

/** Files the browser loads before the overview can paint: entry script, its preloads, styles. */
export function initialRouteFiles(indexHtml: string): string[] {
  const refs = new Set<string>();
  for (const m of indexHtml.matchAll(/<script[^>]+src="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of indexHtml.matchAll(
    /<link[^>]+rel="(?:stylesheet|modulepreload)"[^>]*href="([^"]+)"/g,
  ))
    refs.add(m[1]!);
  for (const m of indexHtml.matchAll(
    /<link[^>]+href="([^"]+)"[^>]*rel="(?:stylesheet|modulepreload)"/g,
  ))
    refs.add(m[1]!);
  return [...refs].filter((r) => r.startsWith('/'));
}

function bundleRow(): BenchRow {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = initialRouteFiles(html);
  let gz = gzipSync(html).length;
  for (const f of files) gz += gzipSync(readFileSync(path.join(dist, f)), { level: 9 }).length;
  const kb = gz / 1024;
  return {
    name: `dashboard initial route, gzipped (${files.length + 1} files)`,
    value: `${kb.toFixed(1)} KB`,
    baseline: '',
    target: `≤ ${BUDGET_KB} KB`,
    ok: kb <= BUDGET_KB,
  };
}

async function paintRows(): Promise<BenchRow[]> {
  return withDemoBrowser(async (service, browser) => {
    const paint: number[] = [];
    const blank: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A fresh context per run: nothing cached, like a first visit.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${service.url}/api/health`, { waitUntil: 'load' });
      blank.push(await page.evaluate(() => performance.now()));
      await page.goto(`${service.url}/`, { waitUntil: 'commit' });
      // Locator waits run in Playwright's own world, so the page's strict CSP still applies.
      await page
        .locator('[data-metric="total"] .metric-value')
        .filter({ hasText: /[0-9]/ })
        .waitFor({ timeout: 15_000 });
      paint.push(await page.evaluate(() => performance.now()));
      await context.close();
    }
    const p = median(paint);
    const b = median(blank);
    return [
      {
        name: 'overview first meaningful paint (Chromium, local serve --demo)',
        value: `${p.toFixed(0)} ms`,
        baseline: `${b.toFixed(0)} ms tiny JSON page load`,
        target: `< ${PAINT_TARGET_MS} ms`,
        ok: p < PAINT_TARGET_MS,
      },
    ];
  });
}

/** The dashboard's bundle and paint figures. */
export const run: BenchSuite = async () => {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error('dist/renderer is missing: run `npm run build` first');
  }
  const rows = [bundleRow()];
  if (existsSync(path.join(root, 'dist/cli/pipeline-summary.js')))
    rows.push(...(await paintRows()));
  return rows;
};
