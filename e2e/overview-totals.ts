import type { Page } from '@playwright/test';
import type { SummaryResponse } from '../server/contract.ts';

/** The value of one overview metric card. */
export const metric = (page: Page, name: string) =>
  page.locator(`[data-metric="${name}"] .metric-value`);

/** The overview's totals as the page shows them. */
export async function pageTotals(page: Page) {
  return {
    total: (await metric(page, 'total').textContent())?.replace(/[^0-9]/g, ''),
    rate: await metric(page, 'success-rate').textContent(),
    running: (await metric(page, 'running').textContent())?.replace(/[^0-9]/g, ''),
    passedFailed: await page.locator('[data-metric="success-rate"] .metric-sub').textContent(),
  };
}

/** The same totals as /api/pipelines/summary says them, formatted as the page does. */
export function apiTotals(s: SummaryResponse) {
  const o = s.summary;
  return {
    total: String(o.total_pipelines),
    rate: o.successful + o.failed ? `${o.overall_success_rate.toFixed(1)}%` : '—',
    running: String(o.running),
    passedFailed: `${o.successful} passed · ${o.failed} failed`,
  };
}
