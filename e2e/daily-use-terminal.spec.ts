// Issue 14 item 9: the terminal view in tmux at 80 columns, and `summary --json | head -1`.
// tmux sizes a detached session with `new-session -x/-y` and `capture-pane -p` prints what the pane
// shows (tmux(1), "new-session" and "capture-pane"); EPIPE is what write(2) returns once the
// reading end of a pipe is closed (pipe(7)).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CLI_BUNDLE as CLI, NODE } from './service.ts';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

test('summary --json | head -1 exits quietly instead of a stack trace', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'ps-epipe-'));
  const run = spawnSync(
    'bash',
    [
      '-c',
      `${quote(NODE)} ${quote(CLI)} summary --demo --json | head -1; echo "status=\${PIPESTATUS[0]}" >&2`,
    ],
    {
      env: { ...process.env, PIPELINE_SUMMARY_HOME: home, FORCE_COLOR: undefined },
      encoding: 'utf8',
    },
  );
  expect(run.stdout).toBe('{\n');
  expect(run.stderr).toBe('status=0\n');
});

test('summary fits an 80-column tmux pane without wrapping, names apart', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'ps-tmux-'));
  const session = `ps-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    '80',
    '-y',
    '50',
    `env PIPELINE_SUMMARY_HOME=${quote(home)} ${quote(NODE)} ${quote(CLI)} summary --demo; echo DONE; sleep 30`,
  );
  try {
    let screen = '';
    for (let i = 0; i < 100 && !screen.includes('DONE'); i++) {
      spawnSync('sleep', ['0.2']);
      screen = tmux('capture-pane', '-p', '-t', session);
    }
    expect(screen).toContain('DONE');
    const lines = screen.split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const header = lines.findIndex((l) => l.startsWith('PROJECT'));
    expect(header).toBeGreaterThan(0);
    expect(lines[header]).toMatch(
      /PROJECT\s+TOTAL\s+PASS\s+FAIL\s+RUN\s+RATE\s+AVG\s+LATEST\s+WHEN/,
    );
    // Every row is one line (a wrapped row would start with spaces or a number) and names differ.
    const rows = lines.slice(header + 1, lines.indexOf('', header + 1));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row).toMatch(/^\S+\s{2,}\d+\s{2,}\d+/);
    const names = rows.map((r) => r.split(/\s{2,}/)[0]);
    expect(new Set(names).size).toBe(names.length);
    expect(lines.some((l) => l.startsWith('Overall'))).toBe(true);
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
  }
});
