import { useEffect, useState } from 'react';
import { useFeed, useFeedState } from '../app-context.ts';
import { secondsAgo, timeAgo } from '../lib/format.ts';
import { useNow } from '../lib/hooks.ts';

/**
 * The global connection light: live, reconnecting (with a countdown and "retry now"), or GitLab
 * unreachable (the service is up but its polls fail), always with the time of the last update.
 */
export function LiveIndicator() {
  const state = useFeedState();
  const feed = useFeed();
  const now = useNow();
  const [, setTick] = useState(0);
  const reconnecting = state.connection === 'reconnecting';
  useEffect(() => {
    if (!reconnecting) return;
    const t = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [reconnecting]);

  const status = state.summary?.status;
  const lastUpdated =
    status?.last_updated ??
    (state.lastUpdateAt ? new Date(state.lastUpdateAt).toISOString() : null);
  const updated = lastUpdated ? `updated ${timeAgo(lastUpdated, now)}` : 'no data yet';
  let kind: 'live' | 'connecting' | 'reconnecting' | 'degraded';
  let label: string;
  let detail: string;
  let shown = updated;
  if (state.connection === 'reconnecting') {
    kind = 'reconnecting';
    label = 'Reconnecting';
    // "updated just now" would read as live: say how long the service has been gone (issue 30).
    // The shared clock ticks every 15 s; this counts seconds (the effect above re-renders each one).
    const ago = state.lostAt === null ? '' : ` ${secondsAgo(state.lostAt, new Date())}`;
    shown = `lost${ago}`;
    detail = `Lost the connection to the service${ago}; retrying with back-off. Last ${updated}.`;
  } else if (state.connection === 'connecting') {
    kind = 'connecting';
    label = 'Connecting';
    detail = 'Opening the live feed…';
  } else if (status?.state === 'degraded') {
    kind = 'degraded';
    label = 'GitLab unreachable';
    detail = `${status.last_error ?? 'GitLab did not answer.'} Showing data ${updated}.`;
  } else if (status?.state === 'loading') {
    kind = 'connecting';
    label = 'Loading from GitLab';
    detail = 'The service is reading pipelines for the first time.';
  } else {
    kind = 'live';
    label = 'Live';
    detail = `Connected to the live feed; ${updated}.`;
  }
  // GitLab refused GraphQL: the service reads over REST (more requests) and says why.
  const restNotes = [status?.gitlab_api_note, status?.test_reports_api_note].filter(
    (n): n is string => typeof n === 'string' && n !== '',
  );
  if (restNotes.length > 0 && kind !== 'reconnecting')
    detail += ` ${restNotes.map((n) => (/[.!?]$/.test(n) ? n : `${n}.`)).join(' ')}`;
  return (
    <div
      className={`live-indicator live-${kind}`}
      role="status"
      aria-live="polite"
      title={detail}
      data-connection={kind}
    >
      <span className="live-dot" aria-hidden="true" />
      <span className="live-label">{label}</span>
      <span className="live-updated">· {shown}</span>
      {restNotes.length > 0 && kind !== 'reconnecting' && (
        <span className="live-rest">· over REST</span>
      )}
      {kind === 'reconnecting' && (
        <button type="button" className="link-button" onClick={() => feed.reconnectNow()}>
          Retry now
        </button>
      )}
    </div>
  );
}
