import { describe, expect, it } from 'vitest';
import { GRAPHQL_BATCH } from './graphql-pipelines.ts';
import { GraphQLRefusal, refusalOfErrors, refusalOfStatus } from './graphql-refusal.ts';
import { AppError } from '../platform/errors.ts';
import { silentLogger } from '../platform/logger.ts';
import { GraphQLMode, refusalAction } from './graphql-mode.ts';

describe('GraphQLMode', () => {
  it('shrinks a batch to what GitLab’s complexity numbers allow, and keeps the smaller size', () => {
    const mode = new GraphQLMode(true, silentLogger);
    const refusal = refusalOfErrors(
      'Query has complexity of 240, which exceeds max complexity of 200',
    );
    expect(mode.shrink('pipelines', refusal, GRAPHQL_BATCH.pipelines)).toBe(4);
    expect(mode.size('pipelines')).toBe(4);
    // Other queries keep their own size.
    expect(mode.size('changes')).toBe(GRAPHQL_BATCH.changes);
    expect(mode.usable).toBe(true);
  });

  it('halves a batch refused for its size without numbers, and gives up at one project', () => {
    const mode = new GraphQLMode(true, silentLogger);
    const tooLarge = refusalOfStatus(422, { errors: [{ message: 'Query too large' }] });
    expect(mode.shrink('changes', tooLarge, 40)).toBe(20);
    expect(mode.shrink('changes', tooLarge, 1)).toBeNull();
  });

  it('switched off, it says why and that it lasts until a restart', () => {
    const mode = new GraphQLMode(true, silentLogger);
    mode.switchOff(refusalOfStatus(405, 'Not Allowed'));
    expect(mode.usable).toBe(false);
    expect(mode.note).toMatch(/HTTP 405.*over REST.*until the service restarts/);
    expect(mode.mode).toEqual({ api: 'rest', note: mode.note });
  });

  it('reports GraphQL in use, and REST without a note where GitLab offers no bulk reads', () => {
    expect(new GraphQLMode(true, silentLogger).mode).toEqual({ api: 'graphql', note: null });
    expect(new GraphQLMode(false, silentLogger).mode).toEqual({ api: 'rest', note: null });
  });

  it('tells refusals from outages', () => {
    expect(refusalAction(refusalOfStatus(404, {}))).toBe('switch-off');
    expect(refusalAction(refusalOfStatus(401, {}))).toBe('switch-off-if-rest-works');
    expect(refusalAction(refusalOfStatus(403, {}))).toBe('switch-off-if-rest-works');
    expect(refusalAction(new GraphQLRefusal('not-graphql', 'an HTML page'))).toBe('switch-off');
    expect(refusalAction(new AppError('upstream_unavailable', 'HTTP 503'))).toBe('this-cycle');
    expect(refusalAction(new AppError('upstream_timeout', 'slow'))).toBe('this-cycle');
    expect(refusalAction(new Error('bug'))).toBe('rethrow');
  });
});
