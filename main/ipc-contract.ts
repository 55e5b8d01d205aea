/**
 * The one typed IPC contract between the Electron main process and the preload script. Each channel
 * is one action the dashboard calls; the preload exposes one named function per channel and never
 * `ipcRenderer` itself. Main answers only frames loaded from the service's own origin.
 *
 * The dashboard type-checks this file in the browser project (tsconfig.web.json), so it stays pure
 * types and plain values: no Node or Electron import.
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
 * The API the preload exposes to the dashboard as `window.pipelineSummary`; the dashboard imports
 * this type (renderer/lib/desktop-bridge.ts).
 */
export interface PreloadApi {
  listProfiles(): Promise<string[]>;
  copyToken(profile: string): Promise<IpcContract['token:copy']['result']>;
}

/** The channels, for runtime checks in main and preload. */
export const IPC_CHANNELS: readonly IpcChannel[] = ['token:profiles', 'token:copy'];
