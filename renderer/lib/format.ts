import type { ActiveStatus } from '../../server/contract.ts';

/**
 * Small, pure formatters of the numbers the server computes: the one copy for the views and the
 * terminal table (cli/summary/render-table.ts imports them; it only passes its own `empty` mark).
 * No DOM and no Node here, so both type-check projects accept this file.
 */

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
] as const;

/**
 * Whole seconds in words, from the largest unit present, keeping `parts` consecutive units and
 * dropping zero ones: `3725` → `1h 2m` (2 parts) or `1h 2m 5s` (4), `90000` → `1d 1h`, `0` → `0s`.
 * The one seconds formatter: the views and the terminal table use 2 parts, token lifetimes 4.
 */
export function formatSeconds(total: number, parts = 2): string {
  let rest = Math.max(0, Math.floor(total));
  const first = UNITS.findIndex(([, size]) => rest >= size);
  if (first === -1) return '0s';
  const words: string[] = [];
  for (const [unit, size] of UNITS.slice(first, first + parts)) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) words.push(`${n}${unit}`);
  }
  return words.join(' ');
}

/** `3725` → `1h 2m`, `59` → `59s`, null → `empty` (`—`). */
export function formatDuration(seconds: number | null | undefined, empty = '—'): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return empty;
  return formatSeconds(Math.round(seconds));
}

/** How long ago `iso` was, relative to `now`: `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function timeAgo(iso: string | null | undefined, now: Date, empty = '—'): string {
  if (!iso) return empty;
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return empty;
  const s = Math.round((now.getTime() - then) / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h}h ago`;
  const d = Math.round(h / 24);
  return `${d}d ago`;
}

/**
 * How long ago `ms` was, to the second under a minute (`8s ago`), else like `timeAgo`: for what
 * just happened and matters to the second, such as losing the connection.
 */
export function secondsAgo(ms: number, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  return timeAgo(new Date(ms).toISOString(), now);
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB'] as const;

/**
 * A size in bytes, binary units, one decimal from KiB up: `512` → `512 B`, `4194304` → `4.0 MiB`,
 * `39007027` → `37.2 MiB`. The one byte formatter (the job log's footer and its truncation notice).
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes;
  let unit = 'B';
  for (const next of BYTE_UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value.toFixed(1)} ${unit}`;
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

/**
 * The contract's active statuses. Typed by the contract's union (the renderer imports no server
 * values), so adding or dropping a status there fails the type-check here until this follows.
 */
const ACTIVE: Record<ActiveStatus, true> = {
  created: true,
  waiting_for_resource: true,
  preparing: true,
  pending: true,
  running: true,
};
const RUNNING: ReadonlySet<string> = new Set(Object.keys(ACTIVE));

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

/** Sources whose name says "event" where people say what triggered it. */
const SOURCE_WORDS: Record<string, string> = {
  merge_request_event: 'merge request',
  external_pull_request_event: 'external pull request',
};

/**
 * A pipeline source as every view shows it: `merge_request_event` → `merge request` (beside
 * `!406`), `parent_pipeline` → `parent pipeline`, `push` as is.
 */
export function sourceLabel(source: string): string {
  return SOURCE_WORDS[source] ?? source.replace(/_/g, ' ');
}
