import path from 'node:path';
import type { GitLabApi } from '../gitlab/api.ts';
import type { PipelineReads } from '../gitlab/pipeline-reads.ts';
import { HistoryRecorder } from '../history/history-recorder.ts';
import type { SignatureTable } from '../history/failure-signatures.ts';
import { DEFAULT_RETENTION_DAYS, HistoryStore } from '../history/history-store.ts';
import { PipelineHistory } from '../history/pipeline-history.ts';
import type { RouteModule } from '../http/app.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { PollerObserver } from '../summary/poller-observer.ts';
import type { PipelinePoller } from '../summary/poller.ts';
import type { MergeRequestLookup } from '../summary/merge-request-ref.ts';
import { parseSince } from '../summary/since.ts';
import { openTestReports, type TestReports } from '../test-reports/index.ts';
import { HealthService, mergeRequestLookup } from './health-service.ts';
import { REGRESSION_RULE } from './regressions.ts';
import { healthRoutes } from './routes.ts';

export { HealthService } from './health-service.ts';

const DAY_MS = 86_400_000;
/** Memory holds at least a week: the AI's flake history and the signatures' backfill read it. */
const HOT_MIN_MS = 7 * DAY_MS;
/** The first prune runs this long after start. */
const FIRST_PRUNE_MS = 60_000;

/** What group health is built from. */
export interface GroupHealthDeps {
  /** `history.db` goes here. */
  dataDir: string;
  gitlab: GitLabApi;
  /** Pipeline and job reads shared with the poller and the failure events. */
  reads?: PipelineReads;
  clock: Clock;
  logger: Logger;
  /** The summary's window at start (the warm start reads its pipelines first). */
  since: string;
  /** Days of history kept (default 90). */
  retentionDays?: number;
  /**
   * Keep the history in memory only: the demo's simulator re-creates its world at every start, so
   * yesterday's demo history would not describe today's.
   */
  inMemory?: boolean;
}

/** Group health wired: the poller's observer, its warm start, the routes and the AI's flake words. */
export interface GroupHealth {
  /** Give to the poller: records what each cycle learns. */
  observer: PollerObserver;
  health: HealthService;
  routes: RouteModule;
  /** Restores the poller's last state from disk (a warm start); false when there is none. */
  warmStart(poller: PipelinePoller): boolean;
  /** Test-level history from the JUnit reports of the same pipelines (docs/test-reports.md). */
  testReports: TestReports;
  /** Resolves when no history fetch (jobs, merge requests, test reports) is queued or running (tests). */
  idle(): Promise<void>;
  /** Merge requests' remembered titles and links, for the summary's `!406` labels. */
  mergeRequests: MergeRequestLookup;
  /** A job's flake history in words for the AI, or undefined. */
  flakeHistory(projectId: number, jobName: string): Promise<string | undefined>;
  /** The pipeline history itself (triage reads it too). */
  history: PipelineHistory;
  /** The history database's failure-signature table (server/triage/). */
  signatures: SignatureTable;
  /** The summary's current window (`7d`). */
  window(): string;
  close(): void;
}

/** Reads `PIPELINE_SUMMARY_HISTORY_DAYS` (a positive whole number of days), else the default. */
export function historyDaysFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.PIPELINE_SUMMARY_HISTORY_DAYS;
  if (raw === undefined || raw === '') return DEFAULT_RETENTION_DAYS;
  if (!/^[1-9][0-9]{0,4}$/.test(raw))
    throw new RangeError(
      `PIPELINE_SUMMARY_HISTORY_DAYS must be a positive whole number of days, not '${raw}'`,
    );
  return Number(raw);
}

/**
 * Opens the pipeline history in the data dir and builds group health on it. The poller is created
 * by the caller with `observer`, then `warmStart(poller)` before `poller.start()`; the rest of the
 * retention is read in the background.
 */
export function openGroupHealth(deps: GroupHealthDeps): GroupHealth {
  const file = deps.inMemory ? ':memory:' : path.join(deps.dataDir, 'history.db');
  const store = HistoryStore.open(file, deps.logger, {
    retentionDays: deps.retentionDays,
  });
  const now = deps.clock.now();
  const windowMs = parseSince(deps.since);
  const history = PipelineHistory.open(store, now, now - windowMs, {
    // Memory holds the window every answer defaults to (at least the AI's week) and a day more;
    // older days are read from the store when a view needs them.
    hotStart: (at) => at - Math.max(windowMs, HOT_MIN_MS) - DAY_MS,
    runsKept: REGRESSION_RULE.recent_runs + REGRESSION_RULE.baseline_runs,
  });
  let poller: PipelinePoller | null = null;
  const since = () => poller?.target.since ?? deps.since;
  const testReports = openTestReports({
    store,
    history,
    gitlab: deps.gitlab,
    clock: deps.clock,
    logger: deps.logger,
    since,
  });
  const recorder = new HistoryRecorder({
    history,
    gitlab: deps.gitlab,
    reads: deps.reads,
    clock: deps.clock,
    logger: deps.logger,
    group: () => poller?.target.group ?? '',
    onJobsStored: (pipeline, jobs) => testReports.recorder.jobsStored(pipeline, jobs),
  });
  const window = since;
  const health = new HealthService({
    history,
    clock: deps.clock,
    since,
    currentUsername: cachedUsername(deps.gitlab),
    flakyTests: (projectId, jobName, fromMs) =>
      testReports.service.flakyTestsOf(projectId, jobName, fromMs),
  });
  // Reports left unread at the last stop are read once the history knows their pipelines again.
  history.loadAll().then(
    () => testReports.recorder.resume(),
    (err: unknown) => {
      deps.logger.warn({ err: (err as Error).message }, 'reading the pipeline history failed');
    },
  );
  // Pruning a large file takes seconds: not before the first summary.
  const firstPrune = setTimeout(() => history.prune(deps.clock.now()), FIRST_PRUNE_MS);
  firstPrune.unref();
  const prune = setInterval(() => history.prune(deps.clock.now()), 6 * 3_600_000);
  prune.unref();
  return {
    observer: recorder,
    health,
    routes: healthRoutes({ health }),
    warmStart(p) {
      poller = p;
      const state = recorder.warmState(parseSince(p.target.since));
      if (state) p.restore(state);
      return state !== null;
    },
    mergeRequests: mergeRequestLookup(history),
    testReports,
    // The history's job reads queue the report reads: both are done when the reports are.
    idle: async () => {
      await recorder.idle();
      await testReports.recorder.idle();
    },
    history,
    signatures: store.signatures,
    window,
    async flakeHistory(projectId, jobName) {
      try {
        return (await health.flakeHistory(projectId, jobName)).summary;
      } catch {
        return undefined;
      }
    },
    close() {
      clearTimeout(firstPrune);
      clearInterval(prune);
      recorder.stop();
      testReports.recorder.stop();
      history.flush();
      store.close();
    },
  };
}

/** The token's username, asked once (a failure is asked again next time). */
function cachedUsername(gitlab: GitLabApi): () => Promise<string> {
  let name: Promise<string> | null = null;
  return () => {
    name ??= gitlab.getCurrentUser().then(
      (u) => u.username,
      (err: unknown) => {
        name = null;
        throw err;
      },
    );
    return name;
  };
}
