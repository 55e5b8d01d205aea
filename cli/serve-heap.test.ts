import { describe, expect, it } from 'vitest';
import {
  SERVE_SEMI_SPACE_MIB,
  restartServeWithHeapLimits,
  serveCommandLine,
} from './serve-heap.ts';

const exec = () => {
  throw new Error('not called');
};
const deps = (over: Partial<Parameters<typeof serveCommandLine>[0]> = {}) => ({
  execPath: '/usr/bin/node',
  execArgv: ['--import', 'tsx'],
  argv: ['/usr/bin/node', '/opt/ps/pipeline-summary.js', 'serve', '--port', '0'],
  env: { PATH: '/usr/bin' },
  execve: exec as never,
  ...over,
});

describe('serveCommandLine', () => {
  it('adds the young generation cap after Node’s own flags and before the script', () => {
    expect(serveCommandLine(deps())).toEqual([
      '/usr/bin/node',
      '--import',
      'tsx',
      `--max-semi-space-size=${SERVE_SEMI_SPACE_MIB}`,
      '/opt/ps/pipeline-summary.js',
      'serve',
      '--port',
      '0',
    ]);
  });

  it('leaves a size the user gave alone, on the command line or in NODE_OPTIONS', () => {
    expect(serveCommandLine(deps({ execArgv: ['--max-semi-space-size=64'] }))).toBeNull();
    expect(serveCommandLine(deps({ execArgv: ['--max_semi_space_size=8'] }))).toBeNull();
    expect(
      serveCommandLine(deps({ env: { NODE_OPTIONS: '--use-env-proxy --max-semi-space-size=32' } })),
    ).toBeNull();
  });

  it('runs as it is where a process cannot be replaced, and on Electron’s Node', () => {
    expect(serveCommandLine(deps({ execve: undefined }))).toBeNull();
    expect(serveCommandLine(deps({ electron: '38.2.0' }))).toBeNull();
  });

  it('is idempotent: the restarted process carries the flag and does not restart again', () => {
    const line = serveCommandLine(deps())!;
    expect(serveCommandLine(deps({ execArgv: line.slice(1, 4) }))).toBeNull();
  });
});

describe('restartServeWithHeapLimits', () => {
  it('replaces the process with the same environment', () => {
    const calls: unknown[][] = [];
    const execve = ((...args: unknown[]) => void calls.push(args)) as never;
    restartServeWithHeapLimits(deps({ execve, env: { GITLAB_GROUP: 'acme' } }));
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe('/usr/bin/node');
    expect(calls[0]![2]).toEqual({ GITLAB_GROUP: 'acme' });
  });

  it('runs as it is when the replacement fails', () => {
    const execve = (() => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    }) as never;
    expect(() => restartServeWithHeapLimits(deps({ execve }))).not.toThrow();
  });
});
