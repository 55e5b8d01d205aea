import { ApiClient, type Fetch } from '../api/client.ts';
import { LiveFeed, type LiveFeedOptions } from '../api/live-feed.ts';
import { FakeEventSource, ManualTimers } from './fake-event-source.ts';

/**
 * A LiveFeed whose snapshot comes from `fetch`, whose event streams are FakeEventSources the test
 * pushes events through (newest last in `sources`) and whose timers fire only when the test says.
 */
export function fakeLiveFeed(fetch: Fetch, options: Partial<LiveFeedOptions> = {}) {
  const sources: FakeEventSource[] = [];
  const timers = new ManualTimers();
  const feed = new LiveFeed({
    api: new ApiClient(fetch),
    createEventSource: (url) => {
      const s = new FakeEventSource(url);
      sources.push(s);
      return s;
    },
    setTimer: timers.set,
    clearTimer: timers.clear,
    ...options,
  });
  return { feed, sources, timers };
}
