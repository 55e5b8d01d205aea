import { describe, expect, it } from 'vitest';
import { DesktopShell, type ShellEdges, type WindowHandle } from './desktop-shell.ts';
import type { TrayItem } from './tray-menu.ts';

function fakes(overrides: Partial<ShellEdges> = {}) {
  const log: string[] = [];
  let menu: TrayItem[] = [];
  let onAction: (a: string) => void = () => undefined;
  const windows: (WindowHandle & { focused: number; destroyed: boolean })[] = [];
  const clipboard: string[] = [];
  const edges: ShellEdges = {
    startService: async () => ({
      url: 'http://127.0.0.1:5100',
      stop: async () => void log.push('service stopped'),
    }),
    createWindow: (url) => {
      log.push(`window ${url}`);
      const w = {
        focused: 0,
        destroyed: false,
        show: () => undefined,
        focus: () => void w.focused++,
        restore: () => undefined,
        isMinimized: () => false,
        isDestroyed: () => w.destroyed,
      };
      windows.push(w);
      return w;
    },
    setTrayMenu: (items, handler) => {
      menu = items;
      onAction = handler;
    },
    listProfiles: async () => ['default', 'ci'],
    getToken: async (profile) => `token-for-${profile}`,
    writeClipboard: (text) => void clipboard.push(text),
    notify: (title, body) => void log.push(`notify ${title}: ${body}`),
    quit: () => void log.push('quit'),
    ...overrides,
  };
  return { edges, log, windows, clipboard, menu: () => menu, click: (a: string) => onAction(a) };
}

describe('DesktopShell', () => {
  it('starts the service, opens the dashboard and lists profiles in the tray', async () => {
    const f = fakes();
    const shell = new DesktopShell(f.edges);
    await shell.start();
    expect(f.log).toContain('window http://127.0.0.1:5100');
    const copy = f.menu().find((i) => i.label === 'Copy Token')!;
    expect(copy.submenu!.map((i) => i.label)).toEqual(['default', 'ci']);
  });

  it('copies a token from the tray without ever showing it in a notification', async () => {
    const f = fakes();
    const shell = new DesktopShell(f.edges);
    await shell.start();
    await shell.handleAction('copy-token:ci');
    expect(f.clipboard).toEqual(['token-for-ci']);
    expect(f.log.join('\n')).not.toContain('token-for-ci');
  });

  it('reports a token failure plainly', async () => {
    const f = fakes({ getToken: async () => Promise.reject(new Error("Profile 'x' not found")) });
    const shell = new DesktopShell(f.edges);
    await shell.start();
    expect(await shell.copyToken('x')).toEqual({ ok: false, error: "Profile 'x' not found" });
    expect(f.clipboard).toEqual([]);
  });

  it('focuses the existing window on a second launch and reopens a closed one', async () => {
    const f = fakes();
    const shell = new DesktopShell(f.edges);
    await shell.start();
    shell.onSecondInstance();
    expect(f.windows).toHaveLength(1);
    expect(f.windows[0]!.focused).toBe(1);
    f.windows[0]!.destroyed = true;
    shell.onSecondInstance();
    expect(f.windows).toHaveLength(2);
  });

  it('shows a service failure in the tray instead of a window, and stops the service on quit', async () => {
    const failing = fakes({
      startService: async () => Promise.reject(new Error('Port 5100 is already in use')),
    });
    await new DesktopShell(failing.edges).start();
    expect(failing.windows).toHaveLength(0);
    expect(failing.menu().some((i) => i.label.includes('Port 5100 is already in use'))).toBe(true);

    const f = fakes();
    const shell = new DesktopShell(f.edges);
    await shell.start();
    f.click('quit');
    await shell.shutdown();
    expect(f.log).toEqual(expect.arrayContaining(['quit', 'service stopped']));
  });
});
