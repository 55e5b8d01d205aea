import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeModuleProblem, nodeVersionProblem, REQUIRED_NODE_MAJOR } from './node-runtime.ts';

/** A Node on this machine of another major (Debian's system Node 20), if there is one. */
function otherNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node']).toString().trim();
      if (Number(version.split('.')[0]) !== REQUIRED_NODE_MAJOR) return candidate;
    } catch {
      // Not there.
    }
  }
  return undefined;
}

describe('the Node the service needs (issue 9, item 7)', () => {
  it('agrees with the Node package.json installs for scripts (the `node` devDependency)', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      devDependencies: { node: string };
    };
    expect(pkg.devDependencies.node.split('.')[0]).toBe(String(REQUIRED_NODE_MAJOR));
  });

  it('names the Node it needs and how to run it, in one line', () => {
    const problem = nodeVersionProblem('20.20.2');
    expect(problem).toBe(
      "Node 24 is required (this is Node 20.20.2); run it with 'npm run serve' or 'npx pipeline-summary' in the project folder, which use the project's Node 24",
    );
    expect(nodeVersionProblem(process.versions.node)).toBeNull();
  });

  it('loads the native module in a child process on this Node', () => {
    expect(nativeModuleProblem()).toBeNull();
  });

  const node20 = otherNode();
  it.skipIf(!node20)(
    'serve on another Node prints one line and exits 1 instead of segfaulting',
    async () => {
      // The same native module on the other Node crashes the probe, not us.
      expect(nativeModuleProblem(node20)).toMatch(/crashed with SIGSEGV|failed \(exit/);
      const home = mkdtempSync(path.join(os.tmpdir(), 'ps-node-'));
      try {
        const child = spawn(
          node20!,
          ['--import', 'tsx', 'cli/pipeline-summary.ts', 'serve', '--demo', '--port', '0'],
          {
            env: { ...process.env, PIPELINE_SUMMARY_HOME: home },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let stderr = '';
        child.stderr.on('data', (c) => (stderr += c));
        const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
        expect(code).toBe(1);
        expect(stderr.trim().split('\n')).toEqual([
          expect.stringMatching(/^pipeline-summary: Node 24 is required \(this is Node 2\d\./),
        ]);
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    },
  );
});
