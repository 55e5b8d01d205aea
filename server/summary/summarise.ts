import {
  statusOutcome,
  type OverallSummary,
  type ProjectSummary,
  type RecentPipeline,
  type SummaryResponse,
} from '../contract.ts';
import { refLabel, type MergeRequestLookup } from './merge-request-ref.ts';
import type { PipelineRecord, Project } from './model.ts';

/** How many pipelines `recent_pipelines` lists per project. */
export const RECENT_PIPELINES = 10;

/** Rounds a percentage to one decimal place. */
function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

/** Mean of `count` durations summing to `sum`, in integer seconds; 0 when none has a duration. */
function averageSeconds(sum: number, count: number): number {
  return count === 0 ? 0 : Math.round(sum / count);
}

function toRecent(
  p: PipelineRecord,
  project: Project,
  mergeRequests?: MergeRequestLookup,
): RecentPipeline {
  return {
    pipeline_id: p.id,
    status: p.status,
    ref: p.ref,
    ...refLabel(project.id, p.ref, project.webUrl, mergeRequests),
    source: p.source,
    created_at: new Date(p.createdAt).toISOString(),
    duration: p.duration,
    web_url: p.webUrl,
    user: p.user
      ? { username: p.user.username, name: p.user.name, avatar_url: p.user.avatarUrl }
      : null,
    // Failed pipelines carry what the overview's failure row opens, so it needs no details fetch.
    ...(p.status === 'failed' && p.failure
      ? {
          failing_job_id: p.failure.jobId,
          commit_title: p.failure.commitTitle,
          failing_job_name: p.failure.job?.name ?? null,
          ...(p.failure.downstream === undefined
            ? {}
            : { downstream_failure: p.failure.downstream }),
        }
      : {}),
  };
}

const newestFirst = (a: PipelineRecord, b: PipelineRecord) =>
  b.createdAt - a.createdAt || b.id - a.id;

/**
 * Computes the summary exactly as DESIGN §3.1 defines every number: the window is
 * `created_at >= now - windowMs`; running = active statuses; success rate = success / (success +
 * failed), one decimal, 0 when nothing finished; durations are integer seconds; projects ordered by
 * most recent pipeline activity (projects without pipelines in the window last, by name). MR refs
 * are labelled `!iid` with the titles `mergeRequests` knows.
 */
export function summarise(
  projects: Iterable<Project>,
  pipelinesOf: (projectId: number) => Iterable<PipelineRecord>,
  now: number,
  windowMs: number,
  mergeRequests?: MergeRequestLookup,
): Omit<SummaryResponse, 'status'> {
  const cutoff = now - windowMs;
  const rows: { summary: ProjectSummary; activity: number }[] = [];
  const overall = {
    total: 0,
    successful: 0,
    failed: 0,
    running: 0,
    durationSum: 0,
    durationCount: 0,
  };

  for (const project of projects) {
    const inWindow: PipelineRecord[] = [];
    for (const p of pipelinesOf(project.id)) if (p.createdAt >= cutoff) inWindow.push(p);
    inWindow.sort(newestFirst);

    let successful = 0;
    let failed = 0;
    let running = 0;
    let totalDuration = 0;
    let withDuration = 0;
    let activity = -Infinity;
    for (const p of inWindow) {
      const outcome = statusOutcome(p.status);
      if (outcome === 'success') successful++;
      else if (outcome === 'failed') failed++;
      else if (outcome === 'running') running++;
      if (p.duration !== null) {
        totalDuration += p.duration;
        withDuration++;
        overall.durationSum += p.duration;
        overall.durationCount++;
      }
      // Whole seconds: GraphQL's `Time` has no milliseconds where REST has them (gitlabhq
      // app/graphql/types/time_type.rb, `value.iso8601`), and the order must not depend on the API.
      activity = Math.max(activity, Math.floor((Date.parse(p.updatedAt) || p.createdAt) / 1000));
    }
    overall.total += inWindow.length;
    overall.successful += successful;
    overall.failed += failed;
    overall.running += running;

    rows.push({
      activity,
      summary: {
        project_id: project.id,
        project_name: project.name,
        total_pipelines: inWindow.length,
        successful,
        failed,
        running,
        total_duration: totalDuration,
        success_rate: percent(successful, successful + failed),
        recent_pipelines: inWindow
          .slice(0, RECENT_PIPELINES)
          .map((p) => toRecent(p, project, mergeRequests)),
        project_path: project.path,
        web_url: project.webUrl,
        average_duration: averageSeconds(totalDuration, withDuration),
      },
    });
  }

  rows.sort(
    (a, b) =>
      b.activity - a.activity ||
      a.summary.project_name.localeCompare(b.summary.project_name) ||
      a.summary.project_id - b.summary.project_id,
  );
  const summary: OverallSummary = {
    total_pipelines: overall.total,
    successful: overall.successful,
    failed: overall.failed,
    running: overall.running,
    average_duration: averageSeconds(overall.durationSum, overall.durationCount),
    overall_success_rate: percent(overall.successful, overall.successful + overall.failed),
  };
  return { projects: rows.map((r) => r.summary), summary };
}
