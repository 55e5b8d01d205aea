/** Where the watch loop writes: stdout in production, a buffer in tests. */
export interface WatchOutput {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Options of the `--watch` loop. */
export interface WatchOptions {
  intervalMs: number;
  /** Produces the next frame (fetches and renders); a thrown error is shown and the loop goes on. */
  frame: () => Promise<string>;
  out: WatchOutput;
  signal: AbortSignal;
  /** Waits `ms` or until aborted; injected so tests need no real time. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Countdown tick (default 1 s). */
  tickMs?: number;
}

const ESC = '\x1b[';

/** Parses `--watch` intervals: `30s`, `2m`, `1h`, or plain seconds; at least 5 s. */
export function parseWatchInterval(text: string): number {
  const m = /^([1-9][0-9]*)(s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`Invalid --watch interval '${text}': use seconds, e.g. 30s, 2m or 1h`);
  const ms = Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 's' | 'm' | 'h'];
  if (ms < 5_000) throw new Error(`Invalid --watch interval '${text}': the shortest is 5s`);
  return ms;
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Redraws a frame every `intervalMs` until aborted. On a TTY it repaints in place (cursor home, each
 * line cleared, rest of screen cleared) with a live countdown on the last line; when piped it
 * prints each frame once, separated by a blank line, with no control codes.
 */
export async function runWatch(options: WatchOptions): Promise<void> {
  const { out, signal, intervalMs } = options;
  const sleep = options.sleep ?? defaultSleep;
  const tick = options.tickMs ?? 1_000;
  const tty = out.isTTY === true;
  let first = true;
  if (tty) out.write(`${ESC}?25l`); // hide the cursor while repainting
  try {
    while (!signal.aborted) {
      let text: string;
      try {
        text = await options.frame();
      } catch (err) {
        text = `Refresh failed: ${err instanceof Error ? err.message : String(err)}\n`;
      }
      if (signal.aborted) break;
      if (tty) {
        out.write(
          (first ? `${ESC}2J` : '') + `${ESC}H` + text.replace(/\n/g, `${ESC}K\n`) + `${ESC}J`,
        );
      } else {
        out.write((first ? '' : '\n') + text);
      }
      first = false;
      if (!tty) {
        await sleep(intervalMs, signal);
        continue;
      }
      for (let left = intervalMs; left > 0 && !signal.aborted; left -= tick) {
        out.write(
          `\r${ESC}2mRefreshing in ${Math.ceil(left / 1000)}s · Ctrl+C to quit${ESC}0m${ESC}K`,
        );
        await sleep(Math.min(tick, left), signal);
      }
      if (!signal.aborted) out.write(`\r${ESC}2mRefreshing…${ESC}0m${ESC}K`);
    }
  } finally {
    if (tty) out.write(`\r${ESC}K${ESC}?25h`);
  }
}
