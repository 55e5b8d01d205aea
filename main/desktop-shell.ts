import type { PipelineEvent } from '../server/contract.ts';
import {
  failurePath,
  parseTrayAction,
  trayHealth,
  trayMenu,
  trayTooltip,
  type TrayHealth,
  type TrayItem,
  type TrayLiveData,
  type TrayState,
} from './tray-menu.ts';

/** The dashboard window as the shell needs it. */
export interface WindowHandle {
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  /** Navigates the window (to a pipeline, to the settings). */
  loadURL?(url: string): unknown;
}

/** What the running service tells the tray, in process (no HTTP round trip). */
export interface ServiceMonitor {
  /** Health, counts and the failures that matter, now. */
  live(): TrayLiveData;
  /** Subscribes to `pipeline-failed` / `pipeline-fixed`; returns the unsubscribe function. */
  onEvent(listener: (event: PipelineEvent) => void): () => void;
  /** Stops polling GitLab until `resume` (the last summary stays on screen). */
  pause(): Promise<void>;
  resume(): void;
}

/** The running service as the shell needs it. */
export interface ServiceHandle {
  url: string;
  stop(): Promise<void>;
  monitor?: ServiceMonitor;
}

/** Every edge of the desktop shell: Electron, the service and the token engine are injected. */
export interface ShellEdges {
  startService(): Promise<ServiceHandle & { notice?: string }>;
  createWindow(url: string): WindowHandle;
  setTrayMenu(items: TrayItem[], onAction: (action: string) => void): void;
  /** Sets the tray icon for a health state and the tooltip. */
  setTrayIcon?(health: TrayHealth, tooltip: string): void;
  listProfiles(): Promise<string[]>;
  /** A valid access token for a profile (cached or refreshed by the shared token engine). */
  getToken(profile: string): Promise<string>;
  writeClipboard(text: string): void;
  /** A native notification; `onClick` runs when the user clicks it. */
  notify(title: string, body: string, onClick?: () => void): void;
  /** Launch at login (the OS login items). */
  loginItem?: { get(): boolean; set(open: boolean): void };
  /** Runs `fn` every `ms` until the returned function is called (the tray's refresh). */
  every?(ms: number, fn: () => void): () => void;
  quit(): void;
}

/** How often the tray re-reads the service's live data between events. */
const TRAY_REFRESH_MS = 5_000;

/**
 * The desktop app's behaviour, free of Electron: start the service, open the dashboard, keep the
 * tray icon, tooltip and menu current, notify failures that matter, copy tokens, focus on a second
 * launch, stop cleanly. main.ts only wires edges.
 */
export class DesktopShell {
  private service: ServiceHandle | null = null;
  private window: WindowHandle | null = null;
  private profiles: string[] = [];
  private problem: string | null = null;
  private paused = false;
  private cleanups: (() => void)[] = [];

  constructor(private readonly edges: ShellEdges) {}

  /** The service URL once started. */
  get serviceUrl(): string | null {
    return this.service?.url ?? null;
  }

  /** What the tray shows now (read by the smoke test and docs/notifications.md's drawing too). */
  trayState(): TrayState {
    let live: TrayLiveData | null;
    try {
      live = this.service?.monitor?.live() ?? null;
    } catch {
      // The service is stopping; the tray shows it as degraded.
      live = null;
    }
    return {
      serviceUrl: this.serviceUrl,
      profiles: this.profiles,
      problem: this.problem,
      live,
      paused: this.paused,
      launchAtLogin: this.edges.loginItem?.get() ?? false,
    };
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
    const monitor = this.service.monitor;
    if (monitor) {
      this.cleanups.push(monitor.onEvent((event) => this.onPipelineEvent(event)));
      if (this.edges.every)
        this.cleanups.push(this.edges.every(TRAY_REFRESH_MS, () => this.renderTray()));
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
    switch (parsed.kind) {
      case 'open-dashboard':
        this.openDashboard();
        break;
      case 'quit':
        this.edges.quit();
        break;
      case 'copy-token':
        await this.copyToken(parsed.profile);
        break;
      case 'open-failure':
        this.openDashboard(failurePath(parsed.projectId, parsed.pipelineId, parsed.jobId));
        break;
      case 'open-settings':
        this.openDashboard('/settings#notifications');
        break;
      case 'pause-polling':
        this.paused = true;
        await this.service?.monitor?.pause();
        break;
      case 'resume-polling':
        this.paused = false;
        this.service?.monitor?.resume();
        break;
      case 'toggle-launch-at-login':
        this.edges.loginItem?.set(!this.edges.loginItem.get());
        break;
    }
    this.renderTray();
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

  /** The get-token profile names (for the dashboard's copy-token control). */
  async listProfiles(): Promise<string[]> {
    await this.refreshProfiles();
    return this.profiles;
  }

  /** Stops the service (window and tray go with the app). */
  async shutdown(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    const service = this.service;
    this.service = null;
    await service?.stop();
  }

  private onPipelineEvent(event: PipelineEvent): void {
    this.renderTray();
    if (!event.notify) return;
    const first = event.pipelines[0];
    const path =
      first && !event.coalesced
        ? failurePath(first.project_id, first.pipeline_id, first.failed_jobs[0]?.id ?? null)
        : '/';
    this.edges.notify(event.title, event.body, () => this.openDashboard(path));
  }

  private openDashboard(path = ''): void {
    if (!this.service) return;
    const url = `${this.service.url}${path}`;
    if (!this.window || this.window.isDestroyed()) {
      this.window = this.edges.createWindow(url);
      this.window.show();
      return;
    }
    if (path) this.window.loadURL?.(url);
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  private renderTray(): void {
    const state = this.trayState();
    this.edges.setTrayIcon?.(trayHealth(state), trayTooltip(state));
    this.edges.setTrayMenu(trayMenu(state), (action) => {
      void this.handleAction(action);
    });
  }
}
