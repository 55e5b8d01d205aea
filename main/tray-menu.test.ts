import { describe, expect, it } from 'vitest';
import { parseTrayAction, trayMenu } from './tray-menu.ts';
import { dashboardWindowOptions, isAppUrl, isExternalLink } from './window-options.ts';

describe('tray menu', () => {
  it('offers a copy-token entry per profile and round-trips its action', () => {
    const menu = trayMenu({
      serviceUrl: 'http://127.0.0.1:5100',
      profiles: ['default', 'prod api'],
    });
    const copy = menu.find((i) => i.label === 'Copy Token')!;
    expect(copy.submenu!.map((i) => i.action)).toEqual([
      'copy-token:default',
      'copy-token:prod api',
    ]);
    expect(parseTrayAction('copy-token:prod api')).toEqual({
      kind: 'copy-token',
      profile: 'prod api',
    });
    expect(parseTrayAction('copy-token:')).toBeNull();
    expect(parseTrayAction('rm -rf')).toBeNull();
  });

  it('tells a new user how to add a profile and disables the dashboard until the service is up', () => {
    const menu = trayMenu({ serviceUrl: null, profiles: [], problem: 'GitLab unreachable' });
    expect(menu[0]).toMatchObject({ label: 'Open Dashboard', enabled: false });
    expect(menu.some((i) => i.label === 'GitLab unreachable')).toBe(true);
    expect(menu.find((i) => i.label === 'Copy Token')!.submenu![0]!.label).toMatch(/profile add/);
  });
});

describe('window security', () => {
  it('isolates the renderer from Node', () => {
    const prefs = dashboardWindowOptions('/app/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
  });
  it('keeps navigation on the service origin and opens only http(s) links outside', () => {
    expect(isAppUrl('http://127.0.0.1:5100/pipelines/1/2', 'http://127.0.0.1:5100')).toBe(true);
    expect(isAppUrl('http://127.0.0.1:5101/', 'http://127.0.0.1:5100')).toBe(false);
    expect(isAppUrl('not a url', 'http://127.0.0.1:5100')).toBe(false);
    expect(isExternalLink('https://gitlab.com/acme/api/-/pipelines/1')).toBe(true);
    expect(isExternalLink('file:///etc/passwd')).toBe(false);
    expect(isExternalLink('javascript:alert(1)')).toBe(false);
  });
});
