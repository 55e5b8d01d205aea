import { useFeed, useFeedState } from '../../app-context.ts';
import type { ActivityResponse } from '../../../server/contract.ts';

/** What the overview shows of the window's activity. */
export interface ActivityState {
  activity: ActivityResponse | null;
  /** Why no activity can arrive now (the live connection is down), or null. */
  error: string | null;
  loading: boolean;
}

/**
 * The window's activity for the overview. The service pushes it with every summary over the live
 * connection (and sends the current one to each new subscriber), so there is nothing to fetch here;
 * retrying means reconnecting.
 */
export function useActivity(): [ActivityState, () => void] {
  const feed = useFeed();
  const state = useFeedState();
  const down = state.activity === null && state.connection === 'reconnecting';
  return [
    {
      activity: state.activity,
      error: down ? 'The live connection to the service dropped; reconnecting.' : null,
      loading: state.activity === null && !down,
    },
    () => feed.reconnectNow(),
  ];
}
