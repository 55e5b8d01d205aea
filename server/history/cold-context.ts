import type { HistoryStore } from './history-store.ts';
import type { JobHistoryRecord, PipelineHistoryRecord } from './model.ts';
import { PackedJobLists } from './packed-jobs.ts';

/** Pipelines read by the first step of the regression walk past memory (doubling after). */
const FIRST_PAGE = 4;
const MAX_PAGE = 64;

/** The successful runs memory holds for one project: per job name, and of the pipeline itself. */
export interface HotRuns {
  jobs: ReadonlyMap<string, number>;
  /** Successful default-branch pipelines with a duration. */
  pipelines: number;
}

/**
 * What the health views need of one project's history older than memory holds, read from the
 * store once (the past does not change) so that a snapshot of memory plus this answers as the
 * whole retention would:
 * - the default branch from its last success before the boundary on (the state, the red streak's
 *   start and the pipelines since it, the newest pipeline), with the streak start's jobs;
 * - the newest successful default-branch pipelines (the pipeline's duration series);
 * - the newest pipelines with jobs until every job name has its successful runs (the job series).
 */
export interface ColdContext {
  pipelines: PipelineHistoryRecord[];
  jobs: Map<number, readonly JobHistoryRecord[]>;
  /** Successful runs with a duration per job name in the pipelines read for the job series. */
  runs: Map<string, number>;
  /** True when the job series walk read to the oldest stored pipeline. */
  reachedEnd: boolean;
  /** Successful default-branch pipelines read for the pipeline series, and whether that was all. */
  pipelineRuns: number;
  allPipelineRuns: boolean;
}

/**
 * Reads a project's cold context before `boundary`. `hot` are the successful runs memory holds for
 * the project, and `runsKept` how many of each series the views read (the regression rule's recent
 * + baseline runs): only what memory lacks is read.
 */
export function readColdContext(
  store: HistoryStore,
  projectId: number,
  boundary: number,
  hot: HotRuns,
  runsKept: number,
  urlOf: (projectId: number) => string | undefined,
): ColdContext {
  const hotRuns = hot.jobs;
  const byId = new Map<number, PipelineHistoryRecord>();
  // Kept until the horizon moves: packed as memory's are.
  const jobs = new PackedJobLists(urlOf);
  const lastSuccess = store.lastDefaultSuccess(projectId, boundary);
  for (const p of store.defaultBranchPipelines(
    projectId,
    lastSuccess?.createdAt ?? Number.MIN_SAFE_INTEGER,
    boundary,
  ))
    byId.set(p.pipelineId, p);
  // broken_jobs name the streak's first failed pipeline's jobs.
  const streakStart = [...byId.values()].find(
    (p) => p.status === 'failed' && (!lastSuccess || p.createdAt >= lastSuccess.createdAt),
  );
  if (streakStart)
    for (const [id, list] of store.jobsOf([streakStart.pipelineId])) jobs.set(id, list);
  const wanted = Math.max(0, runsKept - hot.pipelines);
  const series = wanted > 0 ? store.successfulDefaultRuns(projectId, boundary, wanted) : [];
  for (const p of series) byId.set(p.pipelineId, p);

  // The job series: newest pipelines with jobs until every name seen has `runsKept` runs.
  const runs = new Map<string, number>();
  const needed = (name: string) => (hotRuns.get(name) ?? 0) + (runs.get(name) ?? 0) < runsKept;
  let open = [...hotRuns.keys()].filter(needed).length;
  let seen = hotRuns.size;
  let position = { createdAt: boundary, pipelineId: Number.MIN_SAFE_INTEGER };
  let reachedEnd = false;
  let size = FIRST_PAGE;
  while (open > 0 || seen === 0) {
    const page = store.pipelinesWithJobsBefore(
      projectId,
      position.createdAt,
      position.pipelineId,
      size,
    );
    if (page.length === 0) {
      reachedEnd = true;
      break;
    }
    const pageJobs = store.jobsOf(page.map((p) => p.pipelineId));
    for (const p of page) {
      position = p;
      const attempts = pageJobs.get(p.pipelineId) ?? [];
      byId.set(p.pipelineId, p);
      jobs.set(p.pipelineId, attempts);
      for (const job of attempts) {
        if (job.status !== 'success' || job.duration === null) continue;
        const wasNeeded = needed(job.name);
        if (!hotRuns.has(job.name) && !runs.has(job.name)) {
          seen++;
          open++;
        }
        runs.set(job.name, (runs.get(job.name) ?? 0) + 1);
        if (wasNeeded && !needed(job.name)) open--;
      }
      if (open === 0 && seen > 0) break;
    }
    if (page.length < size && (open > 0 || seen === 0)) reachedEnd = true;
    if (reachedEnd) break;
    size = Math.min(MAX_PAGE, size * 2);
  }
  const pipelines = [...byId.values()].sort(
    (a, b) => a.createdAt - b.createdAt || a.pipelineId - b.pipelineId,
  );
  return {
    pipelines,
    jobs,
    runs,
    reachedEnd,
    pipelineRuns: series.length,
    allPipelineRuns: series.length < wanted,
  };
}

/** True while a cold context still serves memory's job names (none needs runs it did not read). */
export function coversHot(context: ColdContext, hot: HotRuns, runsKept: number): boolean {
  if (!context.allPipelineRuns && context.pipelineRuns + hot.pipelines < runsKept) return false;
  if (context.reachedEnd) return true;
  for (const [name, n] of hot.jobs) if (n + (context.runs.get(name) ?? 0) < runsKept) return false;
  return true;
}
