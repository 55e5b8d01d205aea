import { describe, expect, it } from 'vitest';
import { isFinishedStatus, isSettledStatus } from './pipeline-status.ts';
import { GITLAB_PIPELINE_STATUSES } from './wire.ts';

const which = (test: (status: string) => boolean) => GITLAB_PIPELINE_STATUSES.filter(test);

describe('pipeline status vocabulary', () => {
  it('calls finished only what changes just when retried', () => {
    expect(which(isFinishedStatus)).toEqual(['success', 'failed', 'canceled', 'skipped']);
  });

  it('calls settled the finished statuses and manual, never one that moves on its own', () => {
    expect(which(isSettledStatus)).toEqual(['success', 'failed', 'canceled', 'skipped', 'manual']);
    for (const moving of ['canceling', 'scheduled', 'waiting_for_callback', 'running'])
      expect(isSettledStatus(moving)).toBe(false);
  });
});
