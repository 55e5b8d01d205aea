import { mkdirSync } from 'node:fs';
import Conf from 'conf';
import type { NotificationSettings } from '../contract.ts';

/** Settings that survive a restart (the data dir's settings.json). */
export interface StoredSettings {
  group?: string;
  since?: string;
  gitlabUrl?: string;
  /** The poller's fast cadence, e.g. `10s` (server/summary/cadence.ts). */
  pollInterval?: string;
  /** The poller's idle cadence, e.g. `60s`. */
  idleInterval?: string;
  /** Which failures notify (server/notifications/notification-settings.ts validates it). */
  notifications?: NotificationSettings;
}

/** The settings edge, so tests can keep settings in memory. */
export interface SettingsStore {
  read(): StoredSettings;
  write(patch: StoredSettings): void;
}

/**
 * Settings in `<dataDir>/settings.json` through `conf` (electron-store's engine, usable from plain
 * Node), written atomically so a crash never leaves a half-written file.
 */
export class FileSettingsStore implements SettingsStore {
  private readonly conf: Conf<StoredSettings>;
  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.conf = new Conf<StoredSettings>({
      cwd: dataDir,
      configName: 'settings',
      projectName: 'pipeline-summary',
      clearInvalidConfig: true,
      schema: {
        group: { type: 'string' },
        since: { type: 'string' },
        gitlabUrl: { type: 'string' },
        pollInterval: { type: 'string' },
        idleInterval: { type: 'string' },
        notifications: { type: 'object' },
      },
    });
  }
  read(): StoredSettings {
    return { ...this.conf.store };
  }
  write(patch: StoredSettings): void {
    this.conf.set({ ...this.conf.store, ...patch });
  }
}

/** Settings kept in memory (tests, demo runs without a data dir). */
export class MemorySettingsStore implements SettingsStore {
  constructor(private settings: StoredSettings = {}) {}
  read(): StoredSettings {
    return { ...this.settings };
  }
  write(patch: StoredSettings): void {
    this.settings = { ...this.settings, ...patch };
  }
}
