/** A menu item as drawn (Electron template items and TrayItems both fit). */
export interface DrawnItem {
  label?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  submenu?: DrawnItem[];
}

/**
 * Draws a tray menu as text (docs/notifications.md's tray picture, from the bundle smoke test's
 * live model): the icon file and tooltip on top, disabled items in brackets, checkboxes as ☐/☑,
 * submenus as ▸.
 */
export function drawTrayMenu(items: DrawnItem[], tooltip: string, icon: string): string {
  const lines = items.map((item) => {
    if (item.type === 'separator') return null;
    const box = item.type === 'checkbox' ? (item.checked ? '☑ ' : '☐ ') : '';
    const label = `${box}${item.label ?? ''}${item.submenu ? '  ▸' : ''}`;
    return item.enabled === false ? `(${label})` : label;
  });
  const width = Math.max(...lines.map((l) => l?.length ?? 0), 20);
  const rule = '─'.repeat(width + 2);
  const out = [`[${icon}]  ${tooltip.replace(/\n/g, ' | ')}`, `┌${rule}┐`];
  for (const line of lines) out.push(line === null ? `├${rule}┤` : `│ ${line.padEnd(width)} │`);
  out.push(`└${rule}┘`);
  return out.join('\n');
}
