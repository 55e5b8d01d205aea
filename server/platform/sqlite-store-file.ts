import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from './logger.ts';

/** How a store's SQLite file is opened (the analysis store, the pipeline history). */
export interface StoreFileOptions {
  /** The store's name in messages, e.g. "analysis store". */
  what: string;
  /** The schema version this build writes; `migrations[v]` takes a file from v to v + 1. */
  schemaVersion: number;
  migrations: readonly string[];
  /**
   * Run `quick_check` on open. Cheap for a small store; a large one reads the header only, since a
   * full check would scan months of data before the first answer (a deeper fault surfaces on use).
   */
  quickCheck: boolean;
}

/**
 * Opens a store's SQLite file: creates its folder (0700) and the file (0600: stores hold CI logs,
 * commit titles and user names, DESIGN §5; SQLite gives -wal/-shm the file's mode), moves a file
 * that is not a readable database aside with a warning instead of refusing to start, sets the
 * crash-safe pragmas (WAL, synchronous=FULL) and migrates the schema. `:memory:` is for tests.
 */
export function openStoreFile(
  file: string,
  logger: Logger,
  options: StoreFileOptions,
): Database.Database {
  const onDisk = file !== ':memory:';
  if (onDisk) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Created 0600 before SQLite opens it, so it is never readable by others, not even briefly.
    if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  }
  let db = new Database(file);
  try {
    db.pragma('user_version', { simple: true });
    if (onDisk && options.quickCheck) db.pragma('quick_check(1)');
    else db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (err) {
    db.close();
    if (!onDisk || !existsSync(file)) throw err;
    const aside = `${file}.corrupt-${Date.now()}`;
    renameSync(file, aside);
    logger.warn({ file, aside }, `${options.what} was unreadable; moved aside and started anew`);
    db = new Database(file);
  }
  // A file (or WAL) from an older version or a looser umask is tightened.
  if (onDisk) for (const f of [file, `${file}-wal`, `${file}-shm`]) makePrivate(f);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, file, options);
  return db;
}

function makePrivate(file: string): void {
  if (process.platform === 'win32' || !existsSync(file)) return;
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}

/** The schema version of an open store file. */
export function schemaVersionOf(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Database.Database, file: string, options: StoreFileOptions): void {
  const version = schemaVersionOf(db);
  if (version > options.schemaVersion) {
    throw new Error(
      `The ${options.what} uses schema ${version}, newer than this version of Pipeline Summary understands (${options.schemaVersion}). Upgrade Pipeline Summary, or move ${path.basename(file)} aside.`,
    );
  }
  for (let v = version; v < options.schemaVersion; v++) {
    db.transaction(() => {
      db.exec(options.migrations[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

/**
 * Prepares each SQL text once per database and reuses the statement: parsing SQL would otherwise
 * dominate a store's hot reads (a history page, a health recompute).
 */
export function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
