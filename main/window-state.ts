import { z } from 'zod';

/** A rectangle in screen coordinates (a window's bounds, a display's work area). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The remembered window: normal (un-maximised) bounds and whether it was maximised. */
export const WindowStateSchema = z.object({
  bounds: z.object({
    x: z.number().int(),
    y: z.number().int(),
    width: z.number().int().min(200).max(20_000),
    height: z.number().int().min(200).max(20_000),
  }),
  maximized: z.boolean(),
});

/** What is stored (electron-store's `window` key). */
export type WindowState = z.infer<typeof WindowStateSchema>;

/** Where the window state is kept; electron-store in the app, a Map in tests. */
export interface WindowStateStore {
  get(): unknown;
  set(state: WindowState): void;
}

/**
 * The bounds to open with: the saved ones when they are valid and at least partly on a display that
 * still exists (a disconnected monitor must not leave the window off-screen); otherwise the default
 * size, centred by the OS.
 */
export function restoreWindowState(
  saved: unknown,
  workAreas: Rect[],
  defaults: { width: number; height: number },
): { bounds: Partial<Rect> & { width: number; height: number }; maximized: boolean } {
  const parsed = WindowStateSchema.safeParse(saved);
  if (!parsed.success) return { bounds: { ...defaults }, maximized: false };
  const { bounds, maximized } = parsed.data;
  const visible = workAreas.some((area) => overlap(bounds, area) >= 100 * 100);
  if (!visible) return { bounds: { width: bounds.width, height: bounds.height }, maximized };
  return { bounds, maximized };
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The window as state tracking needs it. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
}

/** Saves the window's state when it settles after a move or resize (debounced) and on close. */
export function trackWindowState(
  win: TrackedWindow,
  store: WindowStateStore,
  schedule: (fn: () => void, ms: number) => () => void = (fn, ms) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
): void {
  let cancel: (() => void) | null = null;
  const save = () => {
    cancel = null;
    const b = win.getNormalBounds();
    store.set({
      bounds: {
        x: Math.round(b.x),
        y: Math.round(b.y),
        width: Math.round(b.width),
        height: Math.round(b.height),
      },
      maximized: win.isMaximized(),
    });
  };
  const later = () => {
    cancel?.();
    cancel = schedule(save, 400);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) win.on(event, later);
  win.on('close', () => {
    cancel?.();
    save();
  });
}
