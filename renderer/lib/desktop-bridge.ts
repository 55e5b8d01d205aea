import type { PreloadApi } from '../../main/ipc-contract.ts';

/**
 * The desktop bridge when the dashboard runs inside the app, else null: what the preload exposes as
 * `window.pipelineSummary` (main/ipc-contract.ts `PreloadApi`). Absent in a browser.
 */
export function desktopBridge(): PreloadApi | null {
  const candidate = (globalThis as { pipelineSummary?: PreloadApi }).pipelineSummary;
  return candidate && typeof candidate.copyToken === 'function' ? candidate : null;
}
