import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import type { NotificationSettings } from '../contract.ts';
import { z } from 'zod';
import { secureDataDir, secureFile, stderrWarn, type Warn } from './data-dir.ts';

/** Settings that survive a restart (the data dir's settings.json). */
export interface StoredSettings {
  group?: string;
  since?: string;
  gitlabUrl?: string;
  /** Which failures notify (server/notifications/notification-settings.ts validates it). */
  notifications?: NotificationSettings;
}

/** The settings edge, so tests can keep settings in memory. */
export interface SettingsStore {
  read(): StoredSettings;
  write(patch: StoredSettings): void;
}

const SETTINGS_FILE = 'settings.json';

/** What a readable settings.json holds; extra keys (a newer version's) are kept as they are. */
const storedSettingsSchema = z.looseObject({
  group: z.string().optional(),
  since: z.string().optional(),
  gitlabUrl: z.string().optional(),
  notifications: z.looseObject({}).optional(),
});

/**
 * Settings in `<dataDir>/settings.json` through `conf` (electron-store's engine, usable from plain
 * Node), written atomically (a temp file renamed over) with mode 0600 in a 0700 dir. A corrupt or
 * wrong-typed file is moved aside with a warning naming it, never silently reset; temp files a
 * killed write left behind are removed.
 */
export class FileSettingsStore implements SettingsStore {
  private readonly conf: Conf<StoredSettings>;
  constructor(dataDir: string, warn: Warn = stderrWarn) {
    secureDataDir(dataDir, warn);
    removeStaleTempFiles(dataDir);
    quarantineIfUnreadable(path.join(dataDir, SETTINGS_FILE), warn);
    secureFile(path.join(dataDir, SETTINGS_FILE));
    this.conf = new Conf<StoredSettings>({
      cwd: dataDir,
      configName: 'settings',
      projectName: 'pipeline-summary',
      configFileMode: 0o600,
      schema: {
        group: { type: 'string' },
        since: { type: 'string' },
        gitlabUrl: { type: 'string' },
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

/** `atomically` writes `settings.json.tmp-<random>` and renames it; kill -9 in between leaves it. */
function removeStaleTempFiles(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    if (name.startsWith(`${SETTINGS_FILE}.tmp-`)) rmSync(path.join(dataDir, name), { force: true });
  }
}

function quarantineIfUnreadable(file: string, warn: Warn): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return; // Missing: conf starts empty, which is right.
  }
  let problem: string | undefined;
  try {
    const parsed = storedSettingsSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problem = `'${issue?.path.join('.') || 'settings'}' ${issue?.message ?? 'is invalid'}`;
    }
  } catch {
    problem = 'it is not valid JSON';
  }
  if (problem === undefined) return;
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  warn(
    `Settings file ${file} could not be used (${problem}); moved it to ${aside} and started afresh`,
  );
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
