import { isAppError } from '../platform/errors.ts';
import type { GitLabApi } from './api.ts';
import { isFinishedStatus, isSettledStatus } from './pipeline-status.ts';
import { updatedAtKey } from './updated-at.ts';
import type { GitLabCommit, GitLabJob, GitLabPipeline } from './wire.ts';

/** One shared GitLab read and who still waits for it. */
interface Flight<T> {
  promise: Promise<T>;
  controller: AbortController;
  /** Waiters that may still give up; a waiter without a signal holds the read for good. */
  holders: number;
  settled: boolean;
}

/**
 * GitLab's answers about one pipeline at one `updated_at` (and the commit it built), read once for
 * every reader in the service: the poller (details, a failure's jobs), the failure events (user, commit, failed jobs) and
 * the pipeline history (every job attempt) meet the same pipeline within moments of each other, and
 * after a warm restart both the poller and the history want the jobs the last run left unread. GitLab
 * bumps a pipeline's `updated_at` whenever it changes (a retry, a manual job played), so an answer
 * for that `updated_at` is the answer for any reader asking with it. Readers asking together share one
 * request; a finished pipeline's answers are also kept (a small LRU) for readers that come a little
 * later. Failed reads are not kept: the next reader asks GitLab again. Keys hold the `updated_at` at
 * whole seconds (`updatedAtKey`): GraphQL gives no finer, and the poller may list over GraphQL what
 * the details route and the history name over REST.
 */
export class PipelineReads {
  private readonly flights = new Map<string, Flight<unknown>>();

  constructor(
    private readonly gitlab: GitLabApi,
    /** Finished pipelines' answers kept; about a poll's worth of changed pipelines. */
    private readonly maxEntries = 100,
  ) {}

  /** The single pipeline (GET …/pipelines/:id) while its `updated_at` is `updatedAt`. */
  pipeline(
    projectId: number,
    pipelineId: number,
    updatedAt: string,
    signal?: AbortSignal,
  ): Promise<GitLabPipeline> {
    return this.read(
      `pipeline:${projectId}:${pipelineId}@${updatedAtKey(updatedAt)}`,
      (s) => this.gitlab.getPipeline(projectId, pipelineId, s),
      (p) => isFinishedStatus(p.status),
      signal,
    );
  }

  /**
   * Every attempt of the pipeline's jobs (`include_retried=true`) while its `updated_at` is
   * `updatedAt`: one answer serves readers wanting the latest attempts (`latestAttempts`) and the
   * history, which keeps retried attempts.
   */
  jobs(
    projectId: number,
    pipelineId: number,
    updatedAt: string,
    signal?: AbortSignal,
  ): Promise<GitLabJob[]> {
    return this.read(
      `jobs:${projectId}:${pipelineId}@${updatedAtKey(updatedAt)}`,
      (s) => this.gitlab.listPipelineJobs(projectId, pipelineId, s, { includeRetried: true }),
      // Unsettled jobs change on their own while the pipeline may keep its `updated_at` (a
      // scheduled job starts): only an answer whose jobs are all settled is worth keeping.
      (jobs) => jobs.every((j) => isSettledStatus(j.status)),
      signal,
    );
  }

  /**
   * The commit `sha` of a project (GET …/repository/commits/:sha), or null when GitLab no longer has
   * it: what names a pipeline without jobs (a CI configuration error), whose jobs cannot. A commit
   * never changes, so its answer is kept like a finished pipeline's, once per sha.
   */
  commit(projectId: number, sha: string, signal?: AbortSignal): Promise<GitLabCommit | null> {
    return this.read(
      `commit:${projectId}:${sha}`,
      (s) =>
        this.gitlab.getCommit(projectId, sha, s).catch((err: unknown) => {
          if (isAppError(err, 'not_found')) return null;
          throw err;
        }),
      () => true,
      signal,
    );
  }

  /** A pipeline's details that came another way (GraphQL lists them): its next readers need none. */
  remember(detail: GitLabPipeline): void {
    if (!isFinishedStatus(detail.status)) return;
    const key = `pipeline:${detail.project_id}:${detail.id}@${updatedAtKey(detail.updated_at)}`;
    this.flights.delete(key);
    this.keep(key, {
      promise: Promise.resolve(detail),
      controller: new AbortController(),
      holders: 0,
      settled: true,
    });
  }

  private read<T>(
    key: string,
    fetch: (signal: AbortSignal) => Promise<T>,
    worthKeeping: (value: T) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    let flight = this.flights.get(key) as Flight<T> | undefined;
    if (flight) {
      // Most recently used last, so the LRU drops the oldest.
      this.flights.delete(key);
      this.flights.set(key, flight);
    } else {
      const controller = new AbortController();
      const started: Flight<T> = {
        promise: fetch(controller.signal),
        controller,
        holders: 0,
        settled: false,
      };
      started.promise.then(
        (value) => {
          started.settled = true;
          if (!worthKeeping(value)) this.forget(key, started);
        },
        () => this.forget(key, started),
      );
      this.keep(key, started);
      flight = started;
    }
    return this.join(key, flight, signal);
  }

  /** Waits for a flight; giving up (abort) cancels the request only when nobody else waits. */
  private join<T>(key: string, flight: Flight<T>, signal: AbortSignal | undefined): Promise<T> {
    if (!signal) {
      flight.holders = Infinity;
      return flight.promise;
    }
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    flight.holders++;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        reject(signal.reason as Error);
        if (--flight.holders > 0 || flight.settled) return;
        flight.controller.abort(signal.reason);
        this.forget(key, flight);
      };
      signal.addEventListener('abort', leave, { once: true });
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(err as Error);
        },
      );
    });
  }

  private keep(key: string, flight: Flight<unknown>): void {
    this.flights.set(key, flight);
    if (this.flights.size > this.maxEntries) this.flights.delete(this.flights.keys().next().value!);
  }

  private forget(key: string, flight: Flight<unknown>): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }
}
