import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../../server/testing/temp-dirs.ts';
import { resolveServeConfig } from './serve.ts';

const homes = tempDirs('ps-serve-');
const home = homes.make;
afterAll(homes.removeAll);

describe('resolveServeConfig', () => {
  it('takes flags over environment over stored settings', () => {
    const dir = home();
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ group: 'stored', since: '2w', gitlabUrl: 'https://stored.example' }),
    );
    const env = { PIPELINE_SUMMARY_HOME: dir, GITLAB_GROUP: 'from-env', PORT: '6000' };
    expect(resolveServeConfig([], env)).toMatchObject({
      group: 'from-env',
      since: '2w',
      gitlabUrl: 'https://stored.example',
      port: 6000,
      dataDir: dir,
    });
    expect(
      resolveServeConfig(
        [
          '--group',
          'flag',
          '--port',
          '7000',
          '--since',
          '1d',
          '--gitlab-url',
          'https://flag.example',
        ],
        env,
      ),
    ).toMatchObject({
      group: 'flag',
      port: 7000,
      since: '1d',
      gitlabUrl: 'https://flag.example',
    });
    expect(resolveServeConfig([], { PIPELINE_SUMMARY_HOME: dir })).toMatchObject({
      group: 'stored',
      port: 5100,
      host: '127.0.0.1',
    });
  });

  it('takes trusted proxies repeated or comma-separated', () => {
    const argv = ['--trusted-proxy', '127.0.0.1, ::1', '--trusted-proxy', '10.0.0.0/8'];
    expect(resolveServeConfig(argv, { PIPELINE_SUMMARY_HOME: home() })).toMatchObject({
      trustedProxies: ['127.0.0.1', '::1', '10.0.0.0/8'],
    });
    expect(
      resolveServeConfig([...argv, '--trusted-proxy-header', 'Forwarded'], {
        PIPELINE_SUMMARY_HOME: home(),
      }),
    ).toMatchObject({ trustedProxyHeader: 'forwarded' });
  });

  it('keeps demo settings apart from a real setup', () => {
    const dir = home();
    expect(resolveServeConfig(['--demo'], { PIPELINE_SUMMARY_HOME: dir })).toMatchObject({
      demo: true,
      dataDir: path.join(dir, 'demo'),
    });
  });

  it.each([
    [['--port', 'http'], /Invalid port 'http'/],
    [['--port', '70000'], /Invalid port/],
    [['--since', '7 days'], /Invalid since/],
    [['--gitlab-url', 'gitlab.example.com'], /Invalid GitLab URL/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['--trusted-proxy', 'nginx.internal'], /Invalid trusted proxy 'nginx.internal'/],
    [['--trusted-proxy', '127.0.0.1,10.0.0.0/33'], /Invalid trusted proxy '10.0.0.0\/33'/],
    [['--trusted-proxy', '127.0.0.1:8080'], /Invalid trusted proxy '127.0.0.1:8080'/],
    [
      ['--trusted-proxy-header', 'forwarded'],
      /--trusted-proxy-header .* give the proxy with --trusted-proxy too/,
    ],
    [
      ['--trusted-proxy-header', 'x-real-ip'],
      /Invalid --trusted-proxy-header 'x-real-ip': use forwarded or x-forwarded-for/,
    ],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => resolveServeConfig(argv, { PIPELINE_SUMMARY_HOME: home() })).toThrow(message);
  });
});

