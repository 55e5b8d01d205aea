import type { ProjectSummary } from '../../server/contract.ts';

/** Columns the projects table sorts by. */
export type ProjectSortKey =
  'name' | 'total' | 'success_rate' | 'failed' | 'duration' | 'last_activity';

/** The projects table's view state. */
export interface ProjectQuery {
  text: string;
  /** `all`, only projects with a running pipeline, only those whose latest pipeline failed. */
  show: 'all' | 'running' | 'failing';
  sort: ProjectSortKey;
  direction: 'asc' | 'desc';
}

/** The default: most recent activity first, as the service orders them. */
export const DEFAULT_PROJECT_QUERY: ProjectQuery = {
  text: '',
  show: 'all',
  sort: 'last_activity',
  direction: 'desc',
};

/** Average pipeline duration of a project (seconds) as the service computes it, 0 without any. */
export function averageDuration(p: ProjectSummary): number {
  return p.average_duration ?? 0;
}

function lastActivity(p: ProjectSummary): number {
  const newest = p.recent_pipelines[0];
  return newest ? Date.parse(newest.created_at) : 0;
}

const KEY: Record<ProjectSortKey, (p: ProjectSummary) => number | string> = {
  name: (p) => (p.project_path ?? p.project_name).toLowerCase(),
  total: (p) => p.total_pipelines,
  success_rate: (p) => (p.successful + p.failed === 0 ? -1 : p.success_rate),
  failed: (p) => p.failed,
  duration: averageDuration,
  last_activity: lastActivity,
};

/**
 * Filters by name/path (every space-separated word must match), by state, then sorts stably;
 * ties keep the service's order (most recent activity first).
 */
export function filterProjects(
  projects: readonly ProjectSummary[],
  query: ProjectQuery,
): ProjectSummary[] {
  const words = query.text.toLowerCase().split(/\s+/).filter(Boolean);
  const key = KEY[query.sort];
  const sign = query.direction === 'asc' ? 1 : -1;
  return projects
    .map((p, index) => ({ p, index }))
    .filter(({ p }) => {
      const hay = `${p.project_name} ${p.project_path ?? ''}`.toLowerCase();
      if (!words.every((w) => hay.includes(w))) return false;
      if (query.show === 'running') return p.running > 0;
      if (query.show === 'failing') return p.recent_pipelines[0]?.status === 'failed';
      return true;
    })
    .sort((a, b) => {
      const ka = key(a.p);
      const kb = key(b.p);
      const cmp =
        typeof ka === 'string'
          ? ka.localeCompare(kb as string, undefined, { numeric: true })
          : (ka as number) - (kb as number);
      return cmp * sign || a.index - b.index;
    })
    .map(({ p }) => p);
}
