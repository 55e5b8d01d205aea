/** Kinds of simulator routes, for request counting. */
export type RouteKind =
  | 'groups'
  | 'projects'
  | 'pipelines-list'
  | 'pipeline'
  | 'jobs'
  | 'job'
  | 'project-jobs'
  | 'merge-request'
  | 'trace'
  | 'test-report'
  | 'test-report-summary'
  | 'commit'
  | 'avatar'
  | 'user'
  | 'graphql'
  | 'other';

/** Every route kind, in a stable order. */
export const ROUTE_KINDS: readonly RouteKind[] = [
  'groups',
  'projects',
  'pipelines-list',
  'pipeline',
  'jobs',
  'job',
  'project-jobs',
  'merge-request',
  'trace',
  'test-report',
  'test-report-summary',
  'commit',
  'avatar',
  'user',
  'graphql',
  'other',
];

/** One request as the simulator saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/v4/projects/1/pipelines?per_page=100`. */
  url: string;
  kind: RouteKind;
  /** Response status; 0 when the socket was reset or the body truncated. */
  status: number;
}

/** Request counters (since start or the last `reset()`). */
export interface SimulatorStats {
  readonly total: number;
  readonly byKind: Readonly<Record<RouteKind, number>>;
  /** The most recent requests (up to 1000), oldest first. */
  readonly recent: readonly RecordedRequest[];
  reset(): void;
}

const RECENT_LIMIT = 1_000;

function zeroCounts(): Record<RouteKind, number> {
  return Object.fromEntries(ROUTE_KINDS.map((k) => [k, 0])) as Record<RouteKind, number>;
}

/** The simulator's counters. */
export class Stats implements SimulatorStats {
  total = 0;
  byKind = zeroCounts();
  recent: RecordedRequest[] = [];

  /** Counts a request as it arrives. */
  record(method: string, url: string, kind: RouteKind): RecordedRequest {
    this.total++;
    this.byKind[kind]++;
    const entry: RecordedRequest = { method, url, kind, status: 0 };
    this.recent.push(entry);
    if (this.recent.length > RECENT_LIMIT) this.recent.splice(0, this.recent.length - RECENT_LIMIT);
    return entry;
  }

  reset(): void {
    this.total = 0;
    this.byKind = zeroCounts();
    this.recent = [];
  }
}
