// `npm run bench`: runs every suite in bench/*.bench.ts (or those named on the command line) and
// prints one table. Each figure is measured against a baseline from the same run, never against a
// fixed number of milliseconds, so the table means the same on a laptop and on CI.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(here))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

const rows: BenchRow[] = [];
for (const file of files) {
  process.stderr.write(`running ${file}…\n`);
  const mod = (await import(path.join(here, file))) as { run: BenchSuite };
  rows.push(...(await mod.run()));
}

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
