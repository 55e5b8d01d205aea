// A bundle smoke test, not an Electron test: the Electron binary cannot be downloaded here, so the
// shipped bundle dist/main/main.cjs runs under plain Node with a test double standing in for the
// `electron` module (main/testing/fake-electron.ts), against the GitLab simulator on loopback. It
// proves the bundle boots the service, points the window and tray at files that exist, renders the
// tray from live data, turns a failed pipeline into a native notification and a tray icon change,
// stops the service on quit, and asks for another port when the configured one is taken.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type GitLabSimulator } from '../server/simulator/index.ts';
import { createFakeElectron, type FakeMenuItem } from './testing/fake-electron.ts';
import { drawTrayMenu } from './tray-drawing.ts';

const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'dist/main/main.cjs');
const require = createRequire(import.meta.url);

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleInternals = Module as unknown as { _load: Loader };

async function until<T>(what: string, probe: () => T | undefined | null | false, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const labels = (items: FakeMenuItem[]) => items.map((i) => i.label ?? `(${i.type})`);

describe('bundle smoke test: dist/main/main.cjs under Node with a fake electron module', () => {
  let sim: GitLabSimulator;
  let home: string;
  let fake: ReturnType<typeof createFakeElectron>;
  const savedEnv = { ...process.env };
  const originalLoad = moduleInternals._load;

  beforeAll(async () => {
    // Build the bundle from the sources under test (esbuild, about a second); the dashboard only
    // when it was never built, since Vite takes longer.
    const parts = [
      'main',
      ...(existsSync(path.join(root, 'dist/renderer/index.html')) ? [] : ['renderer']),
    ];
    execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), ...parts], {
      cwd: root,
      stdio: 'ignore',
    });
    sim = await startSimulator({ live: false, projects: 4, days: 2 });
    home = mkdtempSync(path.join(os.tmpdir(), 'bundle-smoke-'));
    Object.assign(process.env, {
      PIPELINE_SUMMARY_HOME: home,
      PIPELINE_SUMMARY_SECRET_STORE: 'file',
      GITLAB_URL: sim.url,
      GITLAB_TOKEN: sim.token,
      GITLAB_GROUP: sim.groupPath,
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
    fake = createFakeElectron({ userData: path.join(home, 'electron') });
    moduleInternals._load = function (request, parent, isMain) {
      if (request === 'electron') return fake.electron;
      return originalLoad.call(this, request, parent, isMain);
    };
    require(bundle);
  }, 120_000);

  afterAll(async () => {
    moduleInternals._load = originalLoad;
    delete require.cache[bundle];
    process.env = savedEnv;
    await sim?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('starts the service from the bundle and opens the window on its URL', async () => {
    const win = await until('the dashboard window', () => fake.record.windows[0]);
    const url = win.urls[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const html = await (await fetch(url)).text();
    expect(html).toContain('<div id="root">');
  });

  it('passes preload, renderer and icon paths that exist on disk', () => {
    const win = fake.record.windows[0]!;
    const prefs = win.options.webPreferences as { preload: string; sandbox: boolean };
    expect(existsSync(prefs.preload)).toBe(true);
    expect(prefs.preload).toBe(path.join(root, 'dist/main/preload.cjs'));
    expect(prefs.sandbox).toBe(true);
    expect(existsSync(path.join(root, 'dist/renderer/index.html'))).toBe(true);
    expect(fake.record.images.length).toBeGreaterThan(0);
    for (const image of fake.record.images) expect(existsSync(image), image).toBe(true);
  });

  it('denies every permission request and answers IPC only from the service origin', async () => {
    const denied = await new Promise<boolean>((resolve) =>
      fake.record.permissionRequest!({}, 'notifications', resolve),
    );
    expect(denied).toBe(false);
    expect(fake.record.permissionCheck!({}, 'media')).toBe(false);
    expect([...fake.record.handlers.keys()].sort()).toEqual(['token:copy', 'token:profiles']);
    const profiles = fake.record.handlers.get('token:profiles')!;
    const url = fake.record.windows[0]!.urls[0]!;
    await expect(
      Promise.resolve().then(() => profiles({ senderFrame: { url: 'https://evil.example/' } })),
    ).rejects.toThrow(/refused/);
    await expect(profiles({ senderFrame: { url: `${url}/settings` } })).resolves.toEqual([]);
  });

  it('renders the tray menu and tooltip from live service data', async () => {
    const tray = await until('a tray', () => fake.record.trays[0]);
    await until('live data in the tray', () =>
      tray.menu.some((i) => i.label === 'Pause Polling' || i.label === 'No failures that matter'),
    );
    await until(
      'the first summary',
      () => /\d+ projects/.test(tray.tooltip) && !/loading/.test(tray.tooltip),
    );
    expect(tray.tooltip).toMatch(/^Pipeline Summary — /);
    expect(tray.tooltip).toContain('4 projects');
    expect(labels(tray.menu)).toEqual(
      expect.arrayContaining([
        'Open Dashboard',
        'Pause Polling',
        'Notification Settings…',
        'Launch at Login',
        'Copy Token',
        'Quit Pipeline Summary',
      ]),
    );
  });

  it('turns a failed pipeline of the token user into a native notification and a tray icon change', async () => {
    const tray = fake.record.trays[0]!;
    const url = fake.record.windows[0]!.urls[0]!;
    // The simulator's history has broken default branches; care only about mine for this test.
    const put = await fetch(`${url}/api/notifications/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reasons: { 'default-branch': false, watched: false } }),
    });
    expect(put.status).toBe(200);
    await until('a tray that is not red', () => !tray.image.endsWith('tray-failing-light.png'));
    const target = { id: sim.projectIds()[0]! };
    const started = sim.startPipeline(target.id, {
      byTokenUser: true,
      ref: 'feature/smoke',
    });
    // Resume polling at once instead of waiting out the 60 s idle interval: pause, then resume.
    click(tray.menu, 'Pause Polling');
    await until('paused', () => tray.menu.some((i) => i.label === 'Resume Polling'));
    click(tray.menu, 'Resume Polling');
    await until('the pipeline seen running', () => /[1-9]\d* running/.test(tray.tooltip));
    sim.finishPipeline(started.projectId, started.pipelineId, 'failed');
    click(tray.menu, 'Pause Polling');
    await until('paused', () => tray.menu.some((i) => i.label === 'Resume Polling'));
    click(tray.menu, 'Resume Polling');
    const notification = await until('a notification', () =>
      fake.record.notifications.find((n) => n.options.title.includes(`#${started.pipelineId}`)),
    );
    expect(notification.shown).toBe(true);
    expect(notification.options.body).toContain('(yours)');
    await until('the failing icon', () => path.basename(tray.image) === 'tray-failing-light.png');
    const entry = tray.menu.find((i) => i.label?.includes(`#${started.pipelineId}`));
    expect(entry?.label).toMatch(/^✗ /);
    // docs/notifications.md's picture of the tray is this live model, drawn as text.
    mkdirSync(path.join(root, 'test-results'), { recursive: true });
    writeFileSync(
      path.join(root, 'test-results/tray-menu.txt'),
      drawTrayMenu(tray.menu, tray.tooltip, path.basename(tray.image)) + '\n',
    );
    // Clicking the notification opens the window on the pipeline's failing job.
    notification.click();
    const win = fake.record.windows[0]!;
    await until('navigation', () =>
      win.urls.some((u) =>
        u.includes(`/pipelines/${started.projectId}/${started.pipelineId}?job=`),
      ),
    );
    // Four poll cycles through the bundled service take ~15 s on CI's two cores: the default
    // 20 s left too little room under load; each wait above has its own deadline.
  }, 60_000);

  it('stops the service cleanly on quit', async () => {
    const url = fake.record.windows[0]!.urls[0]!;
    fake.app.quit();
    await until('exit', () => fake.record.exitCode !== null);
    expect(fake.record.exitCode).toBe(0);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  });
});

function click(menu: FakeMenuItem[], label: string): void {
  const item = menu.find((i) => i.label === label);
  if (!item?.click) throw new Error(`no menu item '${label}' in ${JSON.stringify(labels(menu))}`);
  item.click();
}

describe('bundle smoke test: a port taken by another program', () => {
  it('asks, in a dialog, to start on a free port instead, and does', async () => {
    const sim = await startSimulator({ live: false, projects: 2, days: 1 });
    const home = mkdtempSync(path.join(os.tmpdir(), 'bundle-smoke-port-'));
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
    const taken = (squatter.address() as net.AddressInfo).port;
    const savedEnv = { ...process.env };
    const originalLoad = moduleInternals._load;
    const fake = createFakeElectron({ userData: path.join(home, 'electron') });
    try {
      Object.assign(process.env, {
        PIPELINE_SUMMARY_HOME: home,
        PIPELINE_SUMMARY_SECRET_STORE: 'file',
        GITLAB_URL: sim.url,
        GITLAB_TOKEN: sim.token,
        GITLAB_GROUP: sim.groupPath,
        PORT: String(taken),
        LOG_LEVEL: 'silent',
      });
      moduleInternals._load = function (request, parent, isMain) {
        if (request === 'electron') return fake.electron;
        return originalLoad.call(this, request, parent, isMain);
      };
      delete require.cache[bundle];
      require(bundle);
      const win = await until('the dashboard window', () => fake.record.windows[0]);
      const dialog = fake.record.dialogs[0] as { message: string; buttons: string[] };
      expect(dialog.message).toBe(`Port ${taken} is in use by another program`);
      const offered = Number(/^Use port (\d+)$/.exec(dialog.buttons[0]!)?.[1]);
      expect(offered).toBeGreaterThan(0);
      expect(win.urls[0]).toBe(`http://127.0.0.1:${offered}`);
      expect((await fetch(`${win.urls[0]}/api/health`)).status).toBe(200);
      fake.app.quit();
      await until('exit', () => fake.record.exitCode !== null);
    } finally {
      moduleInternals._load = originalLoad;
      delete require.cache[bundle];
      process.env = savedEnv;
      await new Promise((r) => squatter.close(r));
      await sim.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
