import { describe, expect, it } from 'vitest';
import { parseWatchInterval, runWatch } from './watch.ts';

function harness(isTTY: boolean, stopAfterFrames: number) {
  const writes: string[] = [];
  const controller = new AbortController();
  let frames = 0;
  const sleeps: number[] = [];
  return {
    writes,
    sleeps,
    run: () =>
      runWatch({
        intervalMs: 3_000,
        out: { write: (t: string) => writes.push(t), isTTY },
        signal: controller.signal,
        frame: async () => {
          frames++;
          if (frames === 2) throw new Error('GitLab answered 502');
          return `frame ${frames}\nline 2\n`;
        },
        sleep: async (ms) => {
          sleeps.push(ms);
          if (frames >= stopAfterFrames && sleeps.length >= 3 * stopAfterFrames) controller.abort();
        },
      }),
  };
}

describe('runWatch', () => {
  it('repaints in place on a TTY with a countdown and keeps going after a failed refresh', async () => {
    const h = harness(true, 3);
    await h.run();
    const all = h.writes.join('');
    expect(all.startsWith('\x1b[?25l\x1b[2J\x1b[H')).toBe(true);
    expect(all).toContain('frame 1\x1b[K\nline 2\x1b[K\n\x1b[J');
    expect(all).toContain('Refreshing in 3s');
    expect(all).toContain('Refreshing in 1s');
    expect(all).toContain('Refresh failed: GitLab answered 502');
    expect(all).toContain('frame 3');
    expect(all.endsWith('\x1b[?25h')).toBe(true);
    expect(h.sleeps.every((ms) => ms === 1_000)).toBe(true);
  });

  it('prints plain frames without control codes when piped', async () => {
    const h = harness(false, 3);
    await h.run();
    const all = h.writes.join('');
    expect(all).not.toContain('\x1b');
    expect(all).toContain('frame 1\nline 2\n\nRefresh failed');
    expect(h.sleeps.every((ms) => ms === 3_000)).toBe(true);
  });
});

describe('parseWatchInterval', () => {
  it('accepts seconds, minutes and hours, at least 5 s', () => {
    expect(parseWatchInterval('30s')).toBe(30_000);
    expect(parseWatchInterval('2m')).toBe(120_000);
    expect(parseWatchInterval('45')).toBe(45_000);
    expect(() => parseWatchInterval('1s')).toThrow(/shortest is 5s/);
    expect(() => parseWatchInterval('soon')).toThrow(/Invalid --watch interval/);
  });
});
