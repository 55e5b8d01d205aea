import { describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock.ts';
import type { AppError } from '../platform/errors.ts';
import { silentLogger } from '../platform/logger.ts';
import { PipelinePoller } from './poller.ts';
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
