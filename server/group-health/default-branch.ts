import type { PipelineHistoryRecord } from '../history/model.ts';
import { isMergeRequestPipeline } from '../history/model.ts';
import type {
  BrokenJob,
  DefaultBranchesResponse,
  DefaultBranchHealth,
  SuccessRate,
  SuccessRateSplit,
  TimeToFixStats,
} from './contract.ts';
import type { HealthIndex } from './health-index.ts';
import { median, percent, percentileSorted } from './stats.ts';

/** Pipelines listed after `broken_since` at most. */
const PIPELINES_SINCE_LIMIT = 20;

const STATE_ORDER = { broken: 0, passing: 1, unknown: 2 } as const;
const RATE_SCOPES: readonly RateScope[] = ['default_branch', 'merge_requests', 'all'];

interface RateCounter {
  successful: number;
  failed: number;
}

const counter = (): RateCounter => ({ successful: 0, failed: 0 });
const toRate = (c: RateCounter): SuccessRate => ({
  successful: c.successful,
  failed: c.failed,
  success_rate: percent(c.successful, c.successful + c.failed),
});

/** Which pipelines a success rate (and the failures list's `scope` filter) counts. */
export type RateScope = keyof SuccessRateSplit;

/**
 * True when `p` counts toward `scope`'s rate: the default branch, merge-request pipelines not on
 * the default branch, or all. The failures list filters by the same rule, so "28 failed" opens 28.
 */
export function inRateScope(
  p: Pick<PipelineHistoryRecord, 'defaultBranch' | 'ref' | 'source'>,
  scope: RateScope,
): boolean {
  if (scope === 'default_branch') return p.defaultBranch;
  if (scope === 'merge_requests') return !p.defaultBranch && isMergeRequestPipeline(p);
  return true;
}

function count(c: RateCounter, status: string): void {
  if (status === 'success') c.successful++;
  else if (status === 'failed') c.failed++;
}

/** Statistics over fix durations (seconds); nulls when there were none. */
export function timeToFixStats(durations: readonly number[]): TimeToFixStats {
  if (durations.length === 0)
    return {
      fixes: 0,
      median_seconds: null,
      p90_seconds: null,
      max_seconds: null,
      mean_seconds: null,
    };
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    fixes: sorted.length,
    median_seconds: Math.round(median(sorted)!),
    p90_seconds: Math.round(percentileSorted(sorted, 90)!),
    max_seconds: Math.round(sorted[sorted.length - 1]!),
    mean_seconds: Math.round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

/**
 * Default-branch health of every watched project and the success-rate split.
 *
 * - The state comes from the newest *finished* (success or failed) default-branch pipeline in the
 *   retained history, not only the window: a branch broken ten days ago is still broken today.
 *   Canceled and skipped pipelines say nothing about the code, so they do not change the state.
 * - Broken since: the first failed pipeline after the last successful one.
 * - Time to fix: from a breaking pipeline's creation to the finish of the first successful
 *   default-branch pipeline after it, for recoveries finishing inside the window.
 * - Success rates (DESIGN §3.1's formula) over the window's pipelines: default branch only,
 *   merge-request pipelines only, and all.
 */
export function defaultBranchHealth(index: HealthIndex): DefaultBranchesResponse {
  const now = index.input.now;
  const projects: DefaultBranchHealth[] = [];
  const overall = { default_branch: counter(), merge_requests: counter(), all: counter() };
  const allFixes: number[] = [];
  for (const [projectId, pipelines] of index.pipelinesByProject) {
    const project = index.projects.get(projectId)!;
    const rates = { default_branch: counter(), merge_requests: counter(), all: counter() };
    const onDefault: PipelineHistoryRecord[] = [];
    for (const p of pipelines) {
      if (p.defaultBranch) onDefault.push(p);
      if (p.createdAt < index.from) continue;
      for (const scope of RATE_SCOPES)
        if (inRateScope(p, scope)) {
          count(rates[scope], p.status);
          count(overall[scope], p.status);
        }
    }
    // Walk the default branch oldest → newest, tracking red streaks and their recoveries.
    let streakStart: PipelineHistoryRecord | null = null;
    let lastFinished: PipelineHistoryRecord | null = null;
    const fixes: number[] = [];
    for (const p of onDefault) {
      if (p.status === 'failed') {
        streakStart ??= p;
        lastFinished = p;
      } else if (p.status === 'success') {
        const fixedAt = p.finishedAt ?? p.createdAt;
        if (streakStart && fixedAt >= index.from)
          fixes.push((fixedAt - streakStart.createdAt) / 1000);
        streakStart = null;
        lastFinished = p;
      }
    }
    allFixes.push(...fixes);
    const state = lastFinished === null ? 'unknown' : streakStart ? 'broken' : 'passing';
    const since = state === 'broken' ? onDefault.slice(onDefault.indexOf(streakStart!) + 1) : [];
    const latest = onDefault[onDefault.length - 1];
    projects.push({
      project_id: projectId,
      project_name: project.name,
      project_path: project.path,
      web_url: project.webUrl,
      default_branch: project.defaultBranch,
      state,
      latest: latest ? index.toHealthPipeline(latest) : null,
      broken_since: state === 'broken' ? index.toHealthPipeline(streakStart!) : null,
      broken_jobs: state === 'broken' ? brokenJobs(index, streakStart!.pipelineId) : [],
      broken_for_seconds:
        state === 'broken' ? Math.max(0, Math.round((now - streakStart!.createdAt) / 1000)) : null,
      pipelines_since: since
        .slice(-PIPELINES_SINCE_LIMIT)
        .reverse()
        .map((p) => index.toHealthPipeline(p)),
      pipelines_since_count: since.length,
      time_to_fix: timeToFixStats(fixes),
      success_rates: split(rates),
    });
  }
  projects.sort(
    (a, b) =>
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      (a.broken_for_seconds !== null && b.broken_for_seconds !== null
        ? b.broken_for_seconds - a.broken_for_seconds
        : 0) ||
      a.project_name.localeCompare(b.project_name) ||
      a.project_id - b.project_id,
  );
  return {
    window: index.window,
    broken: projects.filter((p) => p.state === 'broken').length,
    passing: projects.filter((p) => p.state === 'passing').length,
    unknown: projects.filter((p) => p.state === 'unknown').length,
    projects,
    success_rates: split(overall),
    time_to_fix: timeToFixStats(allFixes),
  };
}

/** The failed final attempts of a pipeline, blocking ones first, then by job id. */
function brokenJobs(index: HealthIndex, pipelineId: number): BrokenJob[] {
  return (index.jobsByPipeline.get(pipelineId) ?? [])
    .filter((j) => j.status === 'failed' && !j.retried)
    .sort((a, b) => Number(a.allowFailure) - Number(b.allowFailure) || a.jobId - b.jobId)
    .map((j) => ({
      job_id: j.jobId,
      name: j.name,
      stage: j.stage,
      allow_failure: j.allowFailure,
      failure_reason: j.failureReason,
      web_url: j.webUrl,
    }));
}

function split(c: {
  default_branch: RateCounter;
  merge_requests: RateCounter;
  all: RateCounter;
}): SuccessRateSplit {
  return {
    default_branch: toRate(c.default_branch),
    merge_requests: toRate(c.merge_requests),
    all: toRate(c.all),
  };
}
