import type { GitLabApi } from '../../gitlab/api.ts';
import { PipelineReads } from '../../gitlab/pipeline-reads.ts';
import { systemClock, type Clock } from '../../platform/clock.ts';
import { silentLogger } from '../../platform/logger.ts';
import { PipelinePoller } from '../../summary/poller.ts';
import { openGroupHealth, type GroupHealth } from '../index.ts';

/** A poller feeding group health over one data dir, and the ways to wait for it and close it. */
export interface PollerWithHealth {
  poller: PipelinePoller;
  group: GroupHealth;
  /** Resolves once the poller's detail reads and group health's recomputes are done. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The poller and group health wired as the composition root wires them (server/compose.ts), over
 * the last 7 days of `groupPath`; opening it again on the same `dataDir` is a warm restart.
 */
export function openPollerWithHealth(
  gitlab: GitLabApi,
  groupPath: string,
  dataDir: string,
  clock: Clock = systemClock,
): PollerWithHealth {
  const reads = new PipelineReads(gitlab);
  const group = openGroupHealth({
    dataDir,
    gitlab,
    reads,
    clock,
    logger: silentLogger,
    since: '7d',
  });
  const poller = new PipelinePoller({
    gitlab,
    clock,
    logger: silentLogger,
    group: groupPath,
    since: '7d',
    observer: group.observer,
    reads,
  });
  group.warmStart(poller);
  return {
    poller,
    group,
    settle: async () => {
      await poller.detailsSettled();
      await group.idle();
    },
    close: async () => {
      await poller.stop();
      group.close();
    },
  };
}
