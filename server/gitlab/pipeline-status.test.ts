import { describe, expect, it } from 'vitest';
import type { GitLabJobStatus, GitLabPipelineStatus } from './wire.ts';
import { isFinishedStatus, isSettledStatus } from './pipeline-status.ts';

const EVERY: (GitLabPipelineStatus | GitLabJobStatus)[] = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
  'waiting_for_callback',
];

const which = (test: (status: string) => boolean) => EVERY.filter(test);

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
