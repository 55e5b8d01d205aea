import { systemClock, type Clock } from '../platform/clock.ts';

const MINUTE_MS = 60_000;

/**
 * Paces reads of GitLab's project job list: GitLab limits GET /projects/:id/jobs per user
 * (`project_jobs_api_rate_limit`, 600 a minute by default; lib/gitlab/application_rate_limiter.rb
 * `jobs_index`), and its 429 would pause every read of the service. Pages are counted over a
 * rolling minute; over the pace, `allowed` says no and calls `resume` once a page leaves the minute.
 */
export class JobListPace {
  private pages: number[] = [];
  private waiting = false;

  constructor(
    private readonly clock: Clock,
    private readonly resume: () => void,
    /** Pages a minute, at most (half GitLab's default limit leaves room for other clients). */
    private readonly perMinute = 300,
  ) {}

  /** True when another job list may be read now. */
  allowed(): boolean {
    const now = this.clock.now();
    this.pages = this.pages.filter((at) => at > now - MINUTE_MS);
    if (this.pages.length < this.perMinute) return true;
    if (!this.waiting) {
      this.waiting = true;
      const after = this.clock.after ?? systemClock.after;
      after(this.pages[0]! + MINUTE_MS - now, () => {
        this.waiting = false;
        this.resume();
      });
    }
    return false;
  }

  /** Counts pages just read. */
  count(pages: number): void {
    const now = this.clock.now();
    for (let i = 0; i < pages; i++) this.pages.push(now);
  }
}
