import { spawnSync } from 'node:child_process';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from './cache-lock.ts';
import { useTokenTestBed } from './testing/token-test-bed.ts';

const bed = useTokenTestBed();
let lockFile: string;
beforeEach(() => {
  lockFile = path.join(bed.home, 'token-cache.lock');
});

const soon = (ms = 5000) => ({ deadline: Date.now() + ms, pollMs: 5 });

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

async function writeOwner(pid: number, host = os.hostname()): Promise<void> {
  await writeFile(
    lockFile,
    JSON.stringify({ pid, host, acquiredAt: new Date().toISOString(), id: 'other' }),
  );
}

describe('acquireLock', () => {
  it('serialises holders: the second waits until the first releases', async () => {
    const order: string[] = [];
    const release1 = await acquireLock(lockFile, soon());
    const second = acquireLock(lockFile, soon()).then((release) => {
      order.push('second acquired');
      return release;
    });
    await new Promise((r) => setTimeout(r, 30));
    order.push('first releasing');
    await release1();
    const release2 = await second;
    expect(order).toEqual(['first releasing', 'second acquired']);
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    await release2();
    await expect(readFile(lockFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('breaks a lock whose holder died', async () => {
    await writeOwner(deadPid());
    const release = await acquireLock(lockFile, soon(1000));
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('waits for a live holder and times out naming it', async () => {
    await writeOwner(process.pid);
    await expect(acquireLock(lockFile, soon(150))).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining(`(pid ${process.pid} on ${os.hostname()})`),
    });
  });

  it('breaks a lock older than staleMs even if its holder looks alive (another host)', async () => {
    await writeOwner(12345, 'some-other-host');
    await expect(acquireLock(lockFile, { ...soon(100), staleMs: 60_000 })).rejects.toMatchObject({
      code: 'timeout',
    });
    const old = new Date(Date.now() - 120_000);
    await utimes(lockFile, old, old);
    const release = await acquireLock(lockFile, { ...soon(1000), staleMs: 60_000 });
    await release();
  });

  it('breaks a half-written lock file once it is a few seconds old', async () => {
    await writeFile(lockFile, '');
    await expect(acquireLock(lockFile, soon(100))).rejects.toMatchObject({ code: 'timeout' });
    const old = new Date(Date.now() - 10_000);
    await utimes(lockFile, old, old);
    const release = await acquireLock(lockFile, soon(1000));
    await release();
  });

  it('release leaves a lock that another process took over alone', async () => {
    const release = await acquireLock(lockFile, soon());
    await writeOwner(process.pid);
    await release();
    expect(JSON.parse(await readFile(lockFile, 'utf8'))).toMatchObject({ id: 'other' });
  });

  it('stops waiting when the caller aborts', async () => {
    await writeOwner(process.pid);
    const controller = new AbortController();
    const waiting = acquireLock(lockFile, { ...soon(), signal: controller.signal });
    controller.abort(new Error('menu closed'));
    await expect(waiting).rejects.toThrow('menu closed');
  });
});
