import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (the cwd the built CLI is run from). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The built CLI bundle (`npm run build`). */
export const CLI_BUNDLE = path.join(REPO_ROOT, 'dist/cli/pipeline-summary.js');
/** The project's pinned Node (24): native addons are built for it, so never the system node. */
export const NODE = existsSync(path.join(REPO_ROOT, 'node_modules/.bin/node'))
  ? path.join(REPO_ROOT, 'node_modules/.bin/node')
  : process.execPath;

/** A free loopback port (bound then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A GitLab (a simulator the test drives) for `serve` to watch instead of the demo's own. */
export interface WatchedGitLab {
  url: string;
  token: string;
  groupPath: string;
}

/** A `pipeline-summary serve --demo` process the tests own: start, stop, restart on the same port. */
export class DemoService {
  readonly url: string;
  private child: ChildProcess | null = null;
  private output = '';

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
    private readonly gitlab: WatchedGitLab | undefined,
    private readonly since: string | undefined,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  /**
   * Starts the built CLI (run `npm run build` first) with a fresh data dir: in demo mode, or
   * watching `gitlab` (a simulator the test advances itself, for changes at a known moment);
   * `since` is its window (`--since`, default 7d).
   */
  static async start(
    options: { port?: number; dataDir?: string; gitlab?: WatchedGitLab; since?: string } = {},
  ): Promise<DemoService> {
    const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'ps-e2e-'));
    const port = options.port ?? (await freePort());
    const service = new DemoService(port, dataDir, !options.dataDir, options.gitlab, options.since);
    await service.launch();
    return service;
  }

  private async launch(): Promise<void> {
    this.output = '';
    const args = ['serve', '--port', String(this.port), '--data-dir', this.dataDir];
    if (this.since) args.push('--since', this.since);
    const env: NodeJS.ProcessEnv = { ...process.env, PIPELINE_SUMMARY_HOME: this.dataDir };
    env.NO_COLOR = '1';
    if (this.gitlab) {
      env.PIPELINE_SUMMARY_SECRET_STORE = 'file';
      env.GITLAB_URL = this.gitlab.url;
      env.GITLAB_TOKEN = this.gitlab.token;
      env.GITLAB_GROUP = this.gitlab.groupPath;
    } else args.splice(1, 0, '--demo');
    const child = spawn(NODE, [CLI_BUNDLE, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        throw new Error(`serve exited with ${child.exitCode}:\n${this.output}`);
      }
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`serve did not answer /api/health within 30 s:\n${this.output}`);
  }

  /** Waits until the first summary load finished (status.state is no longer `loading`). */
  async waitForSummary(timeoutMs = 30_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const body = (await (await fetch(`${this.url}/api/pipelines/summary`)).json()) as {
        projects: unknown[];
        status?: { state: string };
      };
      if ((body.status?.state ?? 'ok') !== 'loading' && body.projects.length > 0) return body;
      if (Date.now() > deadline) throw new Error('The demo summary never finished loading');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** GET a JSON route of the service. */
  async get<T>(route: string): Promise<T> {
    const res = await fetch(`${this.url}${route}`);
    if (!res.ok) throw new Error(`GET ${route} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** Stops the process (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** Stops and starts again on the same port and data dir (the "service restarted" case). */
  async restart(downForMs = 0): Promise<void> {
    await this.stop();
    if (downForMs) await new Promise((r) => setTimeout(r, downForMs));
    await this.launch();
  }

  /** Stops and removes the data dir it created. */
  async dispose(): Promise<void> {
    await this.stop();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** What the process printed (for failure messages). */
  get log(): string {
    return this.output;
  }
}

/** Debian's Chromium (or CHROMIUM_PATH): the tests never download a browser. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const candidate of ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'])
    if (existsSync(candidate)) return candidate;
  return '/usr/bin/chromium';
}
