/**
 * The secret store: which one is used, and whether a secret written by this process is read back
 * by a fresh one. That is where keyrings fail quietly — on WSL and over SSH a write "succeeds"
 * into a session keyring the next process never sees (MSAL.NET#3033) — and a token cache whose key
 * is not read back is a cache that is rebuilt on every run.
 */
import { randomBytes } from 'node:crypto';
import { fail, pass, type CheckResult, type DoctorContext } from './check.ts';

/** The account the probe secret is written under (only `doctor --read-probe` reads it). */
export const PROBE_ACCOUNT_PREFIX = 'doctor-probe:';

/** Writes a random probe, reads it in a fresh process, removes it. */
export async function secretStoreCheck(ctx: DoctorContext): Promise<CheckResult> {
  const store = ctx.store;
  const switchStore =
    'keep secrets in a file: --store file, or PIPELINE_SUMMARY_SECRET_STORE=file (mode 0600 under the config root)';
  if (store instanceof Error) {
    return fail('secret-store', `secret store: cannot open it: ${store.message}`, switchStore);
  }
  const account = `${PROBE_ACCOUNT_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`;
  const probe = randomBytes(16).toString('hex');
  try {
    await store.set(account, probe);
  } catch (err) {
    return fail(
      'secret-store',
      `secret store ${store.backend}: cannot write to it: ${(err as Error).message}`,
      switchStore,
    );
  }
  // After the write: 'auto' may have fallen back to the file, and `backend` says which it used.
  const backend = store.backend;
  let seen: string | undefined;
  let childError: Error | undefined;
  try {
    seen = await ctx.edges.readInFreshProcess(account);
  } catch (err) {
    childError = err as Error;
  } finally {
    await store.delete(account).catch(() => undefined);
  }
  if (childError) {
    return fail(
      'secret-store',
      `secret store ${backend}: a fresh process could not read it: ${childError.message}`,
      switchStore,
    );
  }
  if (seen !== probe) {
    return fail(
      'secret-store',
      `secret store ${backend}: a secret written here ${seen === undefined ? 'is not seen' : 'reads differently'} in a fresh process (the WSL/SSH session-keyring problem)`,
      `start the keyring in this session (e.g. dbus-run-session, or unlock gnome-keyring), or ${switchStore}`,
    );
  }
  return pass(
    'secret-store',
    `secret store ${backend}: a secret written here was read back by a fresh process`,
  );
}
