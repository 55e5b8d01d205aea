import { describe, expect, it } from 'vitest';
import { parseRoute, pipelinePath } from './router.ts';

describe('routes', () => {
  it('parses every view and deep links to pipelines, jobs and their AI tab', () => {
    expect(parseRoute('/')).toEqual({ view: 'overview' });
    expect(parseRoute('/projects/')).toEqual({ view: 'projects' });
    expect(parseRoute('/history')).toEqual({ view: 'analyses' });
    expect(parseRoute('/settings')).toEqual({ view: 'settings' });
    expect(parseRoute('/health')).toEqual({ view: 'health', tab: 'branches' });
    expect(parseRoute('/health/flaky')).toEqual({ view: 'health', tab: 'flaky' });
    expect(parseRoute('/health/trends/')).toEqual({ view: 'health', tab: 'trends' });
    expect(parseRoute('/failures', '?user=mine&flaky=true')).toEqual({
      view: 'failures',
      search: '?user=mine&flaky=true',
    });
    expect(parseRoute('/pipelines/12/34', '?job=56&tab=ai')).toEqual({
      view: 'pipeline',
      projectId: 12,
      pipelineId: 34,
      jobId: 56,
      tab: 'ai',
    });
    expect(parseRoute('/pipelines/12/34', '?job=x')).toMatchObject({ jobId: null, tab: 'log' });
    expect(parseRoute('/nope')).toEqual({ view: 'not-found', path: '/nope' });
  });

  it('builds the same links back', () => {
    expect(pipelinePath(12, 34)).toBe('/pipelines/12/34');
    expect(pipelinePath(12, 34, 56, 'ai')).toBe('/pipelines/12/34?job=56&tab=ai');
    const url = new URL(pipelinePath(1, 2, 3, 'log'), 'http://x');
    expect(parseRoute(url.pathname, url.search)).toMatchObject({ jobId: 3, tab: 'log' });
  });
});
