// Issue 15 §1: every non-terminal pipeline status (doc/api/pipelines.md lists `canceling`,
// `waiting_for_callback`, `scheduled`…) keeps the fast cadence; counting stays as DESIGN §3.1 says.
import { describe, expect, it } from 'vitest';
import type { GitLabPipelineStatus } from '../gitlab/wire.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { PipelinePoller } from './poller.ts';
import { FakeGitLab } from '../gitlab/testing/fake-gitlab.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');

/** The wait the poller chose after its first cycle, with one pipeline in `status`. */
async function firstWait(status: GitLabPipelineStatus): Promise<{ wait: number; running: number }> {
  const gitlab = new FakeGitLab();
  gitlab.addProject(1, 'api');
  gitlab.addPipeline(1, 11, new Date(NOW - 60_000).toISOString(), status);
  const waits: number[] = [];
  let release!: () => void;
  const slept = new Promise<void>((resolve) => (release = resolve));
  const poller = new PipelinePoller({
    gitlab,
    clock: new ManualClock(NOW),
    logger: silentLogger,
    group: 'acme',
    since: '7d',
    timing: { fastIntervalMs: 10_000, slowIntervalMs: 60_000 },
    sleep: async (ms, signal) => {
      waits.push(ms);
      release();
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    },
  });
  poller.start();
  await slept;
  await poller.stop();
  return { wait: waits[0]!, running: poller.snapshot.summary.running };
}

describe('poll cadence', () => {
  it.each(['canceling', 'waiting_for_callback', 'scheduled', 'running', 'pending'] as const)(
    '%s polls at the fast interval',
    async (status) => {
      expect((await firstWait(status)).wait).toBe(10_000);
    },
  );

  it.each(['success', 'failed', 'canceled', 'skipped', 'manual'] as const)(
    '%s lets the poller idle',
    async (status) => {
      expect((await firstWait(status)).wait).toBe(60_000);
    },
  );

  it('counts canceling and waiting_for_callback only in the total, as DESIGN §3.1 says', async () => {
    expect((await firstWait('canceling')).running).toBe(0);
    expect((await firstWait('waiting_for_callback')).running).toBe(0);
    expect((await firstWait('pending')).running).toBe(1);
  });
});
