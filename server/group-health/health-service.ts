import type { PipelineHistory } from '../history/pipeline-history.ts';
import type { Clock } from '../platform/clock.ts';
import type { MergeRequestLookup } from '../summary/merge-request-ref.ts';
import { parseSince } from '../summary/since.ts';
import type {
  DefaultBranchesResponse,
  FailuresResponse,
  FlakyJobsResponse,
  RegressionsResponse,
  TrendsResponse,
} from './contract.ts';
import { listFailures, type FailureFilter } from './failures.ts';
import { flakeHistory, type FlakeHistory } from './flaky-jobs.ts';
import { computeGroupHealth, type GroupHealth } from './group-health.ts';
import { HealthIndex } from './health-index.ts';
import { projectTrends } from './regressions.ts';

/** What the health service reads. */
export interface HealthServiceDeps {
  history: PipelineHistory;
  clock: Clock;
  /** The summary's window (`7d`): the default window of every health answer. */
  since: () => string;
  /** The GitLab username of the token's user, for `user=mine` (cached by the caller). */
  currentUsername: () => Promise<string>;
  /** Tests of a project's job that flaked since `fromMs` (`classname name`), from its JUnit reports. */
  flakyTests?: (projectId: number, jobName: string, fromMs: number) => string[];
}

/** The history's remembered merge requests as a lookup (an empty title counts as unknown). */
export function mergeRequestLookup(history: PipelineHistory): MergeRequestLookup {
  return (projectId, iid) => {
    const mr = history.mergeRequest(projectId, iid);
    return mr && { title: mr.title || null, webUrl: mr.webUrl };
  };
}

/** A cached computation is reused while history is unchanged and it is younger than this. */
const MAX_AGE_MS = 30_000;
/** Windows cached at once (the default one and a few the dashboard asked for). */
const CACHED_WINDOWS = 4;

/**
 * Group health on demand: recomputed from the pipeline history only when the history changed (or
 * the answer is older than 30 s, since "broken for" moves with the clock), per window.
 */
export class HealthService {
  private readonly cache = new Map<string, { version: number; at: number; health: GroupHealth }>();

  private readonly mergeRequests: MergeRequestLookup;

  constructor(private readonly deps: HealthServiceDeps) {
    this.mergeRequests = mergeRequestLookup(deps.history);
  }

  /** The health of the group over `since` (default: the summary's window). A bad `since` is a 400. */
  health(since?: string): GroupHealth {
    const window = since ?? this.deps.since();
    const windowMs = parseSince(window);
    const now = this.deps.clock.now();
    const version = this.deps.history.version;
    const cached = this.cache.get(window);
    if (cached && cached.version === version && now - cached.at < MAX_AGE_MS) return cached.health;
    const history = this.deps.history;
    // A window longer than memory holds reads its older days for this answer only.
    const health = computeGroupHealth({
      snapshot: history.snapshotFrom(now - windowMs),
      now,
      windowMs,
      since: window,
      mergeRequests: this.mergeRequests,
    });
    this.cache.delete(window);
    this.cache.set(window, { version, at: now, health });
    while (this.cache.size > CACHED_WINDOWS) this.cache.delete(this.cache.keys().next().value!);
    return health;
  }

  /**
   * Group health over the summary's window, with the whole retention read: what the cctray feed
   * and the metrics are computed from (a default branch last built ten days ago still has a state).
   */
  async current(): Promise<GroupHealth> {
    await this.deps.history.loadAll();
    return this.health();
  }

  /** GET /api/health/default-branches */
  async defaultBranches(since?: string): Promise<DefaultBranchesResponse> {
    await this.deps.history.loadAll();
    return this.health(since).defaultBranches;
  }

  /** GET /api/health/flaky-jobs */
  async flakyJobs(since?: string): Promise<FlakyJobsResponse> {
    await this.deps.history.loadAll();
    const report = this.health(since).flakyJobs;
    const explain = this.deps.flakyTests;
    if (!explain) return report;
    // Named at answer time: the reports are read after the jobs, on their own schedule.
    const fromMs = Date.parse(report.window.from);
    return {
      ...report,
      jobs: report.jobs.map((job) => ({
        ...job,
        flaky_tests: [
          ...new Set(job.projects.flatMap((p) => explain(p.project_id, job.job_name, fromMs))),
        ].sort(),
      })),
    };
  }

  /** GET /api/health/regressions */
  async regressions(): Promise<RegressionsResponse> {
    await this.deps.history.loadAll();
    return this.health().regressions;
  }

  /** GET /api/health/trends: one project's daily trends over the last `days` (default: retention). */
  async trends(projectId: number, days?: number): Promise<TrendsResponse | null> {
    await this.deps.history.loadAll();
    const { input } = this.health().index;
    const span = Math.min(days ?? this.deps.history.retentionDays, this.deps.history.retentionDays);
    // One project over the whole retention: read from the store for this answer.
    const index = new HealthIndex({
      ...input,
      snapshot: this.deps.history.projectHistory(projectId),
    });
    return projectTrends(index, projectId, input.now - span * 86_400_000);
  }

  /** GET /api/pipelines/failures; `user: 'mine'` means the token's user. */
  async failures(
    filter: Omit<FailureFilter, 'username'> & { user?: string; since?: string },
  ): Promise<FailuresResponse> {
    const username = filter.user === 'mine' ? await this.deps.currentUsername() : filter.user;
    await this.deps.history.loadAll();
    const health = this.health(filter.since);
    return listFailures(health.index, health.flakes, { ...filter, username });
  }

  /** A job's flake history over the last 7 days, in words for the AI prompt. */
  async flakeHistory(projectId: number, jobName: string): Promise<FlakeHistory> {
    await this.deps.history.loadAll();
    return flakeHistory(this.health('7d').flakes, projectId, jobName, 'this week');
  }
}
