// Electron main process: wires Electron, the service (server/) and the token engine (cli/token/)
// into DesktopShell. No business logic lives here; see desktop-shell.ts.
import path from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  shell,
  Tray,
  type MenuItemConstructorOptions,
} from 'electron';
import { isAppError } from '../server/platform/errors.ts';
import { createLogger } from '../server/platform/logger.ts';
import { startFromConfig } from '../server/start.ts';
import { resolveServeConfig } from '../cli/commands/serve.ts';
import { DesktopShell } from './desktop-shell.ts';
import type { IpcContract } from './ipc-contract.ts';
import type { TrayItem } from './tray-menu.ts';
import { dashboardWindowOptions, isAppUrl, isExternalLink } from './window-options.ts';

const resources = app.isPackaged ? process.resourcesPath : path.join(__dirname, '../../assets');
const logger = createLogger();
let tray: Tray | null = null;

function toMenu(
  items: TrayItem[],
  onAction: (action: string) => void,
): MenuItemConstructorOptions[] {
  return items.map((item) =>
    item.type === 'separator'
      ? { type: 'separator' }
      : {
          label: item.label,
          enabled: item.enabled ?? true,
          ...(item.submenu ? { submenu: toMenu(item.submenu, onAction) } : {}),
          ...(item.action ? { click: () => onAction(item.action!) } : {}),
        },
  );
}

async function startService() {
  const env = process.env;
  const config = resolveServeConfig([], env);
  if (config === 'help') throw new Error('unreachable');
  const dashboardDir = path.join(__dirname, '../renderer');
  const { openSecretStore } = await import('../server/platform/os-secret-store.ts');
  const secretStore = await openSecretStore({ warn: (line) => logger.warn(line) });
  try {
    return await startFromConfig(config, { logger, env, dashboardDir, secretStore });
  } catch (err) {
    // Not configured yet (no group or token): show the demo rather than an empty window.
    if (isAppError(err, 'bad_request', 'unauthorized') && !/Port/.test((err as Error).message)) {
      const service = await startFromConfig(
        { ...config, demo: true, group: undefined, dataDir: path.join(config.dataDir, 'demo') },
        { logger, env, dashboardDir },
      );
      return Object.assign(service, { notice: `Showing demo data: ${(err as Error).message}` });
    }
    throw err;
  }
}

const desktop = new DesktopShell({
  startService,
  createWindow(url) {
    const win = new BrowserWindow(dashboardWindowOptions(path.join(__dirname, 'preload.cjs')));
    win.once('ready-to-show', () => win.show());
    win.webContents.setWindowOpenHandler(({ url: target }) => {
      if (isExternalLink(target)) void shell.openExternal(target);
      return { action: 'deny' };
    });
    win.webContents.on('will-navigate', (event, target) => {
      if (!isAppUrl(target, url)) {
        event.preventDefault();
        if (isExternalLink(target)) void shell.openExternal(target);
      }
    });
    void win.loadURL(url);
    return win;
  },
  setTrayMenu(items, onAction) {
    if (!tray) {
      tray = new Tray(nativeImage.createFromPath(path.join(resources, 'tray.png')));
      tray.setToolTip('Pipeline Summary');
    }
    tray.setContextMenu(Menu.buildFromTemplate(toMenu(items, onAction)));
  },
  async listProfiles() {
    const { listProfiles } = await import('../cli/token/index.ts');
    return (await listProfiles()).map((p) => p.name);
  },
  async getToken(profile) {
    const { getToken } = await import('../cli/token/index.ts');
    // Interactive flows would need a browser prompt from the tray; the engine opens the system browser.
    return (await getToken({ profile })).response.access_token;
  },
  writeClipboard: (text) => clipboard.writeText(text),
  notify: (title, body) => new Notification({ title, body }).show(),
  quit: () => app.quit(),
});

function handle<C extends keyof IpcContract>(
  channel: C,
  fn: (
    ...args: IpcContract[C]['args']
  ) => Promise<IpcContract[C]['result']> | IpcContract[C]['result'],
) {
  ipcMain.handle(channel, (_event, ...args) => fn(...(args as IpcContract[C]['args'])));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => desktop.onSecondInstance());
  app.on('window-all-closed', () => {
    // The tray keeps the app (and the service) running; quit from the tray.
  });
  app.on('before-quit', (event) => {
    if (desktop.serviceUrl) {
      event.preventDefault();
      void desktop.shutdown().finally(() => app.exit(0));
    }
  });
  handle('service:url', () => desktop.serviceUrl ?? '');
  handle('shell:open-external', async (url) => {
    if (isExternalLink(url)) await shell.openExternal(url);
  });
  handle('token:copy', (profile) => desktop.copyToken(String(profile)));
  void app.whenReady().then(() => desktop.start());
}
