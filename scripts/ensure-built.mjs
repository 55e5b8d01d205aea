// Runs `npm run build` first when dist/ is missing or older than the sources, so
// `npm run serve -- <flags>` works straight after `npm ci`.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir) {
  let latest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

let stamp = 0;
try {
  stamp = statSync(path.join(root, 'dist/.build-stamp')).mtimeMs;
} catch {
  // Never built.
}
const sources = Math.max(
  ...['server', 'cli', 'main', 'renderer'].map((d) => newest(path.join(root, d))),
);
if (stamp < sources) {
  console.error(
    stamp === 0 ? 'Building (first run)…' : 'Sources changed since the last build; rebuilding…',
  );
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
}
