import { createContext, useContext, useSyncExternalStore } from 'react';
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
