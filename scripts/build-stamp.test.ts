import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildState, recordBuild } from './build-stamp.mjs';

// `npm run serve` (and so `npm run demo`) rebuilds only when this says dist/ is not current; a
// wrong answer starts yesterday's code.
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
  roots.push(root);
  mkdirSync(path.join(root, 'server'), { recursive: true });
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'server/a.ts'), 'export {};\n');
  return root;
}

function age(file: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, t, t);
}

describe('build stamp', () => {
  it('needs a build when none was made, and is current after a full one', () => {
    const root = project();
    expect(buildState(root)).toBe('never');
    age(path.join(root, 'server/a.ts'), 60);
    expect(recordBuild(root, [], { version: '1' })).toBe(true);
    expect(buildState(root)).toBe('current');
  });

  it('is stale when a source changed after the build', () => {
    const root = project();
    recordBuild(root, [], {});
    age(path.join(root, 'dist/.build-stamp'), 60);
    expect(buildState(root)).toBe('stale');
  });

  it('does not count a partial build: the parts it skipped are still older than their sources', () => {
    const root = project();
    recordBuild(root, [], {});
    age(path.join(root, 'dist/.build-stamp'), 60);
    // The bundle smoke test rebuilds only `main` after a source edit.
    expect(recordBuild(root, ['main'], {})).toBe(false);
    expect(buildState(root)).toBe('stale');
  });
});
