import type { SummaryStatus } from '../../contract.ts';
import { AppError } from '../../platform/errors.ts';

/**
 * A GitLab failure in words for the dashboard. AppError messages are written for users; anything
 * else is an internal exception whose text (paths, addresses, library internals) stays in the log.
 */
export function describeFailure(err: unknown): string {
  if (err instanceof AppError) return err.message;
  return 'Unexpected error while reading GitLab; the service log has the details';
}

/**
 * How the poller's reads of GitLab are going: whether a first load finished, how many cycles failed
 * in a row and why the last one did, and when the data was last read in full. The summary's
 * `status` block says it, and the loop backs off by the failure count.
 */
export class PollHealth {
  private loaded = false;
  private failures = 0;
  private lastError: string | null = null;
  private lastUpdated: number | null = null;

  /** True once a first load finished (or a warm start restored one). */
  get isLoaded(): boolean {
    return this.loaded;
  }

  /** Cycles failed in a row (0 after a success). */
  get failureCount(): number {
    return this.failures;
  }

  /** The last failure in words for the dashboard, cleared by the next success. */
  get error(): string | null {
    return this.lastError;
  }

  /** `loading` before the first load, `degraded` while cycles fail, `ok` otherwise. */
  get state(): SummaryStatus['state'] {
    if (this.failures > 0) return 'degraded';
    return this.loaded ? 'ok' : 'loading';
  }

  /** When every watched project was last read (ISO), or null before the first load. */
  get lastUpdatedIso(): string | null {
    return this.lastUpdated === null ? null : new Date(this.lastUpdated).toISOString();
  }

  /** A cycle read every watched project at `now`. */
  readAt(now: number): void {
    this.loaded = true;
    this.lastUpdated = now;
  }

  /** A warm start took the last known data: it counts as loaded, though not read now. */
  restored(): void {
    this.loaded = true;
  }

  /** A cycle ended without an error. */
  succeeded(): void {
    this.failures = 0;
    this.lastError = null;
  }

  /** A cycle failed with `err`. */
  failed(err: unknown): void {
    this.failures++;
    this.lastError = describeFailure(err);
  }

  /** A new group: nothing of the old one is loaded any more. */
  unload(): void {
    this.loaded = false;
    this.lastUpdated = null;
  }
}
