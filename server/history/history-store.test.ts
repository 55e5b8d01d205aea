import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../platform/logger.ts';
import { HISTORY_SCHEMA_VERSION, HistoryStore } from './history-store.ts';
import { FIXTURE_NOW, HistoryBuilder } from './testing/history-fixtures.ts';

let dir: string;
let file: string;
const open: HistoryStore[] = [];
const openStore = (retentionDays?: number) => {
  const s = HistoryStore.open(file, silentLogger, { retentionDays });
  open.push(s);
  return s;
};
const DAY = 86_400_000;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'history-store-'));
  file = path.join(dir, 'data', 'history.db');
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Two projects; one pipeline with a retried job, one 100 days old. */
function fixture() {
  const b = new HistoryBuilder().project(1, 'api').project(2, 'web', 'master');
  const retried = b.pipeline({
    projectId: 1,
    status: 'success',
    minutesAgo: 60,
    jobs: [
      { name: 'test', status: 'failed', duration: 30.25 },
      { name: 'test', status: 'success', duration: 31.5 },
    ],
  });
  const old = b.pipeline({ projectId: 2, status: 'failed', minutesAgo: 100 * 24 * 60 });
  return { snapshot: b.build(), retried, old };
}

describe('HistoryStore', () => {
  it('creates the schema in WAL mode with full sync, a private file and a version', () => {
    const s = openStore();
    expect(s.schemaVersion()).toBe(HISTORY_SCHEMA_VERSION);
    s.close();
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('refuses a store written by a newer schema', () => {
    openStore().close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${HISTORY_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openStore()).toThrow(/newer than this version of Pipeline Summary understands/);
  });

  it('moves an unreadable file aside and starts afresh', () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'not a database '.repeat(200));
    const s = openStore();
    expect(s.counts()).toEqual({ projects: 0, pipelines: 0, jobs: 0 });
    expect(readdirSync(path.dirname(file)).some((f) => f.startsWith('history.db.corrupt-'))).toBe(
      true,
    );
  });

  it('round-trips projects, pipelines and jobs with the retried flag', () => {
    const { snapshot, retried } = fixture();
    const s = openStore();
    s.upsertProjects(snapshot.projects);
    s.savePipelines(snapshot.pipelines, new Map([[retried, snapshot.jobs.get(retried)!]]));
    const loaded = s.load(0);
    expect(loaded).toEqual(snapshot);
    expect(loaded.jobs.get(retried)!.map((j) => [j.status, j.retried, j.duration])).toEqual([
      ['failed', true, 30.25],
      ['success', false, 31.5],
    ]);
    // Replacing a pipeline's jobs drops the old attempts.
    s.savePipelines([], new Map([[retried, snapshot.jobs.get(retried)!.slice(1)]]));
    expect(s.counts().jobs).toBe(1);
  });

  it('loads only what was created since a time and prunes beyond the retention', () => {
    const { snapshot, old } = fixture();
    const s = openStore(90);
    s.upsertProjects(snapshot.projects);
    s.savePipelines(snapshot.pipelines);
    expect(s.load(FIXTURE_NOW - 7 * DAY).pipelines.map((p) => p.pipelineId)).not.toContain(old);
    expect(s.prune(FIXTURE_NOW)).toBe(1);
    expect(s.counts().pipelines).toBe(1);
    expect(s.prune(FIXTURE_NOW)).toBe(0);
    expect(() => HistoryStore.open(':memory:', silentLogger, { retentionDays: 0 })).toThrow(
      /positive integer/,
    );
  });

  it('keeps bookkeeping values and merge-request titles', () => {
    const s = openStore();
    s.saveMergeRequest({ projectId: 1, iid: 439, title: 'Old', webUrl: 'u' });
    s.saveMergeRequest({ projectId: 1, iid: 439, title: 'Add SSO', webUrl: 'u' });
    expect(s.mergeRequests()).toEqual([{ projectId: 1, iid: 439, title: 'Add SSO', webUrl: 'u' }]);
    s.setMeta({ group: 'acme', projectsReadAt: '5' });
    s.setMeta({ projectsReadAt: undefined });
    expect([s.getMeta('group'), s.getMeta('projectsReadAt')]).toEqual(['acme', undefined]);
  });

  it('keeps acknowledged history when the process is killed right after writing it', () => {
    const { snapshot, retried } = fixture();
    const storeModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'history-store.ts');
    const loggerModule = path.join(path.dirname(storeModule), '../platform/logger.ts');
    const jobs = snapshot.jobs.get(retried)!;
    const script = `
      import { HistoryStore } from ${JSON.stringify(storeModule)};
      import { silentLogger } from ${JSON.stringify(loggerModule)};
      const s = HistoryStore.open(${JSON.stringify(file)}, silentLogger);
      s.upsertProjects(${JSON.stringify(snapshot.projects)});
      s.savePipelines(${JSON.stringify(snapshot.pipelines)}, new Map([[${retried}, ${JSON.stringify(jobs)}]]));
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = path.join(dir, 'child.ts');
    writeFileSync(child, script);
    let signal: string | undefined;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', child], { stdio: 'pipe' });
    } catch (err) {
      signal = (err as { signal?: string }).signal;
    }
    expect(signal).toBe('SIGKILL');
    expect(openStore().load(0)).toEqual(snapshot);
  });
});
