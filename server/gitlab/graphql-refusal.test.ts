// GitLab's GraphQL refusals, each classified by what it means (gitlabhq
// app/controllers/graphql_controller.rb; graphql-ruby's GraphQL::Analysis::MaxQueryComplexity).
import { describe, expect, it } from 'vitest';
import { refusalOfErrors, refusalOfStatus } from './graphql-refusal.ts';

describe('GraphQL refusals', () => {
  it('a complexity refusal carries GitLab’s numbers and may pass in a smaller query', () => {
    const refusal = refusalOfErrors(
      'Query has complexity of 260, which exceeds max complexity of 250',
    );
    expect(refusal).toMatchObject({ kind: 'complexity', complexity: { actual: 260, max: 250 } });
    expect(refusal.sizeBound).toBe(true);
  });

  it('depth and unknown fields are refused every time, whatever the size', () => {
    for (const message of [
      'Query has depth of 21, which exceeds max depth of 20',
      "Field 'queuedDuration' doesn't exist on type 'Pipeline'",
    ]) {
      expect(refusalOfErrors(message)).toMatchObject({ kind: 'query', sizeBound: false });
    }
  });

  it.each([
    // `limit_query_size` raises ArgumentError "Query too large": 422 in ERROR_STATUS_MAP.
    [422, { errors: [{ message: 'Query too large' }] }, 'too-large', 'upstream_unavailable'],
    // Other ArgumentErrors (invalid variables) are 422 too, but not about size.
    [422, { errors: [{ message: 'Variable $p0 was invalid' }] }, 'query', 'upstream_unavailable'],
    [413, '<html>413 Request Entity Too Large</html>', 'too-large', 'upstream_unavailable'],
    // authorize_access_api!: render_error('Invalid token', status: :unauthorized).
    [401, { errors: [{ message: 'Invalid token' }] }, 'token', 'unauthorized'],
    // authorize_access_api!: render_error('API not accessible for user', status: :forbidden).
    [403, { errors: [{ message: 'API not accessible for user' }] }, 'forbidden', 'forbidden'],
    // render_404: render_error("Not found!", status: :not_found).
    [404, { errors: [{ message: 'Not found!' }] }, 'absent', 'upstream_unavailable'],
    [405, '<html>405 Not Allowed</html>', 'method', 'upstream_unavailable'],
  ] as const)('HTTP %i %j is %s', (status, body, kind, code) => {
    const refusal = refusalOfStatus(status, body);
    expect(refusal).toMatchObject({ kind, code, upstreamStatus: status });
    if (typeof body === 'object') expect(refusal.message).toContain(body.errors[0]!.message);
  });
});
