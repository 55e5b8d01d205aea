/** A tray menu item, independent of Electron so the menu's logic is unit-tested. */
export interface TrayItem {
  label: string;
  enabled?: boolean;
  type?: 'normal' | 'separator' | 'submenu';
  submenu?: TrayItem[];
  /** The action id handled by the shell (e.g. `copy-token:default`). */
  action?: string;
}

/** What the tray shows. */
export interface TrayState {
  serviceUrl: string | null;
  /** get-token profile names, in display order. */
  profiles: string[];
  /** The last problem to show, if any (e.g. "GitLab unreachable"). */
  problem?: string | null;
}

/** Builds the tray menu: open the dashboard, copy a token per profile, quit. */
export function trayMenu(state: TrayState): TrayItem[] {
  const items: TrayItem[] = [
    { label: 'Open Dashboard', action: 'open-dashboard', enabled: state.serviceUrl !== null },
    {
      label: state.serviceUrl ? `Service: ${state.serviceUrl}` : 'Service: starting…',
      enabled: false,
    },
  ];
  if (state.problem) items.push({ label: state.problem, enabled: false });
  items.push({ label: '', type: 'separator' });
  items.push({
    label: 'Copy Token',
    type: 'submenu',
    submenu:
      state.profiles.length === 0
        ? [{ label: "No profiles — add one with 'pipeline-summary profile add'", enabled: false }]
        : state.profiles.map((name) => ({ label: name, action: `copy-token:${name}` })),
  });
  items.push({ label: '', type: 'separator' });
  items.push({ label: 'Quit Pipeline Summary', action: 'quit' });
  return items;
}

/** Parses a tray action id into what to do. */
export function parseTrayAction(
  action: string,
): { kind: 'open-dashboard' } | { kind: 'quit' } | { kind: 'copy-token'; profile: string } | null {
  if (action === 'open-dashboard') return { kind: 'open-dashboard' };
  if (action === 'quit') return { kind: 'quit' };
  if (action.startsWith('copy-token:') && action.length > 'copy-token:'.length) {
    return { kind: 'copy-token', profile: action.slice('copy-token:'.length) };
  }
  return null;
}
