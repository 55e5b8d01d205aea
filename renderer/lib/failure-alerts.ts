import type { PipelineEvent } from '../../server/contract.ts';
import { ExternalStore } from './external-store.ts';

/** A toast on screen. */
export interface Toast {
  id: string;
  kind: PipelineEvent['event'];
  title: string;
  body: string;
  /** Where clicking it goes (the failing job's log, or the overview for a burst). */
  path: string;
}

/** The browser's Notification API as the alerts need it (absent in the app and old browsers). */
export interface BrowserNotifier {
  permission(): 'default' | 'granted' | 'denied';
  show(title: string, options: { body: string; tag: string }, onClick: () => void): void;
}

/** localStorage key of the user's opt-in to browser notifications. */
export const BROWSER_NOTIFICATIONS_KEY = 'browser-notifications';

/** Edges of the alert center. */
export interface FailureAlertsOptions {
  /** Null inside the desktop app, which notifies natively. */
  notifier: BrowserNotifier | null;
  /** Whether the user opted in (Settings → Notifications). */
  optedIn: () => boolean;
  navigate: (path: string) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** How long a toast stays. Default 10 s. */
  toastMs?: number;
}

/** The dashboard path an event opens: the failing job of one pipeline, the overview for a burst. */
export function eventPath(event: PipelineEvent): string {
  const first = event.pipelines[0];
  if (!first || event.coalesced) return '/';
  const job = first.failed_jobs[0]?.id;
  return `/pipelines/${first.project_id}/${first.pipeline_id}${job ? `?job=${job}` : ''}`;
}

/**
 * Shows every failure event the service sends as a toast, and — in a browser, when the user opted
 * in and granted permission, outside quiet hours — as a browser notification too. At most three
 * toasts stay on screen; each leaves after `toastMs`.
 */
export class FailureAlerts extends ExternalStore<{ toasts: Toast[] }> {
  private readonly timers = new Map<string, unknown>();
  private readonly opts: Required<FailureAlertsOptions>;

  constructor(options: FailureAlertsOptions) {
    super({ toasts: [] });
    this.opts = {
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      toastMs: 10_000,
      ...options,
    };
  }

  /** Handles one `pipeline-failed` / `pipeline-fixed` event. */
  receive(event: PipelineEvent): void {
    if (this.state.toasts.some((t) => t.id === event.id)) return;
    const toast: Toast = {
      id: event.id,
      kind: event.event,
      title: event.title,
      body: event.body,
      path: eventPath(event),
    };
    const toasts = [toast, ...this.state.toasts];
    for (const gone of toasts.splice(3)) this.clear(gone.id);
    this.set({ toasts });
    this.timers.set(
      toast.id,
      this.opts.setTimer(() => this.dismiss(toast.id), this.opts.toastMs),
    );
    const notifier = this.opts.notifier;
    if (event.notify && notifier && this.opts.optedIn() && notifier.permission() === 'granted') {
      notifier.show(event.title, { body: event.body, tag: event.id }, () => this.open(toast));
    }
  }

  /** Opens what a toast is about and removes it. */
  open(toast: Toast): void {
    this.opts.navigate(toast.path);
    this.dismiss(toast.id);
  }

  /** Removes a toast. */
  dismiss(id: string): void {
    this.clear(id);
    this.set({ toasts: this.state.toasts.filter((t) => t.id !== id) });
  }

  private clear(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.opts.clearTimer(timer);
    this.timers.delete(id);
  }
}

/** The browser's Notification API, or null where it does not exist. */
export function browserNotifier(): BrowserNotifier | null {
  if (typeof Notification === 'undefined') return null;
  return {
    permission: () => Notification.permission,
    show: (title, options, onClick) => {
      const n = new Notification(title, options);
      n.onclick = () => {
        window.focus();
        onClick();
        n.close();
      };
    },
  };
}
