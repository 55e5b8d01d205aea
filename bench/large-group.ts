import type { SimulatorOptions } from '../server/simulator/index.ts';

/**
 * The 200-project group the first-load and warm-restart rows poll: a week of history, GitLab 50 ms
 * away and no rate limit, so the figure is the client's and poller's own speed.
 */
export const LARGE_GROUP: SimulatorOptions = {
  live: false,
  projects: 200,
  latencyMs: 50,
  pipelinesPerDay: 3,
  days: 7,
  rateLimitPerMinute: 1e9,
};
