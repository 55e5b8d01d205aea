import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitLab } from '../gitlab/testing/fake-gitlab.ts';
import { serveTestApp, type TestServer } from '../http/testing/test-server.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { MemorySettingsStore } from '../settings/settings-store.ts';
import { FailureEvents } from './failure-events.ts';
import { readNotificationSettings } from './notification-settings.ts';
import { notificationRoutes } from './routes.ts';

const store = new MemorySettingsStore({ group: 'acme' });
let served: TestServer;
let base: string;

beforeAll(async () => {
  const events = new FailureEvents({
    gitlab: new FakeGitLab(),
    clock: new ManualClock(),
    logger: silentLogger,
    settings: () => readNotificationSettings(store),
  });
  served = await serveTestApp({ routes: [notificationRoutes({ store, events })] });
  base = `${served.base}/api/notifications`;
});
afterAll(() => served.close());

const put = (body: unknown) =>
  fetch(`${base}/settings`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('notification routes', () => {
  it('reads defaults, saves partial updates with the other settings, and reports state', async () => {
    expect(await (await fetch(`${base}/settings`)).json()).toEqual({
      reasons: { mine: true, 'default-branch': true, watched: true },
      quiet_hours: null,
      muted_projects: [],
      starred_projects: [],
    });
    const res = await put({
      reasons: { mine: false },
      quiet_hours: { start: '22:00', end: '07:00' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      reasons: { mine: false, 'default-branch': true },
      quiet_hours: { start: '22:00', end: '07:00' },
    });
    expect(store.read()).toMatchObject({
      group: 'acme',
      notifications: { reasons: { mine: false } },
    });
    expect(await (await fetch(`${base}/state`)).json()).toEqual({
      user: null,
      failing: [],
      recent: [],
    });
  });

  it('refuses a malformed update in the error shape', async () => {
    for (const body of [
      { quiet_hours: { start: '25:00', end: '07:00' } },
      { reasons: { nope: true } },
    ]) {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ statusCode: 400, error: expect.any(String) });
    }
  });
});
