/**
 * Whether a GitLab pipeline or job status can still change by itself, answered in one place: the
 * poller's cadence and detail reads, the shared reads' cache, the details cache, the history's job
 * fetches and the log route's `complete` all ask here. The status lists are the API's
 * (`server/contract.ts`, where `statusOutcome` also decides what counts as running, for the service,
 * the CLI and the dashboard alike); this module adds `manual`, a status that waits on a person.
 */
import { FINISHED_STATUSES } from '../contract.ts';

const FINISHED: ReadonlySet<string> = new Set(FINISHED_STATUSES);
// `manual` waits for a person: it does not move by itself, but it is not finished either.
const SETTLED: ReadonlySet<string> = new Set([...FINISHED_STATUSES, 'manual']);

/** True for a status after which GitLab changes a pipeline or job only when someone retries it. */
export function isFinishedStatus(status: string): boolean {
  return FINISHED.has(status);
}

/**
 * True for a status that changes only when someone acts: finished, or `manual` (blocked on a
 * person). Every other status — `canceling`, `waiting_for_callback`, `scheduled` included — will
 * change on its own: the poller keeps its fast cadence while any is present, a job's log may still
 * grow, and a job list holding one may change while the pipeline keeps its `updated_at`.
 */
export function isSettledStatus(status: string): boolean {
  return SETTLED.has(status);
}
