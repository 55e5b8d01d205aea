import type { NotificationSettings, NotificationState } from '../contract.ts';
import type { RouteModule } from '../http/app.ts';
import { readJsonBody } from '../http/body.ts';
import { parseInput } from '../http/validation.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import type { FailureEvents } from './failure-events.ts';
import {
  NotificationSettingsUpdateSchema,
  readNotificationSettings,
  updateNotificationSettings,
} from './notification-settings.ts';

/**
 * GET/PUT /api/notifications/settings (stored with the other settings) and
 * GET /api/notifications/state (failing refs and recent failures that matter, for tray and dashboard).
 */
export function notificationRoutes(deps: {
  store: SettingsStore;
  events: FailureEvents;
}): RouteModule {
  return (router) => {
    router.get('/notifications/settings', (ctx) => {
      const body: NotificationSettings = readNotificationSettings(deps.store);
      ctx.body = body;
    });
    router.put('/notifications/settings', async (ctx) => {
      const update = parseInput(
        NotificationSettingsUpdateSchema,
        await readJsonBody(ctx, 64 * 1024),
        'body',
      );
      const body: NotificationSettings = updateNotificationSettings(deps.store, update);
      ctx.body = body;
    });
    router.get('/notifications/state', (ctx) => {
      const body: NotificationState = deps.events.state();
      ctx.body = body;
    });
  };
}
