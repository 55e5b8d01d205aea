// When dist/ is current: the stamp a full build leaves in dist/, compared with the newest source
// file. Shared by scripts/build.mjs (writes it) and scripts/ensure-built.mjs (reads it).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = ['server', 'cli', 'main', 'renderer'];

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

/** `never` (no full build yet), `stale` (a source is newer than it) or `current`. */
export function buildState(root) {
  let stamp;
  try {
    stamp = statSync(path.join(root, 'dist/.build-stamp')).mtimeMs;
  } catch {
    return 'never';
  }
  const sources = Math.max(...SOURCE_DIRS.map((d) => newest(path.join(root, d))));
  return stamp < sources ? 'stale' : 'current';
}

/**
 * Records a build. Only a full build counts: a partial one (`build.mjs main`, as the bundle smoke
 * test runs) leaves the other parts as old as they were, so stamping it would let `npm run serve`
 * start a CLI bundle older than its sources.
 */
export function recordBuild(root, parts, info) {
  if (parts.length > 0) return false;
  writeFileSync(path.join(root, 'dist/.build-stamp'), JSON.stringify(info) + '\n');
  return true;
}
