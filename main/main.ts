// Electron main process: wires Electron, the service (server/) and the token engine (cli/oauth/)
// into DesktopShell. No business logic lives here; see desktop-shell.ts and tray-menu.ts.
import net from 'node:net';
import path from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  nativeTheme,
  Notification,
  screen,
  session,
  shell,
  Tray,
  type MenuItemConstructorOptions,
} from 'electron';
import ElectronStore from 'electron-store';
import { isPortInUse } from '../server/http/listen.ts';
import { isAppError } from '../server/platform/errors.ts';
import { createLogger } from '../server/platform/logger.ts';
import { limitHeapGrowth } from '../server/platform/heap-growth.ts';
import { composeService } from '../server/compose.ts';
import { resolveServeConfig } from '../server/config.ts';
import { DesktopShell } from './desktop-shell.ts';
import type { IpcContract } from './ipc-contract.ts';
import { startWithPortChoice } from './port-choice.ts';
import { serviceMonitor } from './service-monitor.ts';
import { trayIconFile } from './tray-icons.ts';
import type { TrayHealth, TrayItem } from './tray-menu.ts';
import {
  dashboardWindowOptions,
  isAppUrl,
  isExternalLink,
  isTrustedSender,
} from './window-options.ts';
import { restoreWindowState, trackWindowState, type WindowState } from './window-state.ts';

const resources = app.isPackaged
  ? path.join(process.resourcesPath, 'assets')
  : path.join(__dirname, '../../assets');
const logger = createLogger();
let tray: Tray | null = null;
let trayHealth: TrayHealth = 'degraded';

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
          ...(item.type === 'checkbox' ? { type: 'checkbox', checked: item.checked ?? false } : {}),
          ...(item.submenu ? { submenu: toMenu(item.submenu, onAction) } : {}),
          ...(item.action ? { click: () => onAction(item.action!) } : {}),
        },
  );
}

function trayImage(health: TrayHealth) {
  return nativeImage.createFromPath(
    path.join(resources, trayIconFile(health, nativeTheme.shouldUseDarkColors)),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startService() {
  // Before the service allocates: its heap is large and stable (see heap-growth.ts).
  limitHeapGrowth();
  const env = process.env;
  const config = resolveServeConfig({}, env);
  const dashboardDir = path.join(__dirname, '../renderer');
  const { openSecretStore } = await import('../server/platform/os-secret-store.ts');
  const secretStore = await openSecretStore({ warn: (line) => logger.warn(line) });
  const start = (port: number | undefined) =>
    composeService(
      { ...config, port: port ?? config.port },
      { logger, env, dashboardDir, secretStore },
    );
  try {
    const service = await startWithPortChoice({
      start,
      isPortInUse,
      freePort,
      configuredPort: config.port,
      ask: async (port, offered) => {
        const { response } = await dialog.showMessageBox({
          type: 'warning',
          buttons: [`Use port ${offered}`, 'Quit'],
          defaultId: 0,
          cancelId: 1,
          message: `Port ${port} is in use by another program`,
          detail: `Pipeline Summary can start on port ${offered} instead (set PORT to choose one for good).`,
        });
        return response === 0;
      },
    });
    return Object.assign(service, { monitor: serviceMonitor(service) });
  } catch (err) {
    // Not configured yet (no group or token) or a token GitLab rejects: show the demo rather than
    // an empty window. Decided on the error's code; a port in use is not a reason for the demo.
    if (isAppError(err, 'not_configured', 'unauthorized')) {
      const service = await composeService(
        {
          ...config,
          demo: true,
          group: undefined,
          dataDir: path.join(config.dataDir, 'demo'),
        },
        { logger, env, dashboardDir },
      );
      return Object.assign(service, {
        monitor: serviceMonitor(service),
        notice: `Showing demo data: ${(err as Error).message}`,
      });
    }
    throw err;
  }
}

let windowStore: ElectronStore<{ window?: WindowState }> | null = null;

const desktop = new DesktopShell({
  startService,
  createWindow(url) {
    windowStore ??= new ElectronStore<{ window?: WindowState }>({ name: 'window-state' });
    const store = windowStore;
    const options = dashboardWindowOptions(path.join(__dirname, 'preload.cjs'));
    const restored = restoreWindowState(
      store.get('window'),
      screen.getAllDisplays().map((d) => d.workArea),
      { width: options.width ?? 1360, height: options.height ?? 900 },
    );
    const win = new BrowserWindow({ ...options, ...restored.bounds });
    if (restored.maximized) win.maximize();
    trackWindowState(win, { get: () => store.get('window'), set: (s) => store.set('window', s) });
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
      tray = new Tray(trayImage(trayHealth));
      tray.setToolTip('Pipeline Summary');
    }
    tray.setContextMenu(Menu.buildFromTemplate(toMenu(items, onAction)));
  },
  setTrayIcon(health, tooltip) {
    if (!tray) tray = new Tray(trayImage(health));
    else if (health !== trayHealth) tray.setImage(trayImage(health));
    trayHealth = health;
    tray.setToolTip(tooltip);
  },
  async listProfiles() {
    const { listProfiles } = await import('../cli/oauth/index.ts');
    return (await listProfiles()).map((p) => p.name);
  },
  async getToken(profile) {
    const { getToken } = await import('../cli/oauth/index.ts');
    // Interactive flows would need a browser prompt from the tray; the engine opens the system browser.
    return (await getToken({ profile })).response.access_token;
  },
  writeClipboard: (text) => clipboard.writeText(text),
  notify: (title, body, onClick) => {
    const notification = new Notification({ title, body });
    if (onClick) notification.on('click', onClick);
    notification.show();
  },
  loginItem: {
    get: () => app.getLoginItemSettings().openAtLogin,
    set: (openAtLogin) => app.setLoginItemSettings({ openAtLogin }),
  },
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    return () => clearInterval(timer);
  },
  quit: () => app.quit(),
});

/** Registers a handler that answers only the service's own pages (never an iframe or a stray page). */
function handle<C extends keyof IpcContract>(
  channel: C,
  fn: (
    ...args: IpcContract[C]['args']
  ) => Promise<IpcContract[C]['result']> | IpcContract[C]['result'],
) {
  ipcMain.handle(channel, (event, ...args) => {
    if (!isTrustedSender(event.senderFrame?.url, desktop.serviceUrl)) {
      logger.warn(
        { channel, url: event.senderFrame?.url },
        'IPC refused: sender is not the dashboard',
      );
      throw new Error(`IPC '${channel}' refused: not the dashboard`);
    }
    return fn(...(args as IpcContract[C]['args']));
  });
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
  handle('token:profiles', () => desktop.listProfiles());
  handle('token:copy', (profile) => desktop.copyToken(String(profile)));
  nativeTheme.on('updated', () => tray?.setImage(trayImage(trayHealth)));
  void app.whenReady().then(() => {
    // The dashboard needs no camera, microphone, geolocation or notification permission: the app
    // notifies natively. Deny every request and every check.
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
      callback(false),
    );
    session.defaultSession.setPermissionCheckHandler(() => false);
    return desktop.start();
  });
}
