import type { ActivityResponse, SummaryResponse, SummaryStatus } from '../../contract.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';

/** What the published summary needs. */
export interface PublishedSummaryDeps {
  clock: Clock;
  /** The summary's projects and numbers now (the status travels apart: it changes on its own). */
  data: () => Omit<SummaryResponse, 'status'>;
  activity: () => ActivityResponse;
  status: () => SummaryStatus;
  /** Called with the pre-serialised summary and activity whenever either changed. */
  onChange?: (summaryJson: string, activityJson: string) => void;
}

const EMPTY_DATA =
  '{"projects":[],"summary":{"total_pipelines":0,"successful":0,"failed":0,"running":0,"average_duration":0,"overall_success_rate":0}}';

/** Many details land within a few ms of each other: one recompute serves them all. */
const RECOMPUTE_DELAY_MS = 100;

/**
 * The summary and activity as served: serialised once per change (the snapshot route and SSE send
 * these bytes), and pushed only when projects, numbers, health or the activity changed.
 */
export class PublishedSummary {
  private dataJson = EMPTY_DATA;
  private snapshotCache: string | null = null;
  private activityJson = '';
  private activityKey = '';
  private publishedKey = '';
  private cancelScheduled: (() => void) | null = null;

  constructor(private readonly deps: PublishedSummaryDeps) {}

  /** The summary with its status, serialised once per recompute. */
  get snapshotJson(): string {
    this.snapshotCache ??= `${this.dataJson.slice(0, -1)},"status":${JSON.stringify(this.deps.status())}}`;
    return this.snapshotCache;
  }

  /** Recomputes the summary now; publishes only when projects, numbers, health or the API changed. */
  recompute(): void {
    this.dataJson = JSON.stringify(this.deps.data());
    this.snapshotCache = null;
    this.activityJson = '';
    this.publish(false);
  }

  /** Recomputes shortly, once for every call until then. */
  scheduleRecompute(): void {
    if (this.cancelScheduled) return;
    const after = this.deps.clock.after?.bind(this.deps.clock) ?? systemClock.after;
    this.cancelScheduled = after(RECOMPUTE_DELAY_MS, () => {
      this.cancelScheduled = null;
      this.recompute();
    });
  }

  /** Cancels a scheduled recompute (the poller stops). */
  cancel(): void {
    this.cancelScheduled?.();
    this.cancelScheduled = null;
  }

  /** Pushes the summary and activity to `onChange` when they changed since the last push, or when `force`d. */
  publish(force: boolean): void {
    const status = this.deps.status();
    if (!this.activityJson) {
      const { window_start, ...activity } = this.deps.activity();
      // The window's start moves with every tick; only buckets and contributors decide a push.
      this.activityKey = JSON.stringify(activity);
      this.activityJson = JSON.stringify({ ...activity, window_start });
    }
    // The API in use and why are news too: a switch to REST is pushed with the cycle that made it.
    const key = `${status.state}|${status.last_error}|${status.group}|${status.since}|${status.gitlab_api}|${status.gitlab_api_note}|${status.test_reports_api}|${status.test_reports_api_note}|${this.dataJson}|${this.activityKey}`;
    if (!force && key === this.publishedKey) return;
    this.publishedKey = key;
    this.deps.onChange?.(this.snapshotJson, this.activityJson);
  }
}
