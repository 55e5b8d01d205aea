/** Small, pure formatters for the dashboard's views (the terminal table formats in cli/summary/). */

/** `3725` → `1h 2m`, `59` → `59s`, null → `—`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m}m` : `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d}d` : `${d}d ${h % 24}h`;
}

/** How long ago `iso` was, relative to `now`: `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function timeAgo(iso: string | null | undefined, now: Date): string {
  if (!iso) return '—';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '—';
  const s = Math.round((now.getTime() - then) / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h}h ago`;
  const d = Math.round(h / 24);
  return `${d}d ago`;
}

/** A success rate as shown everywhere: one decimal, `%`. */
export function formatRate(rate: number): string {
  return `${rate.toFixed(1)}%`;
}

/** The colour band of a success rate: good ≥ 90, fair ≥ 70, poor below. */
export function rateBand(rate: number, finished: number): 'good' | 'fair' | 'poor' | 'none' {
  if (finished === 0) return 'none';
  if (rate >= 90) return 'good';
  if (rate >= 70) return 'fair';
  return 'poor';
}

/** GitLab statuses grouped the way the summary counts them (DESIGN §3.1). */
export type StatusKind =
  'success' | 'failed' | 'running' | 'canceled' | 'skipped' | 'manual' | 'other';

const RUNNING = new Set(['created', 'waiting_for_resource', 'preparing', 'pending', 'running']);

/** Groups a GitLab pipeline or job status. */
export function statusKind(status: string): StatusKind {
  if (status === 'success') return 'success';
  if (status === 'failed') return 'failed';
  if (RUNNING.has(status)) return 'running';
  if (status === 'canceled' || status === 'canceling') return 'canceled';
  if (status === 'skipped') return 'skipped';
  if (status === 'manual' || status === 'scheduled') return 'manual';
  return 'other';
}

/** True while a pipeline or job can still change. */
export function isActive(status: string): boolean {
  return RUNNING.has(status);
}

/** Human label for a status: `waiting_for_resource` → `waiting for resource`. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}
