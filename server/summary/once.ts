import type { Clock } from '../platform/clock.ts';
import { systemClock } from '../platform/clock.ts';
import type { SummaryResponse } from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { Logger } from '../platform/logger.ts';
import { silentLogger } from '../platform/logger.ts';
import { PipelinePoller } from './poller.ts';

/** Options of a one-shot summary. */
export interface SummaryOnceOptions {
  gitlab: GitLabApi;
  group: string;
  since: string;
  clock?: Clock;
  logger?: Logger;
}

/**
 * Loads a group's summary once — projects, pipelines in the window and their details — with the same
 * engine the service uses, for `pipeline-summary summary`. Returns a poller that can keep the summary
 * fresh incrementally (`cycleOnce`) for `--watch`.
 */
export async function loadSummaryOnce(
  options: SummaryOnceOptions,
): Promise<{ summary: SummaryResponse; poller: PipelinePoller }> {
  const poller = new PipelinePoller({
    gitlab: options.gitlab,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
    group: options.group,
    since: options.since,
  });
  await poller.cycleOnce();
  await poller.detailsSettled();
  return { summary: poller.snapshot, poller };
}
