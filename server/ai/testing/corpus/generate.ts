// Regenerates the corpus `.log` files from cases.ts: `npx tsx server/ai/testing/corpus/generate.ts`.
// The files are committed so the corpus is reviewable as plain logs and stable across changes to
// the filler generators.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './cases.ts';
import { renderCase } from './runner-log.ts';

const dir = path.dirname(fileURLToPath(import.meta.url));
CASES.forEach((c, i) => {
  writeFileSync(path.join(dir, `${c.name}.log`), renderCase(c, i + 1));
});
process.stdout.write(`wrote ${CASES.length} logs to ${dir}\n`);
