import type { JobHistoryRecord, PipelineHistoryRecord } from '../history/model.ts';
import type {
  DurationRegression,
  JobTrend,
  RegressionRule,
  RegressionsResponse,
  SlowRun,
  TrendDay,
  TrendsResponse,
} from './contract.ts';
import type { HealthIndex } from './health-index.ts';
import { median, percentileSorted, utcDay } from './stats.ts';

/**
 * The regression rule (docs/health.md): over a job's successful runs, oldest first, the median of
 * the last `recent_runs` is at least `ratio` × the median of the up to `baseline_runs` before them,
 * and at least `min_increase_seconds` more (a 4 s job taking 5 s is not worth a headline). It needs
 * `recent_runs` + `min_baseline_runs` runs; fewer and nothing is said.
 */
export const REGRESSION_RULE: RegressionRule = {
  recent_runs: 10,
  baseline_runs: 30,
  min_baseline_runs: 10,
  ratio: 1.25,
  min_increase_seconds: 10,
};

/** Share of slow runs from the first slow run to the newest (tolerates a fast outlier or two). */
const SLOW_SHARE = 0.8;

/** One successful run of a job or pipeline. */
export interface DurationRun {
  duration: number;
  queued: number | null;
  pipeline: PipelineHistoryRecord;
  job: JobHistoryRecord | null;
}

/** A project's successful runs per job name, and its successful default-branch pipelines. */
export interface ProjectRuns {
  /** Oldest first. */
  jobs: Map<string, DurationRun[]>;
  /** Oldest first. */
  pipeline: DurationRun[];
}

/**
 * A project's successful runs, oldest first, over the retained history — or, with `limit`, only
 * the newest `limit` runs of each series (all regression detection needs). Job names are scoped to
 * their project: `test` in two projects is two jobs with two speeds. With a limit the walk goes from
 * the newest pipeline back and stops once every job name seen so far has its runs; a job name first
 * met further back has not run in that time and is not reported.
 */
export function collectRuns(index: HealthIndex, projectId: number, limit = Infinity): ProjectRuns {
  const pipelines = index.pipelinesByProject.get(projectId) ?? [];
  const jobs = new Map<string, DurationRun[]>();
  const pipeline: DurationRun[] = [];
  for (let i = pipelines.length - 1; i >= 0 && pipeline.length < limit; i--) {
    const p = pipelines[i]!;
    if (p.status === 'success' && p.defaultBranch && p.duration !== null)
      pipeline.push({ duration: p.duration, queued: p.queuedDuration, pipeline: p, job: null });
  }
  let open = 0;
  for (let i = pipelines.length - 1; i >= 0; i--) {
    const p = pipelines[i]!;
    const attempts = index.jobsByPipeline.get(p.pipelineId);
    if (!attempts) continue;
    for (let j = attempts.length - 1; j >= 0; j--) {
      const job = attempts[j]!;
      if (job.status !== 'success' || job.duration === null) continue;
      let list = jobs.get(job.name);
      if (!list) {
        jobs.set(job.name, (list = []));
        open++;
      }
      if (list.length >= limit) continue;
      list.push({ duration: job.duration, queued: job.queuedDuration, pipeline: p, job });
      if (list.length === limit) open--;
    }
    if (open === 0 && jobs.size > 0 && Number.isFinite(limit)) break;
  }
  for (const list of jobs.values()) list.reverse();
  pipeline.reverse();
  return { jobs, pipeline };
}

/** Applies REGRESSION_RULE to runs (oldest first); the slowdown and where it started, or null. */
export function detectRegression(
  runs: readonly DurationRun[],
  rule: RegressionRule = REGRESSION_RULE,
): {
  recentMedian: number;
  baselineMedian: number;
  baselineRuns: number;
  firstSlow: DurationRun;
} | null {
  if (runs.length < rule.recent_runs + rule.min_baseline_runs) return null;
  const recent = runs.slice(-rule.recent_runs);
  const baseline = runs.slice(
    Math.max(0, runs.length - rule.recent_runs - rule.baseline_runs),
    runs.length - rule.recent_runs,
  );
  const recentMedian = median(recent.map((r) => r.duration))!;
  const baselineMedian = median(baseline.map((r) => r.duration))!;
  if (recentMedian < rule.ratio * baselineMedian) return null;
  if (recentMedian - baselineMedian < rule.min_increase_seconds) return null;
  // The first slow run: the earliest run at or above ratio × baseline median from which on at
  // least 80 % of runs are that slow — one slow outlier long before the change is not it.
  const threshold = rule.ratio * baselineMedian;
  const considered = [...baseline, ...recent];
  let slowFromHere = 0;
  let firstSlow = recent[recent.length - 1]!;
  for (let i = considered.length - 1; i >= 0; i--) {
    const slow = considered[i]!.duration >= threshold;
    if (slow) slowFromHere++;
    if (slow && slowFromHere / (considered.length - i) >= SLOW_SHARE) firstSlow = considered[i]!;
  }
  return { recentMedian, baselineMedian, baselineRuns: baseline.length, firstSlow };
}

