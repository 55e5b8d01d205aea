// Browser notifications for failures that matter: the dashboard asks permission on the user's click
// (https://developer.mozilla.org/en-US/docs/Web/API/Notification/requestPermission_static), then a
// pipeline of the token's user failing in the GitLab simulator pops up a notification and a toast.
import { expect, test } from '@playwright/test';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import { DemoService } from './service.ts';

let sim: GitLabSimulator;
let service: DemoService;
let url: string;
let running: { projectId: number; pipelineId: number };

test.beforeAll(async () => {
  sim = await startSimulator({ live: false, projects: 3, days: 1 });
  // Running before the service starts: the poller keeps its 10 s cadence while it runs, and the
  // failure that follows is news, not start-up history.
  running = sim.startPipeline(sim.projectIds()[0], { byTokenUser: true, ref: 'feature/e2e' });
  service = await DemoService.start({ gitlab: sim });
  url = service.url;
  await expect
    .poll(
      async () =>
        (await service.get<{ status?: { state: string } }>('/api/pipelines/summary')).status?.state,
      {
        timeout: 30_000,
      },
    )
    .toBe('ok');
});

test.afterAll(async () => {
  await service?.dispose();
  await sim?.close();
});

test('a failed pipeline of the token user becomes a browser notification and a toast', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications'], { origin: url });
  // Record what the page hands the real Notification API (Playwright cannot see OS pop-ups).
  await page.addInitScript(() => {
    type Options = { body?: string; tag?: string };
    type NotificationClass = (new (title: string, options?: Options) => object) & {
      permission: string;
      requestPermission(): Promise<string>;
    };
    const w = globalThis as unknown as {
      Notification: NotificationClass;
      shownNotifications: { title: string; body?: string }[];
    };
    const Real = w.Notification;
    const shown: { title: string; body?: string }[] = [];
    w.shownNotifications = shown;
    class Recording extends Real {
      constructor(title: string, options?: Options) {
        super(title, options);
        shown.push({ title, body: options?.body });
      }
    }
    Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
    Object.defineProperty(Recording, 'requestPermission', {
      value: () => Real.requestPermission(),
    });
    w.Notification = Recording as unknown as NotificationClass;
  });
  await page.goto(`${url}/settings`);
  const section = page.locator('#notifications');
  await section.getByRole('button', { name: 'Enable browser notifications' }).click();
  await expect(section.getByText(/^On: failures that matter pop up/)).toBeVisible();
  await expect(section.getByRole('checkbox', { name: /My pipelines/ })).toBeChecked();

  sim.finishPipeline(running.projectId, running.pipelineId, 'failed');

  const title = new RegExp(`pipeline #${running.pipelineId} failed on feature/e2e`);
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            (globalThis as unknown as { shownNotifications: { title: string; body?: string }[] })
              .shownNotifications,
        ),
      { timeout: 45_000 },
    )
    .toContainEqual({
      title: expect.stringMatching(title),
      body: expect.stringContaining('(yours)'),
    });
  const toast = page.locator('.failure-toast').filter({ hasText: title });
  await expect(toast).toBeVisible();
  await toast.getByRole('button', { name: title }).click();
  await expect(page).toHaveURL(
    new RegExp(`/pipelines/${running.projectId}/${running.pipelineId}\\?job=\\d+`),
  );
});
