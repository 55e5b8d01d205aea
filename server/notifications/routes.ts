import type { NotificationSettings, NotificationState } from '../contract.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { readJsonBody } from '../http/body.ts';
import { parseInput } from '../http/validation.ts';
import type { SettingsStore } from '../settings/settings-store.ts';
import type { FailureEvents } from './failure-events.ts';
import {
  NotificationSettingsSchema,
  NotificationSettingsUpdateSchema,
  readNotificationSettings,
  updateNotificationSettings,
} from './notification-settings.ts';

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/notifications/settings',
    tag: 'Notifications',
    summary: 'Which failures notify: reasons, quiet hours, muted and starred projects',
    docs: 'get-apinotificationssettings',
    additive: true,
    response: { description: 'The notification settings.', schema: NotificationSettingsSchema },
  },
  {
    method: 'put',
    path: '/notifications/settings',
    tag: 'Notifications',
    summary: 'Changes some of the notification settings (stored with the other settings)',
    docs: 'put-apinotificationssettings',
    additive: true,
    body: NotificationSettingsUpdateSchema,
    response: { description: 'The settings after the change.', schema: NotificationSettingsSchema },
  },
  {
    method: 'get',
    path: '/notifications/state',
    tag: 'Notifications',
    summary: 'Failing refs and the most recent failures that matter (tray and dashboard)',
    docs: 'get-apinotificationsstate',
    additive: true,
    response: { description: '`{user, failing, recent}`.' },
  },
];

/**
 * GET/PUT /api/notifications/settings (stored with the other settings) and
 * GET /api/notifications/state (failing refs and recent failures that matter, for tray and dashboard).
 */
export function notificationRoutes(deps: {
  store: SettingsStore;
  events: FailureEvents;
}): RouteModule {
  return describedRoutes(ROUTE_DOCS, (router) => {
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
  });
}
