/**
 * The one typed IPC contract between the Electron main process and the preload script. Each channel
 * is one action; the preload exposes one named function per channel and never `ipcRenderer` itself.
 */
export interface IpcContract {
  /** The service's base URL (the window loads the dashboard from it). */
  'service:url': { args: []; result: string };
  /** Opens a GitLab (or any http/https) link in the default browser, not in the app window. */
  'shell:open-external': { args: [url: string]; result: void };
  /** Copies a fresh access token of a get-token profile to the clipboard. */
  'token:copy': { args: [profile: string]; result: { ok: true } | { ok: false; error: string } };
}

/** Every IPC channel name. */
export type IpcChannel = keyof IpcContract;

/** The API the preload exposes to the dashboard as `window.pipelineSummary`. */
export interface PreloadApi {
  serviceUrl(): Promise<string>;
  openExternal(url: string): Promise<void>;
  copyToken(profile: string): Promise<IpcContract['token:copy']['result']>;
}

/** The channels, for runtime checks in main and preload. */
export const IPC_CHANNELS: readonly IpcChannel[] = [
  'service:url',
  'shell:open-external',
  'token:copy',
];
