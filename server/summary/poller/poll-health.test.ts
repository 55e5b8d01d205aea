import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.ts';
import { describeFailure, PollHealth } from './poll-health.ts';

describe('PollHealth', () => {
  it('is loading until a first load, ok after it, degraded while cycles fail', () => {
    const health = new PollHealth();
    expect(health.state).toBe('loading');
    health.failed(new AppError('unauthorized', 'GitLab rejected the token (401)'));
    expect(health.state).toBe('degraded');
    expect(health.error).toBe('GitLab rejected the token (401)');
    health.succeeded();
    health.readAt(Date.parse('2026-11-21T12:00:00Z'));
    expect(health.state).toBe('ok');
    expect(health.error).toBeNull();
    expect(health.lastUpdatedIso).toBe('2026-11-21T12:00:00.000Z');
    health.failed(new AppError('upstream_unavailable', 'GitLab answered 503'));
    health.failed(new AppError('upstream_unavailable', 'GitLab answered 502'));
    expect(health.state).toBe('degraded');
    expect(health.failureCount).toBe(2);
    expect(health.error).toBe('GitLab answered 502');
  });

  it('counts a warm start as loaded without a read time, and forgets both for a new group', () => {
    const health = new PollHealth();
    health.restored();
    expect(health.state).toBe('ok');
    expect(health.lastUpdatedIso).toBeNull();
    health.readAt(0);
    health.unload();
    expect(health.isLoaded).toBe(false);
    expect(health.lastUpdatedIso).toBeNull();
  });

  it('never words an internal exception with its own text', () => {
    expect(describeFailure(new AppError('forbidden', 'GitLab refused access (403)'))).toBe(
      'GitLab refused access (403)',
    );
    const internal = describeFailure(new TypeError('Cannot read properties of undefined at /srv'));
    expect(internal).toMatch(/^Unexpected error while reading GitLab/);
    expect(internal).not.toContain('/srv');
  });
});
