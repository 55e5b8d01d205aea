import type {
  ActivityResponse,
  AnalyseResponse,
  HistoryResponse,
  PipelineDetails,
  ProviderStatus,
  SettingsResponse,
  SummaryResponse,
} from '../server/contract.ts';
import { analyseOnTab, expect, keepForDocs, snap, test } from './fixtures.ts';
import { apiTotals, metric, pageTotals } from './overview-totals.ts';
import { freePort } from './service.ts';

test.describe.configure({ mode: 'serial' });

test('overview numbers equal /api/pipelines/summary', async ({ page, service }) => {
  await page.goto(service.url + '/');
  await expect(metric(page, 'total')).toHaveText(/[0-9]/);
  // The simulator is live: compare page and API until one read of each agrees.
  await expect(async () => {
    const api = await service.get<SummaryResponse>('/api/pipelines/summary');
    expect(await pageTotals(page)).toEqual(apiTotals(api));
  }).toPass({ timeout: 20_000 });
  // The timeline covers the whole window: its bars add up to every pipeline in the summary.
  const chart = page.getByRole('group', { name: /^Pipelines per (hour|day)/ });
  await expect(async () => {
    const api = await service.get<SummaryResponse>('/api/pipelines/summary');
    expect(await chart.getAttribute('data-total')).toBe(String(api.summary.total_pipelines));
  }).toPass({ timeout: 20_000 });
  const activity = await service.get<ActivityResponse>('/api/pipelines/activity');
  await expect(chart.locator('g.bar')).toHaveCount(activity.buckets.length);
  await expect(page.getByText(/live feed/)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Recent failures' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top contributors' })).toBeVisible();
  const top = activity.contributors[0]!;
  await expect(page.locator('.contributor-list li').first()).toContainText(top.name);
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await snap(page, 'overview-light');
});

test('open a failed pipeline, read the coloured log, analyse with AI, follow up, find it in history', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/');
  const failure = page.locator('.failure-row').first();
  await expect(failure).toBeVisible();
  // Exact: the row's main button is named after the failure, and a name holding "log" (a commit
  // about logging, a "catalog" branch) matched too: Playwright matches names by substring otherwise.
  await expect(failure.getByRole('button', { name: 'Log', exact: true })).toBeEnabled();
  await failure.getByRole('button', { name: 'Log', exact: true }).click();
  await expect(page).toHaveURL(/\/pipelines\/\d+\/\d+\?job=\d+/);
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.status-badge[data-status="failed"]')).toBeVisible();
  // Coloured text: at least one ANSI-coloured span in the log.
  await expect(dialog.locator('.log-body [class*="ansi-fg-"]').first()).toBeVisible();
  const jobName = (await dialog.locator('.job-pane-title strong').textContent())!;
  await snap(page, 'pipeline-log');

  // Deep link: reloading the URL opens the same pipeline and job.
  await page.reload();
  await expect(page.getByRole('dialog').locator('.job-pane-title strong')).toHaveText(jobName);
  // Several of the demo's projects have a job of that name (other tests analyse them too): the
  // history row is this job's by its id.
  const jobId = new URL(page.url()).searchParams.get('job');
  expect(jobId).toMatch(/^\d+$/);

  await page.getByRole('tab', { name: /Analyze with AI/ }).click();
  // Another test may have analysed this job already: then its answer shows, not the button.
  await analyseOnTab(page);
  const analysis = page.getByRole('article', { name: 'AI analysis' });
  await expect(analysis.locator('.markdown')).not.toBeEmpty({ timeout: 30_000 });
  // Other tests may already have followed up on this job (CI saw 8 entries): count ours on top.
  const followUpsOf = async (): Promise<number> =>
    (await service.get<HistoryResponse>('/api/ai/history')).analyses.find(
      (a) => a.jobId === Number(jobId),
    )?.conversationCount ?? 0;
  const before = await followUpsOf();
  await page.getByLabel('Follow-up question').fill('How do I reproduce this locally?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('.chat-question').last()).toContainText(
    'How do I reproduce this locally?',
  );
  await expect(page.locator('.chat-answer .markdown').last()).not.toBeEmpty({ timeout: 30_000 });
  await snap(page, 'pipeline-ai');

  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('link', { name: 'AI history' }).click();
  const row = page
    .locator('.history-table tbody tr', { hasText: new RegExp(`job #${jobId}(?!\\d)`) })
    .first();
  await expect(row).toBeVisible();
  const shown = Number(await row.locator('td').nth(4).textContent());
  expect(shown).toBeGreaterThanOrEqual(before + 1);
  expect(await followUpsOf()).toBeGreaterThanOrEqual(shown);
  await snap(page, 'history');
  await row.click();
  await expect(page.getByText('cached', { exact: true })).toBeVisible();
  // Among the questions other tests asked about this job (CI: seven before this one).
  await expect(
    page.locator('.chat-question', { hasText: 'How do I reproduce this locally?' }).first(),
  ).toBeVisible();
});

