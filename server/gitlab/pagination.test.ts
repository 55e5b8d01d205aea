import { describe, expect, it } from 'vitest';
import { isAppError } from '../platform/errors.ts';
import { nextPageUrl, parseLinkHeader } from './pagination.ts';

const apiRoot = new URL('https://gitlab.example.com/api/v4/');
const current = new URL(
  'https://gitlab.example.com/api/v4/projects/1/pipelines?per_page=100&page=1',
);

describe('parseLinkHeader', () => {
  it('maps every rel, tolerating commas inside URLs', () => {
    const links = parseLinkHeader(
      '<https://h/api/v4/x?page=2&cursor=a,b>; rel="next", <https://h/api/v4/x?page=1>; rel="first", <https://h/api/v4/x?page=9>; rel=last',
    );
    expect(links.get('next')).toBe('https://h/api/v4/x?page=2&cursor=a,b');
    expect(links.get('first')).toBe('https://h/api/v4/x?page=1');
    expect(links.get('last')).toBe('https://h/api/v4/x?page=9');
  });
});

describe('nextPageUrl', () => {
  it('prefers the Link header over x-next-page', () => {
    const next = nextPageUrl(
      current,
      {
        link: '<https://gitlab.example.com/api/v4/projects/1/pipelines?id_before=50&per_page=100>; rel="next"',
        'x-next-page': '2',
      },
      apiRoot,
    );
    expect(next?.href).toBe(
      'https://gitlab.example.com/api/v4/projects/1/pipelines?id_before=50&per_page=100',
    );
  });

  it('falls back to x-next-page, keeping the rest of the query', () => {
    const next = nextPageUrl(current, { 'x-next-page': '2' }, apiRoot);
    expect(next?.href).toBe(
      'https://gitlab.example.com/api/v4/projects/1/pipelines?per_page=100&page=2',
    );
  });

  it('stops when neither header names a next page (x-next-page is empty on the last page)', () => {
    expect(nextPageUrl(current, { 'x-next-page': '' }, apiRoot)).toBeUndefined();
    expect(nextPageUrl(current, {}, apiRoot)).toBeUndefined();
  });

  it('re-bases a next link on another host onto the configured GitLab, so the token stays home', () => {
    const root = new URL('https://example.com/gitlab/api/v4/');
    const next = nextPageUrl(
      new URL('https://example.com/gitlab/api/v4/groups/1/projects?page=1'),
      { link: '<http://gitlab.internal:8080/api/v4/groups/1/projects?page=2>; rel="next"' },
      root,
    );
    expect(next?.href).toBe('https://example.com/gitlab/api/v4/groups/1/projects?page=2');
  });

  it('refuses a next link outside the API', () => {
    let caught: unknown;
    try {
      nextPageUrl(current, { link: '<https://evil.example/steal>; rel="next"' }, apiRoot);
    } catch (err) {
      caught = err;
    }
    expect(isAppError(caught, 'upstream_unavailable')).toBe(true);
  });
});