/** Runs the CLI from source and resolves to its exit code and stderr. */
function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
  until?: (stderr: string, pid: number) => boolean,
  stdin?: string,
) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/pipeline-summary.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', GITLAB_TOKEN: '', GITLAB_GROUP: '', ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  let stderr = '';
  let signalled = false;
  child.stderr!.on('data', (c) => {
    stderr += c;
    // Once: a second SIGTERM is the user insisting, which (rightly) kills the process at once.
    if (!signalled && until?.(stderr, child.pid!)) {
      signalled = true;
      child.kill('SIGTERM');
    }
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
}

describe('pipeline-summary serve (process)', () => {
  it('exits non-zero with one line when the port is taken', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as net.AddressInfo).port;
    const { code, stderr } = await cli(['serve', '--demo', '--port', String(port)], {
      PIPELINE_SUMMARY_HOME: home(),
    });
    blocker.close();
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `pipeline-summary: Port ${port} on 127.0.0.1 is already in use; pick another with --port`,
    ]);
  });

  it('says what is missing outside demo mode', async () => {
    const noGroup = await cli(['serve', '--port', '0'], { PIPELINE_SUMMARY_HOME: home() });
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toMatch(/No group to watch: pass --group/);
    const noToken = await cli(
      ['serve', '--port', '0', '--group', 'acme', '--gitlab-url', 'http://127.0.0.1:9'],
      { PIPELINE_SUMMARY_HOME: home() },
    );
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/No GitLab token for http:\/\/127.0.0.1:9: set GITLAB_TOKEN/);
  });

  it('uses the GitLab token saved with `token set`, and stops on a token GitLab rejects', async () => {
    const { startSimulator } = await import('../../server/simulator/index.ts');
    const sim = await startSimulator({ live: false });
    try {
      const env = { PIPELINE_SUMMARY_HOME: home(), PIPELINE_SUMMARY_SECRET_STORE: 'file' };
      const args = ['serve', '--port', '0', '--group', sim.groupPath, '--gitlab-url', sim.url];
      const saved = await cli(['token', 'set', '--url', sim.url], env, undefined, `${sim.token}\n`);
      expect(saved.code).toBe(0);
      const ok = await cli(args, env, (s) => s.includes('listening on'));
      expect(ok.stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(ok.code).toBe(0);
      const bad = await cli(args, { ...env, GITLAB_TOKEN: 'not-a-real-token' });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/GitLab rejected the token \(401\)/);
      expect(bad.stderr).not.toContain('not-a-real-token');
    } finally {
      await sim.close();
    }
  });

  it('hints at --trusted-proxy when a public URL has none', async () => {
    const env = { PIPELINE_SUMMARY_HOME: home(), PIPELINE_SUMMARY_SECRET_STORE: 'file' };
    const args = ['serve', '--demo', '--port', '0', '--public-url', 'https://ci.example.test'];
    const hint = /all clients share one wrong-token budget .* --trusted-proxy/;
    const bare = await cli(args, env, (s) => hint.test(s));
    expect(bare.stderr).toMatch(hint);
    expect(bare.code).toBe(0);
    const trusted = await cli([...args, '--trusted-proxy', '127.0.0.1'], env, (s) =>
      s.includes('Shared on the network'),
    );
    expect(trusted.stderr).toMatch(/Shared on the network/);
    expect(trusted.stderr).not.toMatch(hint);
    expect(trusted.code).toBe(0);
  });

  it('starts the demo and shuts down cleanly on SIGTERM', async () => {
    const { code, stderr } = await cli(
      ['serve', '--demo', '--port', '0'],
      { PIPELINE_SUMMARY_HOME: home() },
      (s) => s.includes('listening on'),
    );
    expect(stderr).toMatch(/Pipeline Summary \(demo\) listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(stderr).toMatch(/SIGTERM received, shutting down/);
    expect(code).toBe(0);
  });

  // cli/serve-heap.ts: the process that answers is the one started (execve keeps its id), with
  // V8's young generation capped on its command line; Linux shows it in /proc.
  it.runIf(process.platform === 'linux')(
    'runs with the young generation capped, in the process it was started as',
    async () => {
      let cmdline: string[] = [];
      const { code, stderr } = await cli(
        ['serve', '--demo', '--port', '0'],
        { PIPELINE_SUMMARY_HOME: home() },
        (s, pid) => {
          if (!s.includes('listening on')) return false;
          cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          return true;
        },
      );
      expect(stderr).toMatch(/listening on/);
      expect(code).toBe(0);
      expect(cmdline).toContain('--max-semi-space-size=16');
      expect(cmdline.slice(-4)).toEqual(['serve', '--demo', '--port', '0']);
    },
  );
});
