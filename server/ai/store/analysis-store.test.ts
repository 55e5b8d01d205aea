import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../platform/logger.ts';
import { AnalysisStore, SCHEMA_VERSION, type NewAnalysis } from './analysis-store.ts';

let dir: string;
let file: string;
const open: AnalysisStore[] = [];
const openStore = () => {
  const s = AnalysisStore.open(file, silentLogger);
  open.push(s);
  return s;
};

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ai-store-'));
  file = path.join(dir, 'data', 'analyses.db');
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

const analysis = (
  jobId: number,
  minute: number,
  extra: Partial<NewAnalysis> = {},
): NewAnalysis => ({
  projectId: 1,
  pipelineId: 100 + jobId,
  jobId,
  jobName: `job-${jobId}`,
  stage: 'test',
  projectName: 'api',
  analysis: `analysis of ${jobId}`,
  provider: 'offline',
  model: '',
  isFallback: false,
  distilledLog: 'log',
  contextJson: null,
  timestamp: new Date(Date.UTC(2026, 10, 21, 12, minute)).toISOString(),
  ...extra,
});

describe('AnalysisStore', () => {
  it('creates the schema once, in WAL mode with full sync, and records the version', () => {
    const s = openStore();
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    s.saveAnalysis(analysis(1, 0));
    s.close();
    const raw = new Database(file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const indexes = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all();
    expect(indexes).toEqual(
      expect.arrayContaining(['analyses_newest', 'conversation_by_analysis']),
    );
    const plan = raw
      .prepare(
        'EXPLAIN QUERY PLAN SELECT id FROM analyses ORDER BY created_ms DESC, id DESC LIMIT 20 OFFSET 40',
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(
      /USING (?:COVERING )?INDEX analyses_newest/,
    );
    raw.close();
    const again = openStore();
    expect(again.get(1, 1)?.analysis).toBe('analysis of 1');
  });

  it('refuses a store written by a newer schema', () => {
    openStore().close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openStore()).toThrow(/newer than this version of Pipeline Summary understands/);
  });

  it('moves an unreadable file aside and starts afresh', () => {
    const folder = path.dirname(file);
    mkdirSync(folder, { recursive: true });
    writeFileSync(file, 'this is not a database '.repeat(100));
    const s = openStore();
    s.saveAnalysis(analysis(1, 0));
    expect(readdirSync(folder).some((f) => f.startsWith('analyses.db.corrupt-'))).toBe(true);
  });

  it('stores, replaces and deletes analyses with their conversations', () => {
    const s = openStore();
    s.saveAnalysis(analysis(5, 0));
    s.appendFollowup(1, 5, {
      question: 'why?',
      answer: 'because',
      timestamp: '2026-11-21T12:01:00.000Z',
      provider: 'offline',
      isFallback: false,
    });
    expect(s.get(1, 5)?.conversation).toEqual([
      { question: 'why?', answer: 'because', timestamp: '2026-11-21T12:01:00.000Z' },
    ]);
    s.saveAnalysis(analysis(5, 2, { analysis: 'kept' }), { keepConversation: true });
    expect(s.get(1, 5)?.conversation).toHaveLength(1);
    s.saveAnalysis(analysis(5, 3, { analysis: 'fresh' }));
    expect(s.get(1, 5)).toMatchObject({ analysis: 'fresh', conversation: [] });
    expect(s.delete(1, 5)).toBe(true);
    expect(s.delete(1, 5)).toBe(false);
    expect(s.get(1, 5)).toBeUndefined();
  });

  it('creates the analysis a follow-up refers to, atomically', () => {
    const s = openStore();
    expect(() =>
      s.appendFollowup(1, 9, {
        question: 'q',
        answer: 'a',
        timestamp: '2026-11-21T12:00:00.000Z',
        provider: 'offline',
        isFallback: false,
      }),
    ).toThrow(/no analysis stored/);
    expect(s.get(1, 9)).toBeUndefined();
    s.appendFollowup(
      1,
      9,
      {
        question: 'q',
        answer: 'a',
        timestamp: '2026-11-21T12:00:00.000Z',
        provider: 'x',
        isFallback: false,
      },
      analysis(9, 0, { provider: 'client' }),
    );
    expect(s.get(1, 9)).toMatchObject({ provider: 'client', conversation: [{ question: 'q' }] });
  });

  it('pages history newest first with conversation counts', () => {
    const s = openStore();
    s.bulkInsert([analysis(1, 1), analysis(2, 3), analysis(3, 2)]);
    s.appendFollowup(1, 3, {
      question: 'a',
      answer: 'b',
      timestamp: 't',
      provider: 'o',
      isFallback: false,
    });
    s.appendFollowup(1, 3, {
      question: 'c',
      answer: 'd',
      timestamp: 't',
      provider: 'o',
      isFallback: false,
    });
    const first = s.history(1, 2);
    expect(first.totalCount).toBe(3);
    expect(first.rows.map((r) => [r.jobId, r.conversationCount])).toEqual([
      [2, 0],
      [3, 2],
    ]);
    expect(s.history(2, 2).rows.map((r) => r.jobId)).toEqual([1]);
    expect(s.history(3, 2).rows).toEqual([]);
    expect(s.analyzedJobIds(1)).toEqual([1, 2, 3]);
    expect(s.analyzedJobIds(2)).toEqual([]);
  });

  it('keeps settings and pipeline analyses', () => {
    const s = openStore();
    s.setSettings({ a: '1', b: '2' });
    s.setSettings({ a: undefined, b: '3' });
    expect([s.getSetting('a'), s.getSetting('b')]).toEqual([undefined, '3']);
    s.savePipelineAnalysis({
      projectId: 1,
      pipelineId: 2,
      analysis: 'x',
      provider: 'offline',
      model: '',
      isFallback: false,
      jobsJson: '[]',
      timestamp: 't',
    });
    expect(s.getPipelineAnalysis(1, 2)?.analysis).toBe('x');
  });

  it('keeps an acknowledged analysis when the process is killed right after writing it', () => {
    const storeModule = path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      'analysis-store.ts',
    );
    const script = `
      import { AnalysisStore } from ${JSON.stringify(storeModule)};
      import { silentLogger } from ${JSON.stringify(path.join(path.dirname(storeModule), '../../platform/logger.ts'))};
      const s = AnalysisStore.open(${JSON.stringify(file)}, silentLogger);
      s.saveAnalysis(${JSON.stringify(analysis(42, 0, { analysis: 'survives' }))});
      process.kill(process.pid, 'SIGKILL');
    `;
    const child = path.join(dir, 'child.ts');
    writeFileSync(child, script);
    try {
      execFileSync(process.execPath, ['--import', 'tsx', child], { stdio: 'pipe' });
    } catch (err) {
      expect((err as { signal?: string }).signal).toBe('SIGKILL');
    }
    expect(openStore().get(1, 42)?.analysis).toBe('survives');
  });
});
