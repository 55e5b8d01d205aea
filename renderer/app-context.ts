import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import type { FeedState, LiveFeed } from './api/live-feed.ts';

/** The window's live feed, provided once at the root. */
export const FeedContext = createContext<LiveFeed | null>(null);

/** The live feed instance (for actions like reconnect). */
export function useFeed(): LiveFeed {
  const feed = useContext(FeedContext);
  if (!feed) throw new Error('FeedContext missing');
  return feed;
}

/** The live feed's state, re-rendering on every update. */
export function useFeedState(): FeedState {
  const feed = useFeed();
  return useSyncExternalStore(feed.subscribe, feed.getState, feed.getState);
}

/**
 * Calls `reload` when the service announces signatures of failed jobs of one of `pipelineIds`
 * (`failure-signatures`): a view showing them asks again. Without a feed (a view alone), nothing.
 */
export function useSignedFailures(pipelineIds: readonly number[], reload: () => void): void {
  const feed = useContext(FeedContext);
  const latest = useRef({ pipelineIds, reload });
  latest.current = { pipelineIds, reload };
  useEffect(
    () =>
      feed?.onFailureSignatures((event) => {
        const { pipelineIds: ids, reload: again } = latest.current;
        if (event.jobs.some((j) => ids.includes(j.pipeline_id))) again();
      }),
    [feed],
  );
}
