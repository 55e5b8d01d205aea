import type { NotificationSettings } from '../../server/contract.ts';
import { api, type ApiClient } from './client.ts';

/** The update PUT /api/notifications/settings accepts: any subset. */
export type NotificationSettingsUpdate = Partial<Omit<NotificationSettings, 'reasons'>> & {
  reasons?: Partial<NotificationSettings['reasons']>;
};

/** Reads the notification settings. */
export function getNotificationSettings(
  client: ApiClient = api,
  signal?: AbortSignal,
): Promise<NotificationSettings> {
  return client.get<NotificationSettings>('/notifications/settings', undefined, signal);
}

/** Saves part of the notification settings; resolves to the whole result. */
export function saveNotificationSettings(
  update: NotificationSettingsUpdate,
  client: ApiClient = api,
): Promise<NotificationSettings> {
  return client.request<NotificationSettings>('/notifications/settings', {
    method: 'PUT',
    body: update,
  });
}
