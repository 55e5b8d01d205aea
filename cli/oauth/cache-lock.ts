import { nodeCrypto, nodeFsPromises, nodeOs } from '../../server/platform/builtins.ts';
import { sleep as delay } from '../../server/platform/sleep.ts';
import { TokenError } from './errors.ts';

/** What a lock file holds: who took it and when, so others can tell a dead holder from a busy one. */
export interface LockOwner {
  pid: number;
  host: string;
  acquiredAt: string;
  id: string;
}

/** Options of `acquireLock`. */
export interface LockOptions {
  /** Give up (timeout error) at this wall-clock time, in ms since the epoch. */
  deadline: number;
  signal?: AbortSignal;
  /** A lock older than this is broken even if its holder seems alive (hung, or on another host). */
  staleMs?: number;
  /** Sleep between attempts; jittered so waiting processes do not retry in lockstep. */
  pollMs?: number;
}

/** A lock older than this is broken even if its holder seems alive. */
export const DEFAULT_STALE_MS = 10 * 60_000;

/** What a lock file says now (for `doctor`): nobody, a live holder, or a leftover to break. */
export type LockState =
  | { state: 'free' }
  | { state: 'held'; holder: LockOwner | undefined; ageMs: number }
  | { state: 'stale'; holder: LockOwner | undefined; ageMs: number };

/**
 * Reads a lock without taking it, by the rules `acquireLock` breaks locks by: a holder whose pid
 * is gone on this host, a lock older than `staleMs`, an unreadable one older than 5 s.
 */
export async function inspectLock(file: string, staleMs = DEFAULT_STALE_MS): Promise<LockState> {
  const holder = await readOwner(file);
  const ageMs = await ageOf(file);
  if (holder === 'gone' || ageMs === undefined) return { state: 'free' };
  if (await isStale(file, holder, staleMs)) return { state: 'stale', holder, ageMs };
  // An unreadable lock younger than 5 s is one being written right now.
  return { state: 'held', holder, ageMs };
}

/** Releases a lock taken by `acquireLock`; safe to call twice. */
export type ReleaseLock = () => Promise<void>;

/**
 * Takes an exclusive lock file (O_CREAT|O_EXCL), waiting while another live process holds it.
 * A lock whose holder is dead (same host, pid gone) or that is older than `staleMs` is broken —
 * under a second short-lived ".break" lock, so two waiters cannot both break it and then remove
 * each other's fresh lock. Works the same on Linux, macOS and Windows.
 */
export async function acquireLock(file: string, options: LockOptions): Promise<ReleaseLock> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const pollMs = options.pollMs ?? 20;
  const me: LockOwner = {
    pid: process.pid,
    host: nodeOs().hostname(),
    acquiredAt: new Date().toISOString(),
    id: nodeCrypto().randomBytes(8).toString('hex'),
  };
  for (;;) {
    if (await tryCreate(file, me)) return releaser(file, me.id);
    const holder = await readOwner(file);
    if (holder !== 'gone' && (await isStale(file, holder, staleMs))) {
      await breakLock(file, holder);
      continue;
    }
    if (options.signal?.aborted) throw options.signal.reason;
    if (Date.now() >= options.deadline) {
      const who = holder && holder !== 'gone' ? ` (pid ${holder.pid} on ${holder.host})` : '';
      throw new TokenError(
        'timeout',
        `timed out waiting for another get-token${who} to finish with the token cache; retry, or if nothing is running delete ${file}`,
      );
    }
    await delay(pollMs + Math.random() * pollMs, options.signal);
  }
}

async function tryCreate(file: string, me: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await nodeFsPromises().open(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new TokenError(
      'general',
      `cannot create the lock file ${file}: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
  try {
    await handle.writeFile(JSON.stringify(me));
  } finally {
    await handle.close();
  }
  return true;
}

/** The holder, undefined when the file is unreadable or half-written, 'gone' when it vanished. */
async function readOwner(file: string): Promise<LockOwner | undefined | 'gone'> {
  let text: string;
  try {
    text = await nodeFsPromises().readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return undefined;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.id === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

async function isStale(
  file: string,
  holder: LockOwner | undefined,
  staleMs: number,
): Promise<boolean> {
  const age = await ageOf(file);
  if (age === undefined) return false;
  // A holder writes its owner record right after creating the file; an unreadable record that is
  // more than a few seconds old belongs to a process that died in between.
  if (!holder) return age > 5_000;
  if (age > staleMs) return true;
  return holder.host === nodeOs().hostname() && !isAlive(holder.pid);
}

async function breakLock(file: string, seen: LockOwner | undefined): Promise<void> {
  const guard = `${file}.break`;
  let handle;
  try {
    handle = await nodeFsPromises().open(guard, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Someone else is breaking it; a guard left by a process that died mid-break is cleared.
    const age = await ageOf(guard);
    if (age !== undefined && age > 10_000)
      await nodeFsPromises()
        .unlink(guard)
        .catch(() => undefined);
    await delay(5);
    return;
  }
  await handle.close();
  try {
    const now = await readOwner(file);
    const same = now !== 'gone' && (now === undefined ? seen === undefined : now.id === seen?.id);
    if (same)
      await nodeFsPromises()
        .unlink(file)
        .catch(() => undefined);
  } finally {
    await nodeFsPromises()
      .unlink(guard)
      .catch(() => undefined);
  }
}

function releaser(file: string, id: string): ReleaseLock {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    const owner = await readOwner(file);
    // Only remove our own lock: if ours was broken as stale, the file now belongs to someone else.
    if (owner && owner !== 'gone' && owner.id === id)
      await nodeFsPromises()
        .unlink(file)
        .catch(() => undefined);
  };
}

async function ageOf(file: string): Promise<number | undefined> {
  try {
    return Date.now() - (await nodeFsPromises().stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
