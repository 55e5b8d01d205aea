// Temp folders a test file makes and removes when it is done: a suite that leaves one behind per
// test fills a CI machine's /tmp run after run.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Makes fresh folders named `<prefix>XXXXXX` in the temp dir; `removeAll` deletes every one made. */
export function tempDirs(prefix: string): { make: () => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    make: () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll: () => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
