import type { NotificationState, PipelineEventItem, SummaryStatus } from '../server/contract.ts';

/** A tray menu item, independent of Electron so the menu's logic is unit-tested. */
export interface TrayItem {
  label: string;
  enabled?: boolean;
  type?: 'normal' | 'separator' | 'submenu' | 'checkbox';
  checked?: boolean;
  submenu?: TrayItem[];
  /** The action id handled by the shell (e.g. `copy-token:default`). */
  action?: string;
}

/** The group's health as the tray icon shows it. */
export type TrayHealth = 'ok' | 'failing' | 'running' | 'degraded';

/** Live service data the tray is drawn from (absent until the service answers). */
export interface TrayLiveData {
  status: SummaryStatus['state'];
  lastError: string | null;
  running: number;
  projects: number;
  notifications: NotificationState;
}

/** What the tray shows. */
export interface TrayState {
  serviceUrl: string | null;
  /** get-token profile names, in display order. */
  profiles: string[];
  /** The last problem to show, if any (e.g. "GitLab unreachable"). */
  problem?: string | null;
  live?: TrayLiveData | null;
  /** Polling paused from the tray. */
  paused?: boolean;
  launchAtLogin?: boolean;
}

/**
 * The icon state: degraded (GitLab unreachable, the service down, or polling paused) beats failing
 * (a failure of mine or on a default branch or starred project is the newest on its ref) beats
 * running beats all green.
 */
export function trayHealth(state: TrayState): TrayHealth {
  const live = state.live;
  if (!state.serviceUrl || state.problem || state.paused || !live) return 'degraded';
  if (live.status === 'degraded') return 'degraded';
  if (live.notifications.failing.length > 0) return 'failing';
  if (live.running > 0 || live.status === 'loading') return 'running';
  return 'ok';
}

/** The tooltip: the health in words with the counts behind it. */
export function trayTooltip(state: TrayState): string {
  const live = state.live;
  if (!state.serviceUrl) return `Pipeline Summary — ${state.problem ?? 'starting…'}`;
  if (!live) return 'Pipeline Summary — connecting…';
  const parts = [
    `${live.notifications.failing.length} failing that matter`,
    `${live.running} running`,
    `${live.projects} projects`,
  ];
  const head = state.paused
    ? 'polling paused'
    : live.status === 'degraded'
      ? `GitLab unreachable${live.lastError ? `: ${live.lastError}` : ''}`
      : live.status === 'loading'
        ? 'loading'
        : live.notifications.failing.length > 0
          ? 'failures'
          : 'all green';
  return `Pipeline Summary — ${head}\n${parts.join(' · ')}`;
}

const REASON_LABEL = { mine: 'yours', 'default-branch': 'default branch', watched: 'starred' };

function failureLabel(item: PipelineEventItem): string {
  const job = item.failed_jobs[0]?.name;
  const why = item.reasons.map((r) => REASON_LABEL[r]).join(', ');
  return `✗ ${item.project_name} · ${item.ref_label ?? item.ref} #${item.pipeline_id}${job ? ` · ${job}` : ''}${why ? ` (${why})` : ''}`;
}

/**
 * Builds the tray menu: open the dashboard, the five most recent failures that matter, pause or
 * resume polling, notification settings, launch at login, copy a token per profile, quit.
 */
export function trayMenu(state: TrayState): TrayItem[] {
  const items: TrayItem[] = [
    { label: 'Open Dashboard', action: 'open-dashboard', enabled: state.serviceUrl !== null },
    {
      label: state.serviceUrl ? `Service: ${state.serviceUrl}` : 'Service: starting…',
      enabled: false,
    },
  ];
  if (state.problem) items.push({ label: state.problem, enabled: false });
  if (state.live) {
    items.push({ label: '', type: 'separator' });
    const recent = state.live.notifications.recent.slice(0, 5);
    if (recent.length === 0) items.push({ label: 'No failures that matter', enabled: false });
    else items.push({ label: 'Recent failures that matter', enabled: false });
    for (const item of recent) {
      items.push({
        label: failureLabel(item),
        action: `open-failure:${item.project_id}:${item.pipeline_id}:${item.failed_jobs[0]?.id ?? 0}`,
      });
    }
    items.push({ label: '', type: 'separator' });
    items.push({
      label: state.paused ? 'Resume Polling' : 'Pause Polling',
      action: state.paused ? 'resume-polling' : 'pause-polling',
    });
    items.push({ label: 'Notification Settings…', action: 'open-settings' });
  }
  items.push({
    label: 'Launch at Login',
    type: 'checkbox',
    checked: state.launchAtLogin ?? false,
    action: 'toggle-launch-at-login',
  });
  items.push({ label: '', type: 'separator' });
  items.push({
    label: 'Copy Token',
    type: 'submenu',
    submenu:
      state.profiles.length === 0
        ? [{ label: "No profiles — add one with 'pipeline-summary profile add'", enabled: false }]
        : state.profiles.map((name) => ({ label: name, action: `copy-token:${name}` })),
  });
  items.push({ label: '', type: 'separator' });
  items.push({ label: 'Quit Pipeline Summary', action: 'quit' });
  return items;
}

/** What a tray action id asks for. */
export type TrayAction =
  | { kind: 'open-dashboard' }
  | { kind: 'quit' }
  | { kind: 'copy-token'; profile: string }
  | { kind: 'open-failure'; projectId: number; pipelineId: number; jobId: number | null }
  | { kind: 'pause-polling' }
  | { kind: 'resume-polling' }
  | { kind: 'open-settings' }
  | { kind: 'toggle-launch-at-login' };

const SIMPLE = new Set([
  'open-dashboard',
  'quit',
  'pause-polling',
  'resume-polling',
  'open-settings',
  'toggle-launch-at-login',
]);

/** Parses a tray action id into what to do. */
export function parseTrayAction(action: string): TrayAction | null {
  if (SIMPLE.has(action)) return { kind: action } as TrayAction;
  if (action.startsWith('copy-token:') && action.length > 'copy-token:'.length) {
    return { kind: 'copy-token', profile: action.slice('copy-token:'.length) };
  }
  const failure = /^open-failure:(\d+):(\d+):(\d+)$/.exec(action);
  if (failure) {
    const jobId = Number(failure[3]);
    return {
      kind: 'open-failure',
      projectId: Number(failure[1]),
      pipelineId: Number(failure[2]),
      jobId: jobId > 0 ? jobId : null,
    };
  }
  return null;
}

/** The dashboard path of a pipeline with its failing job's log open (the renderer's route). */
export function failurePath(projectId: number, pipelineId: number, jobId: number | null): string {
  return `/pipelines/${projectId}/${pipelineId}${jobId ? `?job=${jobId}` : ''}`;
}
