/** Time-window words for the views. The window rule itself is the service's (GET /api/settings/since). */

/** Presets offered in Settings; each is a window the service accepts. */
export const SINCE_PRESETS = ['1h', '6h', '12h', '1d', '3d', '7d', '14d', '30d'] as const;

/** `7d` → `7 days`, `1h` → `1 hour`. */
export function describeSince(since: string): string {
  const match = /^(\d+)([mhdw])$/.exec(since);
  if (!match) return since;
  const n = Number(match[1]);
  const unit = { m: 'minute', h: 'hour', d: 'day', w: 'week' }[match[2] as 'm' | 'h' | 'd' | 'w'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
