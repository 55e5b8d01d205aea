import { z } from 'zod';
import type { NotificationSettings } from '../contract.ts';
import type { SettingsStore } from '../settings/settings-store.ts';

const clockTime = z
  .string({ error: 'must be a string' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be HH:MM (24-hour)' });
const projectIds = z.array(z.number().int().positive()).max(10_000);

/** The stored notification settings; unknown keys are refused so a typo never silently does nothing. */
export const NotificationSettingsSchema = z
  .object({
    reasons: z
      .object({ mine: z.boolean(), 'default-branch': z.boolean(), watched: z.boolean() })
      .strict(),
    quiet_hours: z.object({ start: clockTime, end: clockTime }).strict().nullable(),
    muted_projects: projectIds,
    starred_projects: projectIds,
  })
  .strict();

/** PUT /api/notifications/settings: any subset of the settings (reasons may be partial too). */
export const NotificationSettingsUpdateSchema = z
  .object({
    reasons: NotificationSettingsSchema.shape.reasons.partial().optional(),
    quiet_hours: NotificationSettingsSchema.shape.quiet_hours.optional(),
    muted_projects: projectIds.optional(),
    starred_projects: projectIds.optional(),
  })
  .strict();

/** What an update may change. */
export type NotificationSettingsUpdate = z.infer<typeof NotificationSettingsUpdateSchema>;

/** Every reason notifies, no quiet hours, nothing muted or starred. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  reasons: { mine: true, 'default-branch': true, watched: true },
  quiet_hours: null,
  muted_projects: [],
  starred_projects: [],
};

/** The notification settings as stored with the other settings (defaults when absent or invalid). */
export function readNotificationSettings(store: SettingsStore): NotificationSettings {
  const parsed = NotificationSettingsSchema.safeParse(store.read().notifications);
  return parsed.success ? parsed.data : structuredClone(DEFAULT_NOTIFICATION_SETTINGS);
}

/** Applies an update, persists it and returns the result. */
export function updateNotificationSettings(
  store: SettingsStore,
  update: NotificationSettingsUpdate,
): NotificationSettings {
  const current = readNotificationSettings(store);
  const next: NotificationSettings = {
    reasons: { ...current.reasons, ...update.reasons },
    quiet_hours: update.quiet_hours === undefined ? current.quiet_hours : update.quiet_hours,
    muted_projects: unique(update.muted_projects ?? current.muted_projects),
    starred_projects: unique(update.starred_projects ?? current.starred_projects),
  };
  store.write({ notifications: next });
  return next;
}

/** True when `now` (epoch ms) falls in the quiet hours, in the machine's local time. */
export function inQuietHours(quiet: NotificationSettings['quiet_hours'], now: number): boolean {
  if (!quiet) return false;
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  const date = new Date(now);
  const t = date.getHours() * 60 + date.getMinutes();
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  if (start === end) return false;
  return start < end ? t >= start && t < end : t >= start || t < end;
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
