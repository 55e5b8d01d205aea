import { EventEmitter } from 'node:events';

/** A menu item as main.ts hands it to `Menu.buildFromTemplate`. */
export interface FakeMenuItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  submenu?: FakeMenuItem[];
  click?: () => void;
}

/** Everything the fake `electron` module saw, for assertions. */
export interface ElectronRecord {
  windows: FakeBrowserWindow[];
  trays: FakeTray[];
  notifications: FakeNotification[];
  images: string[];
  dialogs: unknown[];
  clipboard: string[];
  handlers: Map<string, (event: unknown, ...args: unknown[]) => unknown>;
  permissionRequest: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null;
  permissionCheck: ((...args: unknown[]) => boolean) | null;
  exitCode: number | null;
  loginItem: boolean;
}

/** A BrowserWindow double: records options and loaded URLs. */
export class FakeBrowserWindow extends EventEmitter {
  readonly urls: string[] = [];
  destroyed = false;
  maximized = false;
  readonly webContents = Object.assign(new EventEmitter(), {
    setWindowOpenHandler: (_handler: unknown) => undefined,
  });
  constructor(readonly options: Record<string, unknown>) {
    super();
    queueMicrotask(() => this.emit('ready-to-show'));
  }
  loadURL(url: string): Promise<void> {
    this.urls.push(url);
    return Promise.resolve();
  }
  show(): void {}
  focus(): void {}
  restore(): void {}
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds() {
    return { x: 10, y: 20, width: 1200, height: 800 };
  }
}

/** A Tray double: the current image path, tooltip and menu template. */
export class FakeTray {
  tooltip = '';
  menu: FakeMenuItem[] = [];
  readonly imageHistory: string[] = [];
  constructor(image: { path: string }) {
    this.imageHistory.push(image.path);
  }
  get image(): string {
    return this.imageHistory.at(-1)!;
  }
  setImage(image: { path: string }): void {
    this.imageHistory.push(image.path);
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setContextMenu(menu: { template: FakeMenuItem[] }): void {
    this.menu = menu.template;
  }
}

/** A Notification double: shown ones are recorded; `click()` runs the app's handler. */
export class FakeNotification extends EventEmitter {
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show(): void {
    this.shown = true;
  }
  click(): void {
    this.emit('click');
  }
}

/**
 * A stand-in for the `electron` module, enough for dist/main/main.cjs and electron-store to run under
 * plain Node (https://www.electronjs.org/docs/latest/api/app and the pages of each class used).
 */
export function createFakeElectron(options: { userData: string }) {
  const record: ElectronRecord = {
    windows: [],
    trays: [],
    notifications: [],
    images: [],
    dialogs: [],
    clipboard: [],
    handlers: new Map(),
    permissionRequest: null,
    permissionCheck: null,
    exitCode: null,
    loginItem: false,
  };
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getPath: (_name: string) => options.userData,
    getVersion: () => '0.0.0-smoke',
    getLoginItemSettings: () => ({ openAtLogin: record.loginItem }),
    setLoginItemSettings: (s: { openAtLogin: boolean }) => void (record.loginItem = s.openAtLogin),
    /** Like Electron: `before-quit` listeners may call preventDefault; otherwise exit. */
    quit() {
      let prevented = false;
      app.emit('before-quit', { preventDefault: () => void (prevented = true) });
      if (!prevented) app.exit(0);
    },
    exit(code = 0) {
      record.exitCode = code;
      app.emit('exited', code);
    },
  });
  const electron = {
    app,
    BrowserWindow: class extends FakeBrowserWindow {
      constructor(o: Record<string, unknown>) {
        super(o);
        record.windows.push(this);
      }
    },
    Tray: class extends FakeTray {
      constructor(image: { path: string }) {
        super(image);
        record.trays.push(this);
      }
    },
    Notification: class extends FakeNotification {
      constructor(o: { title: string; body: string }) {
        super(o);
        record.notifications.push(this);
      }
    },
    Menu: { buildFromTemplate: (template: FakeMenuItem[]) => ({ template }) },
    nativeImage: {
      createFromPath: (p: string) => {
        record.images.push(p);
        return { path: p };
      },
    },
    nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false }),
    ipcMain: {
      handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) =>
        void record.handlers.set(channel, fn),
      on: () => undefined,
    },
    shell: { openExternal: async () => undefined, openPath: async () => '' },
    clipboard: { writeText: (text: string) => void record.clipboard.push(text) },
    dialog: {
      showMessageBox: async (o: unknown) => {
        record.dialogs.push(o);
        return { response: 0 };
      },
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: ElectronRecord['permissionRequest']) =>
          void (record.permissionRequest = fn),
        setPermissionCheckHandler: (fn: ElectronRecord['permissionCheck']) =>
          void (record.permissionCheck = fn),
      },
    },
  };
  return { electron, record, app };
}
