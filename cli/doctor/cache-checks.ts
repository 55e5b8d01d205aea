/**
 * The token cache and its lock, as the engine reads them (cli/oauth/README.md): the cache file
 * private to its owner (0600), an envelope the key in the secret store opens; the lock free, held
 * by a running get-token, or a leftover of a dead one.
 */
import path from 'node:path';
import { nodeFsPromises, nodeOs } from '../../server/platform/builtins.ts';
import { CACHE_KEY_ACCOUNT, decryptCache, usableAt } from '../oauth/cache-format.ts';
import { inspectLock } from '../oauth/cache-lock.ts';
import { formatSeconds } from '../oauth/jwt.ts';
import { fail, pass, type CheckResult, type DoctorContext } from './check.ts';

/** The cache file: permissions, owner, and whether it opens. */
export async function cacheCheck(ctx: DoctorContext): Promise<CheckResult> {
  const file = path.join(ctx.options.home, 'token-cache.json');
  const fs = nodeFsPromises();
  let stat;
  try {
    stat = await fs.stat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return pass('cache', `token cache ${file}: none yet (the first token creates it)`);
    }
    return fail('cache', `token cache ${file}: ${(err as Error).message}`, 'check the config root');
  }
  const posix = process.platform !== 'win32';
  const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
  if (posix && (stat.mode & 0o077) !== 0) {
    return fail(
      'cache',
      `token cache ${file}: readable by others (mode ${mode})`,
      `chmod 600 ${file}`,
    );
  }
  const uid = process.getuid?.();
  if (posix && uid !== undefined && stat.uid !== uid) {
    return fail(
      'cache',
      `token cache ${file}: owned by uid ${stat.uid}, not by you (uid ${uid})`,
      `remove it, or run get-token as its owner`,
    );
  }
  const aside = await movedAside(file);
  const rebuild = `get-token moves it aside and starts a new cache on its next write; or delete ${file}`;
  const text = await fs.readFile(file, 'utf8');
  let envelope: { format?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as { format?: unknown };
  } catch {
    // reported below
  }
  if (envelope?.format !== 'pipeline-summary-token-cache') {
    return fail('cache', `token cache ${file}: damaged (not a token cache)${aside}`, rebuild);
  }
  if (ctx.store instanceof Error) {
    return fail(
      'cache',
      `token cache ${file}: its key cannot be read (${ctx.store.message})`,
      rebuild,
    );
  }
  const key = await ctx.store.get(CACHE_KEY_ACCOUNT);
  if (!key) {
    return fail(
      'cache',
      `token cache ${file}: its key is not in ${ctx.store.backend} (was it written with another --store?)${aside}`,
      rebuild,
    );
  }
  const contents = decryptCache(text, key);
  if (!contents) {
    return fail(
      'cache',
      `token cache ${file}: does not open with the key in ${ctx.store.backend}${aside}`,
      rebuild,
    );
  }
  const entries = Object.values(contents.entries);
  const usable = entries.filter((e) => usableAt(e, ctx.edges.clock.now())).length;
  return pass(
    'cache',
    `token cache ${file}: ${posix ? `mode ${mode}, ` : ''}${entries.length} token${entries.length === 1 ? '' : 's'} (${usable} usable now), key in ${ctx.store.backend}${aside}`,
  );
}

/** "; 2 damaged caches moved aside earlier" when there are any, else ''. */
async function movedAside(file: string): Promise<string> {
  const names = await nodeFsPromises()
    .readdir(path.dirname(file))
    .catch(() => [] as string[]);
  const count = names.filter((n) => n.startsWith(`${path.basename(file)}.corrupt-`)).length;
  return count > 0 ? `; ${count} damaged cache${count === 1 ? '' : 's'} moved aside earlier` : '';
}

/** The cache lock: free, held by a live get-token, or a leftover. */
export async function lockCheck(ctx: DoctorContext): Promise<CheckResult> {
  const file = path.join(ctx.options.home, 'token-cache.lock');
  const lock = await inspectLock(file);
  const guard = await nodeFsPromises()
    .stat(`${file}.break`)
    .catch(() => undefined);
  if (guard && Date.now() - guard.mtimeMs > 10_000) {
    return fail(
      'lock',
      `cache lock: a break guard ${file}.break was left by a process that died`,
      `delete ${file}.break`,
    );
  }
  if (lock.state === 'free') return pass('lock', 'cache lock: free');
  const who = lock.holder
    ? `pid ${lock.holder.pid}${lock.holder.host === nodeOs().hostname() ? '' : ` on ${lock.holder.host}`}`
    : 'a process that wrote no owner';
  const age = formatSeconds(Math.round(lock.ageMs / 1000));
  if (lock.state === 'held') {
    return pass('lock', `cache lock: held by ${who} for ${age} (a get-token is running)`);
  }
  return fail(
    'lock',
    `cache lock ${file}: left by ${who} ${age} ago, which is no longer running`,
    `delete ${file} (get-token also breaks it on its next run)`,
  );
}