function toSlowRun(run: DurationRun): SlowRun {
  const p = run.pipeline;
  return {
    pipeline_id: p.pipelineId,
    job_id: run.job?.jobId ?? null,
    sha: p.sha,
    short_sha: p.sha.slice(0, 8),
    commit_title: p.commitTitle,
    commit_author: p.commitAuthor,
    created_at: new Date(p.createdAt).toISOString(),
    duration: Math.round(run.duration),
    web_url: run.job?.webUrl || p.webUrl,
  };
}

function regressionOf(
  index: HealthIndex,
  projectId: number,
  jobName: string | null,
  runs: readonly DurationRun[],
): DurationRegression | null {
  const found = detectRegression(runs);
  if (!found) return null;
  return {
    kind: jobName === null ? 'pipeline' : 'job',
    project_id: projectId,
    project_name: index.projectName(projectId),
    job_name: jobName,
    recent_median: Math.round(found.recentMedian),
    baseline_median: Math.round(found.baselineMedian),
    ratio: Math.round((found.recentMedian / found.baselineMedian) * 100) / 100,
    baseline_runs: found.baselineRuns,
    first_slow: toSlowRun(found.firstSlow),
  };
}

/** Every job and default-branch pipeline that got slower, largest slowdown first. */
export function durationRegressions(index: HealthIndex): RegressionsResponse {
  const window = REGRESSION_RULE.recent_runs + REGRESSION_RULE.baseline_runs;
  const regressions: DurationRegression[] = [];
  for (const projectId of index.pipelinesByProject.keys()) {
    const runs = collectRuns(index, projectId, window);
    const own = regressionOf(index, projectId, null, runs.pipeline);
    if (own) regressions.push(own);
    for (const [name, series] of runs.jobs) {
      const found = regressionOf(index, projectId, name, series);
      if (found) regressions.push(found);
    }
  }
  regressions.sort(
    (a, b) =>
      b.ratio - a.ratio ||
      a.project_name.localeCompare(b.project_name) ||
      (a.job_name ?? '').localeCompare(b.job_name ?? ''),
  );
  return { rule: REGRESSION_RULE, regressions };
}

/** p50/p90 of duration and queue time per UTC day from `fromMs` to `toMs`, empty days included. */
export function dailyTrend(runs: readonly DurationRun[], fromMs: number, toMs: number): TrendDay[] {
  const DAY = 86_400_000;
  const first = Math.floor(fromMs / DAY);
  const last = Math.floor(toMs / DAY);
  const buckets: { durations: number[]; queued: number[] }[] = Array.from(
    { length: last - first + 1 },
    () => ({ durations: [], queued: [] }),
  );
  for (const run of runs) {
    const bucket = buckets[Math.floor(run.pipeline.createdAt / DAY) - first];
    if (!bucket) continue;
    bucket.durations.push(run.duration);
    if (run.queued !== null) bucket.queued.push(run.queued);
  }
  return buckets.map((b, i) => {
    const d = b.durations.sort((x, y) => x - y);
    const q = b.queued.sort((x, y) => x - y);
    const round = (v: number | null) => (v === null ? null : Math.round(v));
    return {
      day: utcDay((first + i) * DAY),
      runs: d.length,
      duration_p50: round(percentileSorted(d, 50)),
      duration_p90: round(percentileSorted(d, 90)),
      queued_p50: round(percentileSorted(q, 50)),
      queued_p90: round(percentileSorted(q, 90)),
    };
  });
}

/** One project's daily trends (pipeline and each job name), each with its regression if any. */
export function projectTrends(
  index: HealthIndex,
  projectId: number,
  fromMs: number,
): TrendsResponse | null {
  if (!index.projects.has(projectId)) return null;
  const runs = collectRuns(index, projectId);
  const to = index.input.now;
  const trend = (name: string | null, series: readonly DurationRun[]): JobTrend => ({
    job_name: name ?? 'pipeline',
    days: dailyTrend(series, fromMs, to),
    regression: regressionOf(index, projectId, name, series),
  });
  const pipeline = trend(null, runs.pipeline);
  const jobs = [...runs.jobs]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, series]) => trend(name, series));
  const covered = [pipeline, ...jobs]
    .flatMap((t) => t.days.filter((d) => d.runs > 0).map((d) => d.day))
    .sort();
  const dataFrom = covered[0] ?? null;
  const dataTo = covered[covered.length - 1] ?? null;
  return {
    project_id: projectId,
    project_name: index.projectName(projectId),
    from: new Date(fromMs).toISOString(),
    to: new Date(to).toISOString(),
    data_from: dataFrom,
    data_to: dataTo,
    data_days:
      dataFrom && dataTo
        ? Math.round((Date.parse(dataTo) - Date.parse(dataFrom)) / 86_400_000) + 1
        : 0,
    pipeline,
    jobs,
  };
}
