import { statusOutcome, type ActivityResponse, type ContributorActivity } from '../contract.ts';
import type { PipelineRecord } from './model.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Hourly buckets up to two days, daily beyond: a readable number of bars either way. */
export function bucketSizeFor(windowMs: number): number {
  return windowMs <= 2 * DAY ? HOUR : DAY;
}

/**
 * Pipelines per time bucket split by outcome, and pipelines per user, over every pipeline in the
 * window (the summary's recent_pipelines only carry each project's newest ten). Buckets are aligned
 * to UTC hours/days and cover the whole window, empty ones included, oldest first.
 */
export function computeActivity(
  records: Iterable<PipelineRecord>,
  now: number,
  windowMs: number,
  since: string,
): ActivityResponse {
  const bucketMs = bucketSizeFor(windowMs);
  const cutoff = now - windowMs;
  const first = Math.floor(cutoff / bucketMs) * bucketMs;
  const count = Math.floor(now / bucketMs) - Math.floor(cutoff / bucketMs) + 1;
  const buckets = Array.from({ length: count }, (_, i) => ({
    start: new Date(first + i * bucketMs).toISOString(),
    success: 0,
    failed: 0,
    running: 0,
    other: 0,
  }));
  const users = new Map<string, ContributorActivity>();
  for (const p of records) {
    if (p.createdAt < cutoff) continue;
    const bucket = buckets[Math.floor((p.createdAt - first) / bucketMs)];
    const outcome = statusOutcome(p.status);
    if (bucket) bucket[outcome]++;
    if (!p.user) continue;
    let user = users.get(p.user.username);
    if (!user) {
      user = {
        username: p.user.username,
        name: p.user.name,
        avatar_url: p.user.avatarUrl,
        pipelines: 0,
        successful: 0,
        failed: 0,
        success_rate: 0,
      };
      users.set(p.user.username, user);
    }
    user.pipelines++;
    if (outcome === 'success') user.successful++;
    if (outcome === 'failed') user.failed++;
  }
  const contributors = [...users.values()]
    .map((u) => ({
      ...u,
      success_rate:
        u.successful + u.failed === 0
          ? 0
          : Math.round((u.successful / (u.successful + u.failed)) * 1000) / 10,
    }))
    .sort((a, b) => b.pipelines - a.pipelines || a.name.localeCompare(b.name));
  return {
    since,
    bucket: bucketMs === HOUR ? 'hour' : 'day',
    buckets,
    contributors,
    window_start: new Date(cutoff).toISOString(),
  };
}
