import { describe, expect, it } from 'vitest';
import type { PipelineEvent, PipelineEventItem } from '../server/contract.ts';
import { DesktopShell, type ServiceMonitor, type ShellEdges } from './desktop-shell.ts';
import { startWithPortChoice } from './port-choice.ts';
import { allTrayIconFiles, trayIconFile } from './tray-icons.ts';
import {
  parseTrayAction,
  trayHealth,
  trayMenu,
  trayTooltip,
  type TrayHealth,
  type TrayItem,
  type TrayLiveData,
  type TrayState,
} from './tray-menu.ts';
import { restoreWindowState, trackWindowState, type WindowState } from './window-state.ts';
import { isTrustedSender } from './window-options.ts';

const URL = 'http://127.0.0.1:5100';

function failure(id: number, over: Partial<PipelineEventItem> = {}): PipelineEventItem {
  return {
    project_id: 3,
    project_name: 'api',
    project_path: 'acme/api',
    pipeline_id: id,
    web_url: `https://gitlab.test/acme/api/-/pipelines/${id}`,
    ref: 'main',
    source: 'push',
    user: null,
    commit_title: 'Fix the thing',
    failed_jobs: [{ id: id * 10, name: 'test', stage: 'test', failure_reason: 'script_failure' }],
    reasons: ['default-branch'],
    at: new Date(Date.UTC(2026, 10, 21, 12, 0, id)).toISOString(),
    ...over,
  };
}

function live(over: Partial<TrayLiveData> = {}): TrayLiveData {
  return {
    status: 'ok',
    lastError: null,
    running: 0,
    projects: 12,
    notifications: { user: { id: 7, username: 'ada' }, failing: [], recent: [] },
    ...over,
  };
}

const state = (over: Partial<TrayState> = {}): TrayState => ({
  serviceUrl: URL,
  profiles: [],
  live: live(),
  ...over,
});

describe('tray state machine', () => {
  it('ranks degraded over failing over running over green', () => {
    const failing = { user: null, failing: [failure(1)], recent: [failure(1)] };
    expect(trayHealth(state())).toBe('ok');
    expect(trayHealth(state({ live: live({ running: 2 }) }))).toBe('running');
    expect(trayHealth(state({ live: live({ running: 2, notifications: failing }) }))).toBe(
      'failing',
    );
    expect(trayHealth(state({ live: live({ status: 'degraded', notifications: failing }) }))).toBe(
      'degraded',
    );
    expect(trayHealth(state({ serviceUrl: null }))).toBe('degraded');
    expect(trayHealth(state({ paused: true }))).toBe('degraded');
    expect(trayHealth(state({ live: live({ status: 'loading' }) }))).toBe('running');
  });

  it('says why in the tooltip, with the counts', () => {
    expect(trayTooltip(state({ live: live({ running: 3 }) }))).toBe(
      'Pipeline Summary — all green\n0 failing that matter · 3 running · 12 projects',
    );
    expect(
      trayTooltip(state({ live: live({ status: 'degraded', lastError: 'GitLab answered 503' }) })),
    ).toMatch(/^Pipeline Summary — GitLab unreachable: GitLab answered 503\n/);
    expect(trayTooltip(state({ paused: true }))).toMatch(/polling paused/);
  });

  it('lists the five most recent failures that matter, each opening its failing job', () => {
    const recent = [1, 2, 3, 4, 5, 6].map((id) =>
      failure(id, id === 2 ? { reasons: ['mine'], ref: 'feature/x' } : {}),
    );
    const menu = trayMenu(
      state({ live: live({ notifications: { user: null, failing: [], recent } }) }),
    );
    const entries = menu.filter((i) => i.action?.startsWith('open-failure:'));
    expect(entries).toHaveLength(5);
    expect(entries[1]!.label).toBe('✗ api · feature/x #2 · test (yours)');
    // A merge request reads as the dashboard shows it (issue 30, item 1).
    const mr = failure(7, {
      ref: 'refs/merge-requests/406/head',
      ref_label: '!406',
      reasons: ['mine'],
    });
    const withMr = trayMenu(
      state({ live: live({ notifications: { user: null, failing: [], recent: [mr] } }) }),
    );
    expect(withMr.find((i) => i.action?.startsWith('open-failure:'))!.label).toBe(
      '✗ api · !406 #7 · test (yours)',
    );
    expect(parseTrayAction(entries[0]!.action!)).toEqual({
      kind: 'open-failure',
      projectId: 3,
      pipelineId: 1,
      jobId: 10,
    });
    expect(menu.map((i) => i.label)).toEqual(
      expect.arrayContaining(['Pause Polling', 'Notification Settings…', 'Launch at Login']),
    );
    expect(trayMenu(state({ paused: true })).some((i) => i.action === 'resume-polling')).toBe(true);
  });

  it('has a light and a dark icon per state', () => {
    expect(trayIconFile('failing', true)).toBe('tray-failing-dark.png');
    expect(allTrayIconFiles()).toHaveLength(16);
  });
});

