// What the bench suites share: the median of samples, and a demo service with a browser beside it.
import { chromium, type Browser } from '@playwright/test';
import { chromiumPath, DemoService } from '../e2e/service.ts';

/** The middle sample (the upper one of an even count): robust against a slow first run. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** Runs `measure` against a fresh `serve --demo` with a summary ready and Debian's Chromium, then closes both. */
export async function withDemoBrowser<T>(
  measure: (service: DemoService, browser: Browser) => Promise<T>,
): Promise<T> {
  const service = await DemoService.start();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    await service.waitForSummary();
    return await measure(service, browser);
  } finally {
    await browser.close();
    await service.dispose();
  }
}
