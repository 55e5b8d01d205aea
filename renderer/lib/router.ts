import { useSyncExternalStore } from 'react';

/** The views a URL can name. */
export type Route =
  | { view: 'overview' }
  | { view: 'mine' }
  | { view: 'projects' }
  | { view: 'analyses' }
  | { view: 'settings' }
  | { view: 'health'; tab: 'branches' | 'flaky' | 'trends' }
  | { view: 'failures'; search: string }
  | { view: 'tests' }
  | {
      view: 'pipeline';
      projectId: number;
      pipelineId: number;
      jobId: number | null;
      tab: 'log' | 'ai';
    }
  | { view: 'not-found'; path: string };

/** Parses a location (path + search) into a route. Exported for tests. */
export function parseRoute(pathname: string, search = ''): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { view: 'overview' };
  if (path === '/mine') return { view: 'mine' };
  if (path === '/projects') return { view: 'projects' };
  if (path === '/history') return { view: 'analyses' };
  if (path === '/settings') return { view: 'settings' };
  if (path === '/health') return { view: 'health', tab: 'branches' };
  if (path === '/health/flaky') return { view: 'health', tab: 'flaky' };
  if (path === '/health/trends') return { view: 'health', tab: 'trends' };
  if (path === '/failures') return { view: 'failures', search };
  if (path === '/tests') return { view: 'tests' };
  const m = /^\/pipelines\/(\d+)\/(\d+)$/.exec(path);
  if (m) {
    const q = new URLSearchParams(search);
    const job = q.get('job');
    return {
      view: 'pipeline',
      projectId: Number(m[1]),
      pipelineId: Number(m[2]),
      jobId: job && /^\d+$/.test(job) ? Number(job) : null,
      tab: q.get('tab') === 'ai' ? 'ai' : 'log',
    };
  }
  return { view: 'not-found', path };
}

/** The URL of a pipeline (optionally a job and its tab). */
export function pipelinePath(
  projectId: number,
  pipelineId: number,
  jobId?: number | null,
  tab?: 'log' | 'ai',
): string {
  const q = new URLSearchParams();
  if (jobId) q.set('job', String(jobId));
  if (jobId && tab === 'ai') q.set('tab', 'ai');
  const qs = q.toString();
  return `/pipelines/${projectId}/${pipelineId}${qs ? `?${qs}` : ''}`;
}

const listeners = new Set<() => void>();
function notify() {
  for (const l of listeners) l();
}
if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

/** Navigates within the app. `replace` keeps the history entry (tab switches). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const state = { from: location.pathname + location.search };
  if (options.replace) history.replaceState(history.state ?? state, '', to);
  else history.pushState(state, '', to);
  notify();
}

/** Where the user came from, to return there when a pipeline panel closes. */
export function previousPath(): string | null {
  const from = (history.state as { from?: string } | null)?.from;
  return from && !from.startsWith('/pipelines/') ? from : null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): string {
  return location.pathname + location.search;
}

/** The current route, re-rendering on navigation. */
export function useRoute(): Route {
  const href = useSyncExternalStore(subscribe, snapshot, snapshot);
  const url = new URL(href, 'http://x');
  return parseRoute(url.pathname, url.search);
}
