import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The dashboard window's options: the renderer is an untrusted web page as far as Node goes
 * (contextIsolation and sandbox on, nodeIntegration off), with only the typed preload API.
 */
export function dashboardWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Pipeline Summary',
    backgroundColor: '#0f1115',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  };
}

/** Only the service's own pages may load in the window; everything else opens in the browser. */
export function isAppUrl(url: string, serviceUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(serviceUrl).origin;
  } catch {
    return false;
  }
}

/** Links we hand to the OS browser: http(s) only, never file:, javascript: or custom schemes. */
export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * True when an IPC call comes from a frame showing the service's own pages. Electron gives every
 * frame (an iframe, a page navigated elsewhere) the preload's channels, so each handler checks
 * `event.senderFrame.url` (https://www.electronjs.org/docs/latest/tutorial/security#17-validate-the-sender-of-all-ipc-messages).
 */
export function isTrustedSender(
  frameUrl: string | undefined | null,
  serviceUrl: string | null,
): boolean {
  if (!frameUrl || !serviceUrl) return false;
  return isAppUrl(frameUrl, serviceUrl);
}