test('projects: filter, sort and expand a project to its recent pipelines', async ({
  page,
  service,
}) => {
  const api = await service.get<SummaryResponse>('/api/pipelines/summary');
  await page.goto(service.url + '/projects');
  await expect(page.getByText(`${api.projects.length} projects`)).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Filter projects by name or path')).toBeFocused();
  const target = api.projects[0]!;
  await page.keyboard.type(target.project_name);
  await expect(page.locator('[data-project-id]').first()).toContainText(target.project_name);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('list', { name: `Recent pipelines of ${target.project_name}` }),
  ).toBeVisible();
  await snap(page, 'projects');
});

test('settings: change group and window and see the data change', async ({ page, service }) => {
  const before = await service.get<SummaryResponse>('/api/pipelines/summary');
  const settings = await service.get<SettingsResponse>('/api/settings');
  await page.goto(service.url + '/settings');
  await expect(page.getByRole('heading', { name: 'What to summarise' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Group' })).toHaveValue(settings.group);
  const subgroup = page.locator('.group-list button').first();
  await expect(subgroup).toBeVisible();
  const subgroupPath = (await subgroup.locator('.muted').textContent())!;
  await subgroup.click();
  await expect(page.getByRole('textbox', { name: 'Group' })).toHaveValue(subgroupPath);
  await page.getByRole('button', { name: '1d', exact: true }).click();
  await page.getByLabel('Time window', { exact: true }).fill('2x');
  await expect(page.getByText(/positive whole number/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save and reload' })).toBeDisabled();
  await page.getByLabel('Time window', { exact: true }).fill('1d');
  await snap(page, 'settings');
  await page.getByRole('button', { name: 'Save and reload' }).click();
  await expect(page.getByText(/Saved/)).toBeVisible();

  const after = await service.get<SettingsResponse>('/api/settings');
  expect(after).toMatchObject({ group: subgroupPath, since: '1d' });
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.locator('.scope-chip')).toContainText(subgroupPath);
  await expect(page.locator('.scope-chip')).toContainText('1 day');
  await expect(async () => {
    const api = await service.get<SummaryResponse>('/api/pipelines/summary');
    expect(api.status?.group).toBe(subgroupPath);
    expect(api.projects.length).toBeLessThan(before.projects.length);
    expect(await pageTotals(page)).toEqual(apiTotals(api));
  }).toPass({ timeout: 30_000 });

  // Put the shared service back for the other tests.
  await page.request.post(service.url + '/api/settings', {
    data: { group: settings.group, since: settings.since },
    headers: { Origin: service.url },
  });
});

test('settings: the AI provider form, pinned in the demo, switches provider and back', async ({
  page,
  service,
}) => {
  // What the demo really does: `serve --demo` pins the offline analyser, so the form says so and
  // stays disabled.
  const pinned = await service.get<ProviderStatus>('/api/ai/provider');
  expect(pinned).toMatchObject({ provider: 'offline', pinnedByEnvironment: true });
  await page.goto(service.url + '/settings');
  const form = page.getByRole('form', { name: 'AI provider settings' });
  await expect(form.getByRole('note')).toContainText('AI_PROVIDER');
  await expect(form.getByRole('radio', { name: 'OpenAI-compatible' })).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Save provider' })).toBeDisabled();
  await form.scrollIntoViewIfNeeded();
  await snap(page, 'settings-provider-pinned');

  // The service itself accepts changes while pinned (they last until it restarts). To drive the
  // form against the real PUT, only the pinned flag is rewritten in the answers the page sees.
  await page.route('**/api/ai/provider', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as ProviderStatus;
    await route.fulfill({
      response,
      json: response.ok() ? { ...json, pinnedByEnvironment: false } : json,
    });
  });
  await page.reload();
  await expect(form.getByRole('note')).toHaveCount(0);
  await form.getByRole('radio', { name: 'OpenAI-compatible' }).click();
  // A closed local port: the provider is unreachable.
  const deadPort = await freePort();
  await form.getByLabel('Endpoint').fill('not a url');
  await form.getByLabel('API key').fill('sk-e2e-not-a-real-key');
  await form.getByRole('button', { name: 'Save provider' }).click();
  await expect(form.locator('#provider-base-url-error')).toContainText('not a valid URL');
  await form.getByLabel('Endpoint').fill(`http://127.0.0.1:${deadPort}/v1`);
  await form.getByRole('button', { name: 'Save provider' }).click();
  await expect(form.getByText('Provider settings saved.')).toBeVisible();
  await expect(form.getByLabel('API key')).toHaveValue('');
  await expect(form.getByTestId('provider-key-state')).toContainText('key set');
  expect(await service.get<ProviderStatus>('/api/ai/provider')).toMatchObject({
    provider: 'openai',
    baseUrl: `http://127.0.0.1:${deadPort}/v1`,
    apiKeySet: true,
  });
  await snap(page, 'settings-provider');

  // An analysis now tries the unreachable provider and falls back to the offline analyser, saying so.
  const summary = await service.get<SummaryResponse>('/api/pipelines/summary');
  const failed = summary.projects
    .flatMap((p) => p.recent_pipelines.map((r) => ({ project: p, pipeline: r })))
    .find((x) => x.pipeline.status === 'failed')!;
  const details = await service.get<PipelineDetails>(
    `/api/pipelines/${failed.project.project_id}/details/${failed.pipeline.pipeline_id}`,
  );
  const job = details.jobs.find((j) => j.status === 'failed')!;
  const res = await page.request.post(service.url + '/api/ai/analyse', {
    data: {
      projectId: failed.project.project_id,
      pipelineId: failed.pipeline.pipeline_id,
      jobId: job.id,
      jobName: job.name,
      stage: job.stage,
      force: true,
    },
    headers: { Origin: service.url },
    timeout: 60_000,
  });
  expect(res.ok()).toBe(true);
  expect(((await res.json()) as AnalyseResponse).analysis).toContain(
    'could not be used, so this is the built-in offline analysis instead',
  );

  // And back to offline.
  await form.getByRole('radio', { name: 'Offline (built in)' }).click();
  await form.getByRole('button', { name: 'Save provider' }).click();
  await expect(form.getByText('Provider settings saved.')).toBeVisible();
  await expect(page.getByTestId('provider-status')).toContainText('Offline analyser');
  expect(await service.get<ProviderStatus>('/api/ai/provider')).toMatchObject({
    provider: 'offline',
    model: '',
    baseUrl: '',
  });
});

test('reconnects after the service restarts', async ({ page, freshService }) => {
  await page.goto(freshService.url + '/');
  await expect(page.locator('[data-connection="live"]')).toBeVisible();
  await freshService.stop();
  await expect(page.locator('[data-connection="reconnecting"]')).toBeVisible({ timeout: 20_000 });
  // The last data stays on screen while the service is down.
  await expect(metric(page, 'total')).toHaveText(/[0-9]/);
  await snap(page, 'reconnecting');
  await freshService.restart();
  await expect(page.locator('[data-connection="live"]')).toBeVisible({ timeout: 40_000 });
  await expect(async () => {
    const api = await freshService.get<SummaryResponse>('/api/pipelines/summary');
    expect(await pageTotals(page)).toEqual(apiTotals(api));
  }).toPass({ timeout: 30_000 });
});

test('keyboard navigation, dark theme screenshots and the README screenshot', async ({
  page,
  service,
}) => {
  await page.goto(service.url + '/');
  await expect(metric(page, 'total')).toHaveText(/[0-9]/);
  await page.keyboard.press('g');
  await page.keyboard.press('p');
  await expect(page).toHaveURL(/\/projects$/);
  await page.keyboard.press('g');
  await page.keyboard.press('h');
  await expect(page).toHaveURL(/\/history$/);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.emulateMedia({ colorScheme: 'dark' });
  for (const [route, name] of [
    ['/', 'overview-dark'],
    ['/projects', 'projects-dark'],
    ['/settings', 'settings-dark'],
  ] as const) {
    await page.goto(service.url + route);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await snap(page, name);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(service.url + '/');
  await expect(metric(page, 'total')).toHaveText(/[0-9]/);
  await expect(page.locator('.failure-title .skeleton')).toHaveCount(0);
  // `UPDATE_SCREENSHOTS=1 npm run test:e2e` refreshes the README's screenshot from this run.
  keepForDocs(await snap(page, 'readme'), 'screenshot.png');
});

test('a multi-megabyte log stays responsive: virtualised lines, search reaches the end', async ({
  page,
  service,
}) => {
  const api = await service.get<SummaryResponse>('/api/pipelines/summary');
  const project = api.projects.find((p) => p.recent_pipelines.length > 0)!;
  const pipeline = project.recent_pipelines[0]!;
  const details = await service.get<{ jobs: { id: number }[] }>(
    `/api/pipelines/${project.project_id}/details/${pipeline.pipeline_id}`,
  );
  const jobId = details.jobs[0]!.id;
  const E = '\x1b';
  const line = (i: number) =>
    `${E}[32m✓${E}[0m test case ${i} passed with a long-ish description\n`;
  const big =
    Array.from({ length: 80_000 }, (_, i) => line(i + 1)).join('') +
    `${E}[31mERROR: the very last line${E}[0m\n`;
  expect(big.length).toBeGreaterThan(4_000_000);
  await page.route('**/api/jobtrace?*', (route) =>
    route.fulfill({ json: { trace: big, complete: true } }),
  );
  await page.goto(
    `${service.url}/pipelines/${project.project_id}/${pipeline.pipeline_id}?job=${jobId}`,
  );
  await expect(page.locator('.log-footer')).toContainText('80,001 lines', { timeout: 30_000 });
  expect(await page.locator('.log-line').count()).toBeLessThan(200);
  await page.getByLabel('Search the log').fill('the very last line');
  await page.getByLabel('Search the log').press('Enter');
  await expect(page.getByTestId('log-hits')).toHaveText('1 of 1');
  await expect(page.locator('.log-line', { hasText: 'the very last line' })).toBeVisible();
  await expect(page.locator('.log-line .ansi-fg-1').last()).toHaveText(/the very last line/);
});
