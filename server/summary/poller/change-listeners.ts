import type { Logger } from '../../platform/logger.ts';
import type { PipelineRecord, Project } from '../model.ts';
import type { PollerObserver } from '../poller-observer.ts';
import { describeFailure } from './poll-health.ts';

/** A pipeline whose status a cycle saw change (what failure events are derived from). */
export interface PipelineChange {
  project: Project;
  record: PipelineRecord;
  /** The status before, or null for a pipeline seen for the first time. */
  previousStatus: string | null;
  /** True on a project's first listing (start-up, new project, new target): history, not news. */
  baseline: boolean;
}

/**
 * Who hears each cycle's status changes (the failure events). A listener that throws is logged and
 * the others still hear the changes: one subscriber's bug must not stop the poller.
 */
export class PipelineChangeListeners {
  private readonly listeners = new Set<(changes: PipelineChange[]) => void>();

  constructor(private readonly logger: Logger) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (changes: PipelineChange[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands `changes` to every listener (nothing when there are none). */
  tell(changes: PipelineChange[]): void {
    if (changes.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(changes);
      } catch (err) {
        this.logger.warn({ err: describeFailure(err) }, 'a pipeline-change listener failed');
      }
    }
  }
}

/** Tells the poller's observer what a stage learned from GitLab. */
export type TellObserver = (call: (observer: PollerObserver) => void) => void;

/** A TellObserver for `observer` (doing nothing without one); the observer's failure is logged, never the poller's. */
export function observerTeller(observer: PollerObserver | undefined, logger: Logger): TellObserver {
  return (call) => {
    if (!observer) return;
    try {
      call(observer);
    } catch (err) {
      logger.warn({ err: describeFailure(err) }, 'poller observer failed');
    }
  };
}
