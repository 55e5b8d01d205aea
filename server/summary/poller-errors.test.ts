import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { silentLogger } from '../platform/logger.ts';
import { PipelinePoller, type PollCycle } from './poller.ts';
import { FakeGitLab } from '../gitlab/testing/fake-gitlab.ts';

describe('status.last_error (issue 9, item 6)', () => {
  it('never carries internal exception text', async () => {
    const gitlab = new FakeGitLab();
    gitlab.addProject(1, 'api');
    const internal =
      "Cannot read properties of undefined (reading 'id') at /srv/app/server/x.ts:12";
    // Not an AppError: a bug or a library failure, as a real client could throw.
    gitlab.failWith = new TypeError(internal) as unknown as AppError;
    const poller = new PipelinePoller({
      gitlab,
      clock: new ManualClock(),
      logger: silentLogger,
      group: 'acme',
      since: '7d',
    });
    await expect(poller.cycleOnce()).rejects.toThrow(TypeError);
    const status = poller.snapshot.status!;
    expect(status.state).toBe('degraded');
    expect(status.last_error).toMatch(/^Unexpected error while reading GitLab/);
    expect(status.last_error).not.toContain('Cannot read properties');
    expect(status.last_error).not.toContain('/srv/app');
  });
});

describe('onCycle (the metrics hear each cycle)', () => {
  it('tells each cycle that ran to its end, failed ones as not ok', async () => {
    const gitlab = new FakeGitLab();
    gitlab.addProject(1, 'api');
    const cycles: PollCycle[] = [];
    const poller = new PipelinePoller({
      gitlab,
      clock: new ManualClock(),
      logger: silentLogger,
      group: 'acme',
      since: '7d',
      onCycle: (cycle) => cycles.push(cycle),
    });
    await poller.cycleOnce();
    gitlab.failWith = new AppError('upstream_unavailable', 'GitLab is down');
    await expect(poller.cycleOnce()).rejects.toThrow('GitLab is down');
    expect(cycles.map((c) => c.ok)).toEqual([true, false]);
    for (const cycle of cycles) expect(cycle.durationMs).toBeGreaterThanOrEqual(0);
  });
});