function shellFakes(monitor: ServiceMonitor) {
  const log: string[] = [];
  let menu: TrayItem[] = [];
  let icon: { health: TrayHealth; tooltip: string } | null = null;
  const clicks: (() => void)[] = [];
  const loaded: string[] = [];
  let login = false;
  const edges: ShellEdges = {
    startService: async () => ({ url: URL, stop: async () => void log.push('stopped'), monitor }),
    createWindow: (url) => {
      loaded.push(url);
      return {
        show: () => undefined,
        focus: () => undefined,
        restore: () => undefined,
        isMinimized: () => false,
        isDestroyed: () => false,
        loadURL: (u: string) => void loaded.push(u),
      };
    },
    setTrayMenu: (items) => void (menu = items),
    setTrayIcon: (health, tooltip) => void (icon = { health, tooltip }),
    listProfiles: async () => [],
    getToken: async () => 'token',
    writeClipboard: () => undefined,
    notify: (title, _body, onClick) => {
      log.push(`notify ${title}`);
      if (onClick) clicks.push(onClick);
    },
    loginItem: { get: () => login, set: (v) => void (login = v) },
    quit: () => undefined,
  };
  return { edges, log, menu: () => menu, icon: () => icon, clicks, loaded, login: () => login };
}

function fakeMonitor() {
  let listener: ((e: PipelineEvent) => void) | null = null;
  const data = { current: live() };
  const calls: string[] = [];
  const monitor: ServiceMonitor = {
    live: () => data.current,
    onEvent: (l) => {
      listener = l;
      return () => (listener = null);
    },
    pause: async () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
  };
  return { monitor, data, calls, fire: (e: PipelineEvent) => listener?.(e) };
}

const failedEvent = (notify = true): PipelineEvent => ({
  event: 'pipeline-failed',
  id: 'e1',
  title: 'api: pipeline #9 failed on main',
  body: 'Fix the thing — Failed: test (default branch)',
  coalesced: false,
  notify,
  pipelines: [failure(9)],
  timestamp: '2026-11-21T12:00:00.000Z',
});

describe('DesktopShell as a build monitor', () => {
  it('notifies a failure that matters, turns the icon red and opens the failing job on click', async () => {
    const m = fakeMonitor();
    const f = shellFakes(m.monitor);
    const shell = new DesktopShell(f.edges);
    await shell.start();
    expect(f.icon()!.health).toBe('ok');
    m.data.current = live({
      notifications: { user: null, failing: [failure(9)], recent: [failure(9)] },
    });
    m.fire(failedEvent());
    expect(f.log).toContain('notify api: pipeline #9 failed on main');
    expect(f.icon()!.health).toBe('failing');
    expect(f.menu().some((i) => i.label.startsWith('✗ api · main #9'))).toBe(true);
    f.clicks[0]!();
    expect(f.loaded.at(-1)).toBe(`${URL}/pipelines/3/9?job=90`);
  });

  it('stays silent in quiet hours but still updates the tray', async () => {
    const m = fakeMonitor();
    const f = shellFakes(m.monitor);
    await new DesktopShell(f.edges).start();
    m.data.current = live({ notifications: { user: null, failing: [failure(9)], recent: [] } });
    m.fire(failedEvent(false));
    expect(f.log.filter((l) => l.startsWith('notify'))).toEqual([]);
    expect(f.icon()!.health).toBe('failing');
  });

  it('pauses and resumes polling, opens notification settings and toggles launch at login', async () => {
    const m = fakeMonitor();
    const f = shellFakes(m.monitor);
    const shell = new DesktopShell(f.edges);
    await shell.start();
    await shell.handleAction('pause-polling');
    expect(m.calls).toEqual(['pause']);
    expect(f.icon()!.tooltip).toMatch(/polling paused/);
    expect(f.menu().some((i) => i.action === 'resume-polling')).toBe(true);
    await shell.handleAction('resume-polling');
    expect(m.calls).toEqual(['pause', 'resume']);
    await shell.handleAction('open-settings');
    expect(f.loaded.at(-1)).toBe(`${URL}/settings#notifications`);
    await shell.handleAction('toggle-launch-at-login');
    expect(f.login()).toBe(true);
    expect(f.menu().find((i) => i.label === 'Launch at Login')!.checked).toBe(true);
    await shell.shutdown();
    expect(f.log).toContain('stopped');
  });
});

