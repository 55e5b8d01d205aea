import type { ProjectSummary } from '../../server/contract.ts';
import { statusKind } from './format.ts';

/** One bar of the timeline: pipelines created in [start, end) split by outcome. */
export interface TimelineBucket {
  start: number;
  end: number;
  success: number;
  failed: number;
  running: number;
  other: number;
}

/** The timeline of a window: hourly up to two days, daily beyond. */
export interface Timeline {
  unit: 'hour' | 'day';
  buckets: TimelineBucket[];
  max: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Longest a timeline gets before bars become unreadable; longer windows merge days. */
const MAX_BUCKETS = 60;

/**
 * Buckets pipelines by creation time over the window ending at `now`. Hour buckets align to the hour,
 * day buckets to local midnight, so bars match what a user reads on a clock.
 */
export function bucketTimeline(
  pipelines: readonly { created_at: string; status: string }[],
  options: { now: Date; windowMs: number },
): Timeline {
  const { now, windowMs } = options;
  const unit: Timeline['unit'] = windowMs <= 2 * DAY ? 'hour' : 'day';
  const from = now.getTime() - windowMs;
  const starts: number[] = [];
  let lastEnd: number;
  if (unit === 'hour') {
    const first = Math.floor(from / HOUR) * HOUR;
    for (let t = first; t <= now.getTime(); t += HOUR) starts.push(t);
    lastEnd = starts[starts.length - 1]! + HOUR;
  } else {
    const d = new Date(from);
    d.setHours(0, 0, 0, 0);
    const days: number[] = [];
    for (; d.getTime() <= now.getTime(); d.setDate(d.getDate() + 1)) days.push(d.getTime());
    const step = Math.ceil(days.length / MAX_BUCKETS);
    for (let i = 0; i < days.length; i += step) starts.push(days[i]!);
    const end = new Date(starts[starts.length - 1]!);
    end.setDate(end.getDate() + step);
    lastEnd = end.getTime();
  }
  const buckets: TimelineBucket[] = starts.map((start, i) => ({
    start,
    end: starts[i + 1] ?? lastEnd,
    success: 0,
    failed: 0,
    running: 0,
    other: 0,
  }));
  for (const p of pipelines) {
    const t = Date.parse(p.created_at);
    if (Number.isNaN(t) || t < from || t > now.getTime()) continue;
    // Binary search for the last bucket starting at or before t.
    let lo = 0;
    let hi = buckets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (buckets[mid]!.start <= t) lo = mid;
      else hi = mid - 1;
    }
    const b = buckets[lo];
    if (!b || b.start > t) continue;
    const kind = statusKind(p.status);
    if (kind === 'success') b.success++;
    else if (kind === 'failed') b.failed++;
    else if (kind === 'running') b.running++;
    else b.other++;
  }
  const max = Math.max(0, ...buckets.map((b) => b.success + b.failed + b.running + b.other));
  return { unit, buckets, max };
}

/** Every recent pipeline of every project, with its project, newest first. */
export function allRecentPipelines(projects: readonly ProjectSummary[]) {
  return projects
    .flatMap((project) => project.recent_pipelines.map((pipeline) => ({ project, pipeline })))
    .sort((a, b) => Date.parse(b.pipeline.created_at) - Date.parse(a.pipeline.created_at));
}

/** A contributor: who triggered pipelines, how many, and how many of the finished ones passed. */
export interface Contributor {
  username: string;
  name: string;
  avatarUrl: string;
  pipelines: number;
  successful: number;
  failed: number;
  successRate: number;
}

/** Top contributors by pipeline count over the projects' recent pipelines. */
export function topContributors(projects: readonly ProjectSummary[], limit = 6): Contributor[] {
  const byUser = new Map<string, Contributor>();
  for (const project of projects) {
    for (const p of project.recent_pipelines) {
      if (!p.user) continue;
      let c = byUser.get(p.user.username);
      if (!c) {
        c = {
          username: p.user.username,
          name: p.user.name,
          avatarUrl: p.user.avatar_url,
          pipelines: 0,
          successful: 0,
          failed: 0,
          successRate: 0,
        };
        byUser.set(p.user.username, c);
      }
      c.pipelines++;
      const kind = statusKind(p.status);
      if (kind === 'success') c.successful++;
      if (kind === 'failed') c.failed++;
    }
  }
  for (const c of byUser.values()) {
    const finished = c.successful + c.failed;
    c.successRate = finished === 0 ? 0 : Math.round((c.successful / finished) * 1000) / 10;
  }
  return [...byUser.values()]
    .sort((a, b) => b.pipelines - a.pipelines || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/**
 * From when the projects' recent pipelines are complete. The live summary carries each project's
 * newest pipelines only (10), so before the oldest of those in a busy project some pipelines are
 * missing; a chart drawn over that part would show false gaps.
 */
export function coverageStart(projects: readonly ProjectSummary[], windowStart: number): number {
  let start = windowStart;
  for (const p of projects) {
    if (p.recent_pipelines.length >= p.total_pipelines) continue;
    const oldest = Math.min(...p.recent_pipelines.map((r) => Date.parse(r.created_at)));
    if (Number.isFinite(oldest)) start = Math.max(start, oldest);
  }
  return start;
}
