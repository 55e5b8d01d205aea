/**
 * What every doctor check is: an id, a status, one line, and what to do. A leaf module: the
 * checks and the runner (doctor.ts) import it, it imports no check, so no cycle forms.
 */
import type { Clock } from '../../server/platform/clock.ts';
import type { SecretStore } from '../../server/platform/secret-store.ts';
import type { Profile } from '../oauth/profiles.ts';

/** The checks, in the order they run and print. */
export const CHECK_IDS = [
  'profile',
  'secrets',
  'discovery',
  'clock',
  'secret-store',
  'cache',
  'lock',
  'gitlab-token',
] as const;
/** One of `CHECK_IDS`. */
export type CheckId = (typeof CHECK_IDS)[number];

/** pass ✓, fail ✗, skip (asked to, or a check it depends on failed). */
export type CheckStatus = 'pass' | 'fail' | 'skip';

/** One line of the report. */
export interface CheckResult {
  id: CheckId;
  status: CheckStatus;
  /** What was found, in one line. */
  summary: string;
  /** What to do about a failure. */
  fix?: string;
}

/** The whole report; `ok` when nothing failed. */
export interface DoctorReport {
  ok: boolean;
  checks: CheckResult[];
}

/** What to check. */
export interface DoctorOptions {
  /** Config root. */
  home: string;
  /** Profile name (`-p`). */
  profile: string;
  /** The GitLab the service reads (flag, GITLAB_URL, saved settings, gitlab.com). */
  gitlabUrl: string;
  /** Longest wait for each network answer. */
  timeoutMs: number;
  /** Checks not to run (`--skip`). */
  skip: ReadonlySet<CheckId>;
}

/** The edges the checks use. */
export interface DoctorEdges {
  clock: Clock;
  fetch: typeof globalThis.fetch;
  env: NodeJS.ProcessEnv;
  /** True when Node routes fetch through the proxy variables (NODE_USE_ENV_PROXY). */
  usesEnvProxy: boolean;
  /** Opens the product's secret store as get-token would. */
  openStore: () => Promise<SecretStore>;
  /** Reads a secret-store account from a fresh process (undefined: it saw nothing). */
  readInFreshProcess: (account: string) => Promise<string | undefined>;
}

/** What the checks share as they run. */
export interface DoctorContext {
  options: DoctorOptions;
  edges: DoctorEdges;
  /** The store, or the error opening it gave. */
  store: SecretStore | Error;
  /** The profile, once the profile check found it. */
  profile?: Profile;
  /** The identity provider's `Date` and when we asked and heard, for the clock check. */
  serverDate?: { date: number; sentAt: number; receivedAt: number; url: string };
}

/** A passing line. */
export function pass(id: CheckId, summary: string): CheckResult {
  return { id, status: 'pass', summary };
}

/** A failing line and what to do. */
export function fail(id: CheckId, summary: string, fix: string): CheckResult {
  return { id, status: 'fail', summary, fix };
}

/** A line for a check that could not run because of another. */
export function skip(id: CheckId, summary: string): CheckResult {
  return { id, status: 'skip', summary };
}
