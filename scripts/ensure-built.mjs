// Runs `npm run build` first when dist/ is missing or older than the sources, so
// `npm run serve -- <flags>` works straight after `npm ci`.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const state = buildState(root);
if (state !== 'current') {
  console.error(
    state === 'never'
      ? 'Building (first run)…'
      : 'Sources changed since the last build; rebuilding…',
  );
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}
