import { useEffect, useState } from 'react';
import type { FailureReason, NotificationSettings } from '../../../server/contract.ts';
import { errorMessage } from '../../api/client.ts';
import {
  getNotificationSettings,
  saveNotificationSettings,
  type NotificationSettingsUpdate,
} from '../../api/notifications.ts';
import { useFeedState } from '../../app-context.ts';
import { ErrorBox, Skeleton } from '../../components/feedback.tsx';
import { desktopBridge } from '../../lib/desktop-bridge.ts';
import { BROWSER_NOTIFICATIONS_KEY } from '../../lib/failure-alerts.ts';
import { useAsync } from '../../lib/hooks.ts';
import './notification-settings.css';

const REASONS: { key: FailureReason; label: string; hint: string }[] = [
  { key: 'mine', label: 'My pipelines', hint: 'triggered by me or commits with my email' },
  { key: 'default-branch', label: 'Default branches', hint: 'main/master of every project' },
  { key: 'watched', label: 'Starred projects', hint: 'any branch of a project starred below' },
];

/**
 * Settings → Notifications: which failures notify (reasons, quiet hours, starred and muted
 * projects, stored by the service for every client), browser notifications (opt-in, in a browser)
 * and copying a get-token access token (inside the desktop app).
 */
export function NotificationSettingsSection() {
  const [state, reload, setData] = useAsync(
    (signal) => getNotificationSettings(undefined, signal),
    [],
  );
  const [error, setError] = useState<string | null>(null);
  const loaded = state.data !== undefined;
  useEffect(() => {
    // The tray's "Notification Settings…" opens /settings#notifications.
    if (loaded && window.location.hash === '#notifications')
      document.getElementById('notifications')?.scrollIntoView?.();
  }, [loaded]);
  const save = async (update: NotificationSettingsUpdate) => {
    setError(null);
    try {
      setData(await saveNotificationSettings(update));
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <section
      id="notifications"
      className="card settings-card notification-settings"
      aria-labelledby="notifications-title"
    >
      <h2 id="notifications-title" className="card-title">
        Notifications
      </h2>
      {state.status === 'error' && !state.data ? (
        <ErrorBox
          title="Cannot load notification settings"
          message={state.error}
          onRetry={reload}
        />
      ) : !state.data ? (
        <Skeleton height={120} />
      ) : (
        <SettingsForm settings={state.data} save={save} />
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {desktopBridge() ? <CopyToken /> : <BrowserNotifications />}
    </section>
  );
}

function SettingsForm({
  settings,
  save,
}: {
  settings: NotificationSettings;
  save: (update: NotificationSettingsUpdate) => Promise<void>;
}) {
  const projects = useFeedState().summary?.projects ?? [];
  const [quietStart, setQuietStart] = useState(settings.quiet_hours?.start ?? '22:00');
  const [quietEnd, setQuietEnd] = useState(settings.quiet_hours?.end ?? '07:00');
  const toggle = (list: number[], id: number) =>
    list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
  return (
    <>
      <fieldset className="field notification-reasons">
        <legend className="field-label">Notify me when a pipeline fails on</legend>
        {REASONS.map((reason) => (
          <label key={reason.key} className="notification-check">
            <input
              type="checkbox"
              checked={settings.reasons[reason.key]}
              onChange={(e) => void save({ reasons: { [reason.key]: e.target.checked } })}
            />
            {reason.label} <span className="muted small">— {reason.hint}</span>
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label className="notification-check">
          <input
            type="checkbox"
            checked={settings.quiet_hours !== null}
            onChange={(e) =>
              void save({
                quiet_hours: e.target.checked ? { start: quietStart, end: quietEnd } : null,
              })
            }
          />
          Quiet hours (listed, but no pop-ups)
        </label>
        <span className="notification-quiet">
          <input
            type="time"
            aria-label="Quiet from"
            value={quietStart}
            onChange={(e) => setQuietStart(e.target.value)}
            onBlur={() =>
              settings.quiet_hours &&
              void save({ quiet_hours: { start: quietStart, end: quietEnd } })
            }
          />
          –
          <input
            type="time"
            aria-label="Quiet until"
            value={quietEnd}
            onChange={(e) => setQuietEnd(e.target.value)}
            onBlur={() =>
              settings.quiet_hours &&
              void save({ quiet_hours: { start: quietStart, end: quietEnd } })
            }
          />
        </span>
      </div>
      {projects.length > 0 && (
        <table className="notification-projects">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Starred</th>
              <th scope="col">Muted</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.project_id}>
                <td>{p.project_path ?? p.project_name}</td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Star ${p.project_name}`}
                    checked={settings.starred_projects.includes(p.project_id)}
                    onChange={() =>
                      void save({
                        starred_projects: toggle(settings.starred_projects, p.project_id),
                      })
                    }
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Mute ${p.project_name}`}
                    checked={settings.muted_projects.includes(p.project_id)}
                    onChange={() =>
                      void save({ muted_projects: toggle(settings.muted_projects, p.project_id) })
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function readOptIn(): boolean {
  try {
    return localStorage.getItem(BROWSER_NOTIFICATIONS_KEY) === 'on';
  } catch {
    return false;
  }
}

/** The opt-in to browser notifications: asks the browser's permission on the user's click. */
function BrowserNotifications() {
  const supported = typeof Notification !== 'undefined';
  const [optedIn, setOptedIn] = useState(readOptIn);
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  useEffect(() => {
    try {
      localStorage.setItem(BROWSER_NOTIFICATIONS_KEY, optedIn ? 'on' : 'off');
    } catch {
      // Without storage the choice lasts for this page.
    }
  }, [optedIn]);
  if (!supported) return <p className="muted small">This browser cannot show notifications.</p>;
  const on = optedIn && permission === 'granted';
  return (
    <div className="field">
      <span className="field-label">Browser notifications</span>
      <p className="muted small">
        {on
          ? 'On: failures that matter pop up even when this tab is in the background.'
          : permission === 'denied'
            ? 'Blocked by the browser: allow notifications for this site in its settings.'
            : 'Off: failures show as toasts in this tab only.'}
      </p>
      {on ? (
        <button type="button" className="btn" onClick={() => setOptedIn(false)}>
          Turn off browser notifications
        </button>
      ) : (
        permission !== 'denied' && (
          <button
            type="button"
            className="btn btn-primary"
            onClick={async () => {
              const answer = await Notification.requestPermission();
              setPermission(answer);
              setOptedIn(answer === 'granted');
            }}
          >
            Enable browser notifications
          </button>
        )
      )}
    </div>
  );
}

/** Inside the desktop app: copy a get-token access token without it ever appearing on screen. */
function CopyToken() {
  const bridge = desktopBridge()!;
  const [profiles, setProfiles] = useState<string[] | null>(null);
  const [profile, setProfile] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    void bridge.listProfiles().then((names) => {
      setProfiles(names);
      setProfile(names[0] ?? '');
    });
  }, [bridge]);
  if (!profiles) return null;
  return (
    <div className="field">
      <label className="field-label" htmlFor="copy-token-profile">
        Copy an access token (get-token profile)
      </label>
      {profiles.length === 0 ? (
        <p className="muted small">
          No profiles yet: add one with <code>pipeline-summary profile add</code>.
        </p>
      ) : (
        <span className="notification-quiet">
          <select
            id="copy-token-profile"
            value={profile}
            onChange={(e) => setProfile(e.target.value)}
          >
            {profiles.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <button
            type="button"
            className="btn"
            onClick={async () => {
              const result = await bridge.copyToken(profile);
              setMessage(result.ok ? 'Copied to the clipboard.' : result.error);
            }}
          >
            Copy token
          </button>
        </span>
      )}
      {message && <p className="muted small">{message}</p>}
    </div>
  );
}
