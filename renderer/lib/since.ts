/** The time-window rules the service applies (DESIGN §3.1), mirrored so the form can say why at once. */

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const MAX_WINDOW_MS = 366 * UNIT_MS.d;

/** Presets offered in Settings. */
export const SINCE_PRESETS = ['1h', '6h', '12h', '1d', '3d', '7d', '14d', '30d'] as const;

/** Milliseconds of a window such as `7d`, or an error message a user can act on. */
export function parseSince(since: string): { ok: true; ms: number } | { ok: false; error: string } {
  const match = /^([1-9][0-9]{0,5})([mhdw])$/.exec(since.trim());
  if (!match) {
    return {
      ok: false,
      error: 'Use a positive whole number followed by m, h, d or w (for example 30m, 12h, 7d, 2w).',
    };
  }
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms > MAX_WINDOW_MS) return { ok: false, error: 'The longest window is 366d.' };
  return { ok: true, ms };
}

/** `7d` → `7 days`, `1h` → `1 hour`. */
export function describeSince(since: string): string {
  const match = /^(\d+)([mhdw])$/.exec(since);
  if (!match) return since;
  const n = Number(match[1]);
  const unit = { m: 'minute', h: 'hour', d: 'day', w: 'week' }[match[2] as 'm' | 'h' | 'd' | 'w'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
