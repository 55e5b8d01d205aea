import { describe, expect, it } from 'vitest';
import { failuresPath } from '../../api/health.ts';
import { parseFailuresQuery } from './failures-view.tsx';

describe('failures view URL', () => {
  it('reads its filters from the query and ignores what is not one', () => {
    expect(
      parseFailuresQuery('?projectId=7&ref=%21439&source=push&user=mine&flaky=true&page=2'),
    ).toEqual({
      projectId: 7,
      ref: '!439',
      source: 'push',
      scope: undefined,
      user: 'mine',
      flaky: 'true',
      from: undefined,
      to: undefined,
      page: 2,
    });
    expect(parseFailuresQuery('?projectId=x&flaky=maybe&page=0&ref=%20')).toEqual({
      projectId: undefined,
      ref: undefined,
      source: undefined,
      scope: undefined,
      user: undefined,
      flaky: undefined,
      from: undefined,
      to: undefined,
      page: undefined,
    });
  });

  it('writes the same filters back (an overview bar links to its time range)', () => {
    const path = failuresPath({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      ref: '!439',
    });
    expect(path).toBe(
      '/failures?from=2026-11-20T00%3A00%3A00.000Z&to=2026-11-21T00%3A00%3A00.000Z&ref=%21439',
    );
    expect(parseFailuresQuery(path.slice('/failures'.length))).toMatchObject({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      ref: '!439',
    });
  });

  it('carries group health\'s scope, so "28 failed" opens those 28 (issue 30, item 3)', () => {
    const path = failuresPath({ scope: 'default_branch' });
    expect(path).toBe('/failures?scope=default_branch');
    expect(parseFailuresQuery('?scope=default_branch').scope).toBe('default_branch');
    expect(parseFailuresQuery('?scope=merge_requests').scope).toBe('merge_requests');
    expect(parseFailuresQuery('?scope=everything').scope).toBeUndefined();
  });
});
