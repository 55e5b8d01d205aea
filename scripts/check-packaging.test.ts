import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../server/testing/temp-dirs.ts';
import { parse, stringify } from 'yaml';
import { checkPackaging } from './check-packaging.ts';

// electron-builder's configuration reference: https://www.electron.build/configuration (npmRebuild,
// asarUnpack, extraResources); the schema is the one app-builder-lib validates with.
const root = path.resolve(import.meta.dirname, '..');
const real = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<
  string,
  unknown
>;

const dirs = tempDirs('packaging-');
afterAll(dirs.removeAll);

function variant(change: (config: Record<string, unknown>) => void): string {
  const config = structuredClone(real);
  change(config);
  const file = path.join(dirs.make(), 'builder.yml');
  writeFileSync(file, stringify(config));
  return file;
}

const notAboutBuildOutput = (p: { message: string }) => !p.message.includes('npm run build');

describe('check:packaging', () => {
  it('accepts the shipped electron-builder.yml (build output aside)', () => {
    expect(checkPackaging(root).filter(notAboutBuildOutput)).toEqual([]);
  });

  it('refuses a config that would ship better-sqlite3 built for Node instead of Electron', () => {
    const problems = checkPackaging(
      root,
      variant((c) => {
        c.npmRebuild = false;
        c.asarUnpack = [];
      }),
    );
    expect(problems.map((p) => p.where)).toEqual(
      expect.arrayContaining(['npmRebuild', 'asarUnpack']),
    );
  });

  it('refuses keys the schema does not know and files that do not exist', () => {
    const problems = checkPackaging(
      root,
      variant((c) => {
        c.npmRebuilt = true;
        c.extraResources = [{ from: 'assets/nowhere', to: 'x' }];
      }),
    );
    expect(
      problems.some((p) => p.where.startsWith('schema') && p.message.includes('npmRebuilt')),
    ).toBe(true);
    expect(problems).toContainEqual({
      where: 'extraResources[0].from',
      message: 'assets/nowhere does not exist',
    });
    expect(problems.some((p) => p.message.includes('tray icons'))).toBe(true);
  });
});
