import type { TrayHealth } from './tray-menu.ts';

/** Every tray health state, in the order docs/notifications.md names them. */
export const TRAY_HEALTH_STATES: readonly TrayHealth[] = ['ok', 'failing', 'running', 'degraded'];

/**
 * The tray icon file (in assets/) for a health state and menu-bar theme: `dark` icons are drawn
 * light for dark menu bars. Electron picks the `@2x` sibling on high-density screens.
 */
export function trayIconFile(health: TrayHealth, darkMenu: boolean): string {
  return `tray-${health}-${darkMenu ? 'dark' : 'light'}.png`;
}

/** Every tray icon file the app loads (also what `npm run check:packaging` expects on disk). */
export function allTrayIconFiles(): string[] {
  return TRAY_HEALTH_STATES.flatMap((h) =>
    [false, true].flatMap((dark) => {
      const file = trayIconFile(h, dark);
      return [file, file.replace(/\.png$/, '@2x.png')];
    }),
  );
}
