import path from 'node:path';
import { nodeCrypto, nodeFs, nodeFsPromises } from './builtins.ts';

/** Creates `dir` (and parents) and makes sure only the owner can enter it (0700). */
export async function ensurePrivateDir(dir: string): Promise<void> {
  const { mkdir, chmod } = nodeFsPromises();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by umask and ignored for existing dirs; chmod makes it so. Windows has
  // no POSIX modes, and its per-user profile directories are private already.
  if (process.platform !== 'win32') await chmod(dir, 0o700);
}

/**
 * Writes `data` to `file` atomically with the given mode: a temp file in the same directory,
 * fsync, then rename, so a reader (another process, the tray) sees the old file or the new one,
 * never half of either.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  mode = 0o600,
): Promise<void> {
  const { open, rename, rm } = nodeFsPromises();
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** A file's text, or undefined when it does not exist (a sync read: these files are tiny). */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return nodeFs().readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
