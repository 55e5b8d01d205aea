/**
 * `doctor`: checks what get-token and the service depend on, one named check at a time, and says
 * for each what is wrong and what to do — the profile and its secrets, the identity provider
 * (reachable, through which proxy, and how far our clock is from its), the secret store (and
 * whether a fresh process reads back what this one wrote: the WSL/SSH keyring failure), the token
 * cache and its lock, and the service's GitLab token. Every edge (clock, fetch, store, the fresh
 * process) is passed in, so each check is tested with fakes and the whole through the real CLI.
 */
import { cacheCheck, lockCheck } from './cache-checks.ts';
import {
  CHECK_IDS,
  type CheckId,
  type CheckResult,
  type DoctorContext,
  type DoctorEdges,
  type DoctorOptions,
  type DoctorReport,
} from './check.ts';
import { gitlabTokenCheck } from './gitlab-check.ts';
import { clockCheck, reachabilityCheck } from './network-checks.ts';
import { profileCheck, secretsCheck } from './profile-checks.ts';
import { secretStoreCheck } from './secret-store-check.ts';

export {
  CHECK_IDS,
  type CheckId,
  type CheckResult,
  type DoctorEdges,
  type DoctorOptions,
  type DoctorReport,
} from './check.ts';

/** Runs every check not skipped, in order; never throws for what it finds. */
export async function runDoctor(options: DoctorOptions, edges: DoctorEdges): Promise<DoctorReport> {
  const store = await edges.openStore().catch((err: unknown) => err as Error);
  const ctx: DoctorContext = { options, edges, store };
  const steps: Record<CheckId, (ctx: DoctorContext) => Promise<CheckResult>> = {
    profile: profileCheck,
    secrets: secretsCheck,
    discovery: reachabilityCheck,
    clock: clockCheck,
    'secret-store': secretStoreCheck,
    cache: cacheCheck,
    lock: lockCheck,
    'gitlab-token': gitlabTokenCheck,
  };
  const checks: CheckResult[] = [];
  for (const id of CHECK_IDS) {
    if (options.skip.has(id)) {
      checks.push({ id, status: 'skip', summary: `${id}: skipped (--skip)` });
      continue;
    }
    checks.push(await steps[id](ctx).catch((err: unknown) => unexpected(id, err)));
  }
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}

/** A check that threw: a failure that says so, rather than a doctor that crashes. */
function unexpected(id: CheckId, err: unknown): CheckResult {
  const message = err instanceof Error ? err.message : String(err);
  return { id, status: 'fail', summary: `${id}: ${message.split('\n')[0]}` };
}
