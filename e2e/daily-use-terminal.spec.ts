// Issue 14 item 9 and issue 30 items 4 and 10: the terminal view in tmux at 80 and 60 columns,
// `summary --json | head -1`, and `serve` without a group printing plain lines.
// tmux sizes a detached session with `new-session -x/-y` and `capture-pane -p` prints what the pane
// shows (tmux(1), "new-session" and "capture-pane"); EPIPE is what write(2) returns once the
// reading end of a pipe is closed (pipe(7)).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CLI_BUNDLE as CLI, NODE } from './service.ts';

// Each test's PIPELINE_SUMMARY_HOME, removed after the file's tests.
const made: string[] = [];
function tempHome(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ps-terminal-'));
  made.push(dir);
  return dir;
}
test.afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

test('summary --json | head -1 exits quietly instead of a stack trace', () => {
  const home = tempHome();
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

/** Runs `summary --demo` in a detached tmux pane `columns` wide and returns what the pane shows. */
function summaryInTmux(columns: number): string[] {
  const home = tempHome();
  const session = `ps-${process.pid}-${columns}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(columns),
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
    return screen.split('\n');
  } finally {
    spawnSync('tmux', ['kill-session', '-t', session]);
  }
}

/** The table's rows: from the header to the blank line after it. */
function tableRows(lines: string[]): { header: string; rows: string[] } {
  const header = lines.findIndex((l) => l.startsWith('PROJECT'));
  expect(header).toBeGreaterThan(0);
  return { header: lines[header]!, rows: lines.slice(header + 1, lines.indexOf('', header + 1)) };
}

test('summary fits an 80-column tmux pane without wrapping, names apart', () => {
  const lines = summaryInTmux(80);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  const { header, rows } = tableRows(lines);
  expect(header).toMatch(/PROJECT\s+TOTAL\s+PASS\s+FAIL\s+RUN\s+RATE\s+AVG\s+LATEST\s+WHEN/);
  // Every row is one line (a wrapped row would start with spaces or a number) and names differ.
  expect(rows.length).toBeGreaterThan(3);
  for (const row of rows) expect(row).toMatch(/^\S+\s{2,}\d+\s{2,}\d+/);
  const names = rows.map((r) => r.split(/\s{2,}/)[0]);
  expect(new Set(names).size).toBe(names.length);
  expect(lines.some((l) => l.startsWith('Overall'))).toBe(true);
});

test('summary at 60 columns drops columns instead of wrapping rows (issue 30, item 4)', () => {
  const lines = summaryInTmux(60);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  const { header, rows } = tableRows(lines);
  const titles = header.trim().split(/\s+/);
  expect(titles).toEqual(expect.arrayContaining(['PROJECT', 'FAIL', 'RATE', 'LATEST', 'WHEN']));
  // Before: `LATES`/`T` split over two lines and every row wrapped.
  expect(header).toMatch(/LATEST\s+WHEN$/);
  expect(rows.length).toBeGreaterThan(3);
  // One line per project, a value under every title (statuses are single words here).
  for (const row of rows) expect([row, row.split(/\s{2,}/).length]).toEqual([row, titles.length]);
  const names = rows.map((r) => r.split(/\s{2,}/)[0]);
  expect(new Set(names).size).toBe(names.length);
  expect(lines.some((l) => l.startsWith('Overall'))).toBe(true);
});

test('serve without a group prints its notes as plain lines, not JSON (issue 30, item 10)', () => {
  const home = tempHome();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PIPELINE_SUMMARY_HOME: home,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_RUNTIME_DIR: path.join(home, 'run'),
    GITLAB_GROUP: '',
    GITLAB_TOKEN: '',
  };
  // No session bus: the keychain is out of reach and secrets go to a file, with a note saying so.
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.PIPELINE_SUMMARY_SECRET_STORE;
  const run = spawnSync(NODE, [CLI, 'serve', '--port', '0', '--data-dir', home], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('No group to watch');
  expect(run.stderr).toMatch(/^note: no OS keychain reachable .*$/m);
  for (const line of run.stderr.trim().split('\n')) expect(line).not.toMatch(/^\{"level"/);
});