describe('window state, port choice and IPC sender checks', () => {
  it('restores saved bounds only when they are still on a display', () => {
    const saved: WindowState = {
      bounds: { x: 100, y: 80, width: 1200, height: 800 },
      maximized: true,
    };
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    expect(restoreWindowState(saved, screen, { width: 1360, height: 900 })).toEqual({
      bounds: saved.bounds,
      maximized: true,
    });
    const gone = { ...saved, bounds: { ...saved.bounds, x: 4000 } };
    expect(restoreWindowState(gone, screen, { width: 1360, height: 900 }).bounds).toEqual({
      width: 1200,
      height: 800,
    });
    expect(restoreWindowState({ junk: true }, screen, { width: 1360, height: 900 })).toEqual({
      bounds: { width: 1360, height: 900 },
      maximized: false,
    });
  });

  it('saves the window state when it settles and on close', () => {
    const listeners = new Map<string, () => void>();
    const saved: WindowState[] = [];
    const pending: (() => void)[] = [];
    trackWindowState(
      {
        getNormalBounds: () => ({ x: 1.4, y: 2, width: 1000, height: 700 }),
        isMaximized: () => false,
        on: (e, l) => listeners.set(e, l),
      },
      { get: () => undefined, set: (s) => void saved.push(s) },
      (fn) => {
        pending.push(fn);
        return () => pending.splice(pending.indexOf(fn), 1);
      },
    );
    listeners.get('move')!();
    listeners.get('resize')!();
    expect(pending).toHaveLength(1);
    pending[0]!();
    expect(saved).toEqual([{ bounds: { x: 1, y: 2, width: 1000, height: 700 }, maximized: false }]);
    listeners.get('close')!();
    expect(saved).toHaveLength(2);
  });

  it('asks for another port when the configured one is taken, and gives up when told to', async () => {
    const inUse = Object.assign(new Error('Port 5100 is already in use'), {
      cause: { code: 'EADDRINUSE' },
    });
    const starts: (number | undefined)[] = [];
    const edges = (answer: boolean) => ({
      start: async (port: number | undefined) => {
        starts.push(port);
        if (port === undefined) throw inUse;
        return `service on ${port}`;
      },
      isPortInUse: (err: unknown) => err === inUse,
      freePort: async () => 5123,
      ask: async (port: number | undefined, offered: number) => {
        expect([port, offered]).toEqual([5100, 5123]);
        return answer;
      },
      configuredPort: 5100,
    });
    await expect(startWithPortChoice(edges(true))).resolves.toBe('service on 5123');
    await expect(startWithPortChoice(edges(false))).rejects.toBe(inUse);
    expect(starts).toEqual([undefined, 5123, undefined]);
  });

  it('answers IPC only from frames on the service origin', () => {
    expect(isTrustedSender(`${URL}/settings`, URL)).toBe(true);
    expect(isTrustedSender('http://127.0.0.1:5101/', URL)).toBe(false);
    expect(isTrustedSender('https://gitlab.com/', URL)).toBe(false);
    expect(isTrustedSender(undefined, URL)).toBe(false);
    expect(isTrustedSender(`${URL}/`, null)).toBe(false);
  });
});
