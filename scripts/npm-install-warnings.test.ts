// Issue 30, item 5: a newcomer's `npm ci` on the system Node (20 on Debian) printed 40 lines of
// EBADENGINE warnings — npm compares each package's `engines` with the Node running npm
// (npm/cli lib/npm.js sets `nodeVersion = process.version`; arborist's build-ideal-tree warns per
// package, and skips the root's own `engines` when it declares `devEngines`), while everything here
// runs on the `node` devDependency (24). `npm ci --dry-run --offline` builds the same tree from the
// lockfile, prints the same warnings, and installs nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pinned = Number(
  (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      devDependencies: { node: string };
    }
  ).devDependencies.node.split('.')[0],
);

/** A system Node of another major than the project's (Debian's 20), which is what npm runs on. */
function systemNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node']).toString().trim();
      if (Number(version.split('.')[0]) !== pinned) return candidate;
    } catch {
      // Not there.
    }
  }
  return undefined;
}

const node = systemNode();

describe('npm ci on the system Node (issue 30, item 5)', () => {
  it.skipIf(!node)('prints no warning a newcomer would stop at', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ps-npm-ci-'));
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc'])
        if (existsSync(path.join(root, file)))
          copyFileSync(path.join(root, file), path.join(dir, file));
      // npm itself on the system Node: its folder first, the project's node_modules/.bin out.
      const PATH = [
        path.dirname(node!),
        ...(process.env.PATH ?? '')
          .split(path.delimiter)
          .filter((p) => !p.includes('node_modules')),
      ].join(path.delimiter);
      const run = spawnSync(
        'npm',
        ['ci', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
        { cwd: dir, env: { ...process.env, PATH }, encoding: 'utf8', timeout: 60_000 },
      );
      const output = `${run.stdout}${run.stderr}`;
      expect(output).toContain('added');
      expect(output.split('\n').filter((l) => /npm warn|EBADENGINE/i.test(l))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
