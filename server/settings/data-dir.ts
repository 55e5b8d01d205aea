import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Where a data-at-rest warning goes (the service logger, or stderr from the CLI). */
export type Warn = (message: string) => void;

/** Data-at-rest modes (DESIGN §5): the token code's rule for everything the service writes. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
// POSIX modes mean nothing on Windows, where the user profile's ACLs already apply.
const posix = process.platform !== 'win32';

/**
 * Creates the data dir 0700, or tightens an existing one that others can read (a dir made by hand
 * or by an older version as 0755), saying so once.
 */
export function secureDataDir(dir: string, warn: Warn): string {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (posix) {
    const mode = statSync(dir).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(dir, DIR_MODE);
      warn(
        `Data dir ${dir} was readable by others (${mode.toString(8).padStart(4, '0')}); tightened to 0700`,
      );
    }
  }
  return dir;
}

/**
 * Makes `file` owner-only: tightened to 0600 when others can read it, and with `create` made
 * empty with 0600 when missing, so that SQLite, which gives its -wal and -shm files the database
 * file's mode (sqlite.org, os_unix.c `findCreateFileMode`), never creates a readable database.
 */
export function secureFile(file: string, options: { create?: boolean } = {}): void {
  if (!posix) return;
  if (options.create && !existsSync(file)) closeSync(openSync(file, 'a', FILE_MODE));
  if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, FILE_MODE);
}

/** Writes a warning line to stderr (callers without a logger). */
export const stderrWarn: Warn = (message) =>
  process.stderr.write(`pipeline-summary: warning: ${message}\n`);
