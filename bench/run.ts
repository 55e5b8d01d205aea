// `npm run bench`: runs every suite in bench/*.bench.ts (or those named on the command line) and
// prints one table. Each figure is measured against a baseline from the same run, never against a
// fixed number of milliseconds, so the table means the same on a laptop and on CI.
import { fork } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHILD_FLAG = '--suite-in-child';

// Each suite runs in its own process: a suite that leaves a large heap behind (the AI suite holds
// the real-log corpus) slowed the next suite's allocation-heavy side more than its baseline, and
// moved the GitLab client's ratio from 0.9× alone to 0.6× in the full run.
if (process.argv[2] === CHILD_FLAG) {
  const mod = (await import(path.join(here, process.argv[3]!))) as { run: BenchSuite };
  const rows = await mod.run();
  process.send!(rows, () => process.exit(0));
} else {
  await runAll();
}

function runSuite(file: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, file], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let rows: BenchRow[] | undefined;
    child.on('message', (m) => (rows = m as BenchRow[]));
    child.on('error', reject);
    child.on('exit', (code) =>
      rows ? resolve(rows) : reject(new Error(`${file} exited with ${code} before reporting`)),
    );
  });
}

async function runAll(): Promise<void> {
  const wanted = process.argv.slice(2);
  const files = (await readdir(here))
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
    .sort();

  const rows: BenchRow[] = [];
  for (const file of files) {
    process.stderr.write(`running ${file}…\n`);
    rows.push(...(await runSuite(file)));
  }
  printTable(rows);
}

function printTable(rows: BenchRow[]): void {
  const header: BenchRow = {
    name: 'benchmark',
    value: 'measured',
    baseline: 'baseline (same run)',
    target: 'target',
    ok: true,
  };
  const cols = (r: BenchRow) => [
    r.name,
    r.value,
    r.baseline,
    r.target,
    r === header ? 'ok?' : r.ok ? 'yes' : 'NO',
  ];
  const widths = cols(header).map((_, i) =>
    Math.max(...[header, ...rows].map((r) => cols(r)[i]!.length)),
  );
  const line = (r: BenchRow) =>
    '| ' +
    cols(r)
      .map((c, i) => c.padEnd(widths[i]!))
      .join(' | ') +
    ' |';
  console.log(line(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of rows) console.log(line(row));
  const missed = rows.filter((r) => !r.ok).length;
  console.log(`\n${rows.length - missed} of ${rows.length} targets met`);
}
