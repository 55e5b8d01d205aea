import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeService } from '../compose.ts';
import { silentLogger, type Logger } from '../platform/logger.ts';
import { demoConfig } from '../testing/demo-config.ts';
import { FileSettingsStore } from './settings-store.ts';

const roots: string[] = [];
function root() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-rest-'));
  roots.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('files at rest (issue 9, item 5)', () => {
  it('tightens a 0755 data dir and keeps settings, the database and its WAL at 0600', async () => {
    const dataDir = path.join(root(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'settings.json'), '{"since":"3d"}', { mode: 0o644 });
    chmodSync(path.join(dataDir, 'settings.json'), 0o644);
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: unknown) => void warnings.push(String(m)) };
    const service = await composeService(demoConfig(dataDir, { gitlabUrl: '' }), {
      logger: logger as unknown as Logger,
      env: {},
    });
    try {
      const put = await fetch(`${service.url}/api/ai/system-prompt`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Be brief.' }),
      });
      expect(put.status).toBe(200);
      const post = await fetch(`${service.url}/api/settings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ since: '2d' }),
      });
      expect(post.status).toBe(200);
      expect(modeOf(dataDir)).toBe(0o700);
      expect(warnings.join('\n')).toMatch(/was readable by others \(0755\); tightened to 0700/);
      const files = readdirSync(dataDir);
      expect(files).toEqual(
        expect.arrayContaining(['analyses.db', 'analyses.db-wal', 'settings.json']),
      );
      for (const file of files)
        expect([file, modeOf(path.join(dataDir, file))]).toEqual([file, 0o600]);
    } finally {
      await service.stop();
    }
  });

  it('creates a new data dir 0700 and a new settings file 0600', () => {
    const dataDir = path.join(root(), 'fresh');
    const store = new FileSettingsStore(dataDir, () => undefined);
    store.write({ group: 'acme' });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'settings.json'))).toBe(0o600);
  });
});

describe('settings.json that cannot be used (issue 9, item 6)', () => {
  it.each([
    ['corrupt JSON', '{"group": "acme"', /not valid JSON/],
    ['a wrong type', '{"group": 42}', /'group'/],
    ['not an object', '[1, 2]', /settings/],
  ])('moves a file with %s aside with a warning naming it', (_what, content, reason) => {
    const dataDir = root();
    const file = path.join(dataDir, 'settings.json');
    writeFileSync(file, content);
    const warnings: string[] = [];
    const store = new FileSettingsStore(dataDir, (m) => warnings.push(m));
    expect(store.read()).toEqual({});
    const aside = readdirSync(dataDir).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, aside[0]!), 'utf8')).toBe(content);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
    expect(warnings[0]).toContain(aside[0]);
    expect(warnings[0]).toMatch(reason);
    store.write({ group: 'acme' });
    expect(new FileSettingsStore(dataDir, () => undefined).read()).toEqual({ group: 'acme' });
  });

  it('removes the temp file a write killed half-way left behind', () => {
    const dataDir = root();
    writeFileSync(path.join(dataDir, 'settings.json'), '{"group":"acme"}');
    // What `atomically` leaves when the process dies between writing the temp file and renaming it.
    writeFileSync(path.join(dataDir, 'settings.json.tmp-1763812345678a1b2c3'), '{"group":"ac');
    const store = new FileSettingsStore(dataDir, () => undefined);
    expect(store.read()).toEqual({ group: 'acme' });
    expect(readdirSync(dataDir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(existsSync(path.join(dataDir, 'settings.json'))).toBe(true);
  });
});
