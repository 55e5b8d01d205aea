import { parseTrayAction, trayMenu, type TrayItem } from './tray-menu.ts';

/** The dashboard window as the shell needs it. */
export interface WindowHandle {
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

/** The running service as the shell needs it. */
export interface ServiceHandle {
  url: string;
  stop(): Promise<void>;
}

/** Every edge of the desktop shell: Electron, the service and the token engine are injected. */
export interface ShellEdges {
  startService(): Promise<ServiceHandle & { notice?: string }>;
  createWindow(url: string): WindowHandle;
  setTrayMenu(items: TrayItem[], onAction: (action: string) => void): void;
  listProfiles(): Promise<string[]>;
  /** A valid access token for a profile (cached or refreshed by the shared token engine). */
  getToken(profile: string): Promise<string>;
  writeClipboard(text: string): void;
  notify(title: string, body: string): void;
  quit(): void;
}

/**
 * The desktop app's behaviour, free of Electron: start the service, open the dashboard, keep the
 * tray menu current, copy tokens, focus on a second launch, stop cleanly. main.ts only wires edges.
 */
export class DesktopShell {
  private service: ServiceHandle | null = null;
  private window: WindowHandle | null = null;
  private profiles: string[] = [];
  private problem: string | null = null;

  constructor(private readonly edges: ShellEdges) {}

  /** The service URL once started. */
  get serviceUrl(): string | null {
    return this.service?.url ?? null;
  }

  /** Starts the service, shows the tray and opens the dashboard. */
  async start(): Promise<void> {
    this.renderTray();
    try {
      const service = await this.edges.startService();
      this.service = service;
      if (service.notice) this.edges.notify('Pipeline Summary', service.notice);
    } catch (err) {
      this.problem = `Service failed: ${(err as Error).message}`;
      this.edges.notify('Pipeline Summary could not start', (err as Error).message);
      this.renderTray();
      return;
    }
    await this.refreshProfiles();
    this.openDashboard();
  }

  /** Re-reads the get-token profiles for the tray (after `profile add`, on menu open). */
  async refreshProfiles(): Promise<void> {
    try {
      this.profiles = await this.edges.listProfiles();
    } catch (err) {
      this.problem = `Profiles unreadable: ${(err as Error).message}`;
    }
    this.renderTray();
  }

  /** A second launch focuses the existing window instead of starting another service. */
  onSecondInstance(): void {
    this.openDashboard();
  }

  /** Handles a tray action id. */
  async handleAction(action: string): Promise<void> {
    const parsed = parseTrayAction(action);
    if (!parsed) return;
    if (parsed.kind === 'open-dashboard') this.openDashboard();
    else if (parsed.kind === 'quit') this.edges.quit();
    else await this.copyToken(parsed.profile);
  }

  /** Copies a profile's token to the clipboard; the result is for the IPC caller. */
  async copyToken(profile: string): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      const token = await this.edges.getToken(profile);
      this.edges.writeClipboard(token);
      this.edges.notify(
        'Token copied',
        `Access token for profile '${profile}' is on the clipboard.`,
      );
      return { ok: true };
    } catch (err) {
      const error = (err as Error).message;
      this.edges.notify(`No token for '${profile}'`, error);
      return { ok: false, error };
    }
  }

  /** Stops the service (window and tray go with the app). */
  async shutdown(): Promise<void> {
    const service = this.service;
    this.service = null;
    await service?.stop();
  }

  private openDashboard(): void {
    if (!this.service) return;
    if (!this.window || this.window.isDestroyed()) {
      this.window = this.edges.createWindow(this.service.url);
      this.window.show();
      return;
    }
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  private renderTray(): void {
    this.edges.setTrayMenu(
      trayMenu({ serviceUrl: this.serviceUrl, profiles: this.profiles, problem: this.problem }),
      (action) => {
        void this.handleAction(action);
      },
    );
  }
}
