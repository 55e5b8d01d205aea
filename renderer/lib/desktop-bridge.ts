/**
 * What the desktop app's preload exposes as `window.pipelineSummary` (main/ipc-contract.ts
 * `PreloadApi`; repeated here because the renderer may not import main/). Absent in a browser.
 */
export interface DesktopBridge {
  listProfiles(): Promise<string[]>;
  copyToken(profile: string): Promise<{ ok: true } | { ok: false; error: string }>;
}

/** The desktop bridge when the dashboard runs inside the app, else null. */
export function desktopBridge(): DesktopBridge | null {
  const candidate = (globalThis as { pipelineSummary?: DesktopBridge }).pipelineSummary;
  return candidate && typeof candidate.copyToken === 'function' ? candidate : null;
}
