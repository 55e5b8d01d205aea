// The overview updates in place (SSE, no reload) when GitLab changes: a pipeline the test finishes
// in a simulator it drives, at a known moment. (The demo's own world may run six long pipelines
// at once and change nothing for minutes, so waiting on it is not a test.)
import { expect, test } from '@playwright/test';
import type { SummaryResponse } from '../server/contract.ts';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import { apiTotals, metric, pageTotals } from './overview-totals.ts';
import { DemoService } from './service.ts';

let sim: GitLabSimulator;
let service: DemoService;
let running: { projectId: number; pipelineId: number };

test.beforeAll(async () => {
  sim = await startSimulator({ live: false, projects: 3, days: 1 });
  // Running before the service starts: the poller reads running pipelines every 10 s.
  running = sim.startPipeline(sim.projectIds()[0]);
  service = await DemoService.start({ gitlab: sim });
  await service.waitForSummary();
});

test.afterAll(async () => {
  await service?.dispose();
  await sim?.close();
});

test('a live update appears without a reload when a pipeline finishes in GitLab', async ({
  page,
}) => {
  await page.goto(service.url + '/');
  await expect(metric(page, 'total')).toHaveText(/[0-9]/);
  await page.evaluate('window.__sameDocument = true');
  await expect(async () => {
    const api = await service.get<SummaryResponse>('/api/pipelines/summary');
    expect(await pageTotals(page)).toEqual(apiTotals(api));
  }).toPass({ timeout: 20_000 });
  const before = await pageTotals(page);
  expect(Number(before.running)).toBeGreaterThan(0);

  sim.finishPipeline(running.projectId, running.pipelineId, 'failed');

  await expect(async () => {
    expect(await pageTotals(page)).not.toEqual(before);
  }).toPass({ timeout: 30_000 });
  await expect(async () => {
    const api = await service.get<SummaryResponse>('/api/pipelines/summary');
    expect(await pageTotals(page)).toEqual(apiTotals(api));
  }).toPass({ timeout: 20_000 });
  const after = await pageTotals(page);
  expect(Number(after.running)).toBe(Number(before.running) - 1);
  expect(await page.evaluate('window.__sameDocument')).toBe(true);
});
