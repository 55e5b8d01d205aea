import { useEffect, useState, useSyncExternalStore } from 'react';
import { useFeed } from '../app-context.ts';
import { desktopBridge } from '../lib/desktop-bridge.ts';
import {
  BROWSER_NOTIFICATIONS_KEY,
  browserNotifier,
  FailureAlerts as AlertCenter,
} from '../lib/failure-alerts.ts';
import { navigate } from '../lib/router.ts';
import './failure-alerts.css';

/**
 * Toasts for failure events on the live feed, and browser notifications when the user opted in
 * (never inside the desktop app, which notifies natively). Rendered once at the root.
 */
export function FailureAlerts() {
  const feed = useFeed();
  const [center] = useState(
    () =>
      new AlertCenter({
        notifier: desktopBridge() ? null : browserNotifier(),
        optedIn: () => {
          try {
            return localStorage.getItem(BROWSER_NOTIFICATIONS_KEY) === 'on';
          } catch {
            return false;
          }
        },
        navigate,
      }),
  );
  useEffect(() => feed.onPipelineEvent((event) => center.receive(event)), [feed, center]);
  const { toasts } = useSyncExternalStore(center.subscribe, center.getState, center.getState);
  if (toasts.length === 0) return null;
  return (
    <div className="failure-toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className="failure-toast" data-kind={toast.kind}>
          <button type="button" className="failure-toast-open" onClick={() => center.open(toast)}>
            <span className="failure-toast-title">{toast.title}</span>
            {toast.body && <span className="failure-toast-body">{toast.body}</span>}
          </button>
          <button
            type="button"
            className="failure-toast-close"
            aria-label="Dismiss"
            onClick={() => center.dismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
