import type { ActivityResponse, ProjectSummary } from '../../server/contract.ts';

/** One bar of the timeline: pipelines created in [start, end) split by outcome. */
export interface TimelineBucket {
  start: number;
  end: number;
  success: number;
  failed: number;
  running: number;
  other: number;
  /** The window starts inside this bar: it covers only part of its hour or day. */
  partial?: boolean;
}

/** The timeline of a window: hourly up to two days, daily beyond (days are UTC days). */
export interface Timeline {
  unit: 'hour' | 'day';
  /** Days per bar when a long window merges days (1 otherwise). */
  daysPerBar: number;
  buckets: TimelineBucket[];
  max: number;
  total: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Longest a timeline gets before bars become unreadable; longer windows merge days. */
export const MAX_BUCKETS = 60;

const count = (b: Omit<TimelineBucket, 'start' | 'end'>) =>
  b.success + b.failed + b.running + b.other;

/**
 * The chart's bars from the service's activity buckets (every pipeline in the window). Windows of
 * more than MAX_BUCKETS days merge consecutive days into one bar so the chart stays readable;
 * merging never drops a pipeline.
 */
export function timelineFromActivity(
  activity: Pick<ActivityResponse, 'bucket' | 'buckets' | 'window_start'>,
  maxBuckets = MAX_BUCKETS,
): Timeline {
  const size = activity.bucket === 'hour' ? HOUR : DAY;
  const step =
    activity.bucket === 'day' ? Math.max(1, Math.ceil(activity.buckets.length / maxBuckets)) : 1;
  const buckets: TimelineBucket[] = [];
  for (let i = 0; i < activity.buckets.length; i += step) {
    const group = activity.buckets.slice(i, i + step);
    const start = Date.parse(group[0]!.start);
    const bar: TimelineBucket = {
      start,
      end: start + group.length * size,
      success: 0,
      failed: 0,
      running: 0,
      other: 0,
    };
    const windowStart = activity.window_start ? Date.parse(activity.window_start) : -Infinity;
    if (start < windowStart) bar.partial = true;
    for (const b of group) {
      bar.success += b.success;
      bar.failed += b.failed;
      bar.running += b.running;
      bar.other += b.other;
    }
    buckets.push(bar);
  }
  const totals = buckets.map(count);
  return {
    unit: activity.bucket,
    daysPerBar: step,
    buckets,
    max: Math.max(0, ...totals),
    total: totals.reduce((a, b) => a + b, 0),
  };
}

/** Every recent pipeline of every project, with its project, newest first. */
export function allRecentPipelines(projects: readonly ProjectSummary[]) {
  return projects
    .flatMap((project) => project.recent_pipelines.map((pipeline) => ({ project, pipeline })))
    .sort((a, b) => Date.parse(b.pipeline.created_at) - Date.parse(a.pipeline.created_at));
}
