/**
 * The one typed IPC contract between the Electron main process and the preload script. Each channel
 * is one action the dashboard calls; the preload exposes one named function per channel and never
 * `ipcRenderer` itself. Main answers only frames loaded from the service's own origin.
 */
export interface IpcContract {
  /** The get-token profile names, for the dashboard's copy-token control. */
  'token:profiles': { args: []; result: string[] };
  /** Copies a fresh access token of a get-token profile to the clipboard (never returns it). */
  'token:copy': { args: [profile: string]; result: { ok: true } | { ok: false; error: string } };
}

/** Every IPC channel name. */
export type IpcChannel = keyof IpcContract;

/**
 * The API the preload exposes to the dashboard as `window.pipelineSummary` (its shape is repeated in
 * renderer/lib/desktop-bridge.ts, which may not import main/).
 */
export interface PreloadApi {
  listProfiles(): Promise<string[]>;
  copyToken(profile: string): Promise<IpcContract['token:copy']['result']>;
}

/** The channels, for runtime checks in main and preload. */
export const IPC_CHANNELS: readonly IpcChannel[] = ['token:profiles', 'token:copy'];
