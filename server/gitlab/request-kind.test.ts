import { describe, expect, it } from 'vitest';
import { GITLAB_REQUEST_KINDS, gitLabRequestKind } from './request-kind.ts';

// The paths GitLabClient and JobLogReader request (client.ts, job-log-stream.ts), as sent.
const CASES: [string, string][] = [
  ['/api/v4/groups/acme%2Fplatform?with_projects=false', 'group'],
  ['/api/v4/groups/42/subgroups?per_page=100', 'subgroups'],
  ['/api/v4/groups/acme/projects?include_subgroups=true&page=2', 'projects'],
  ['/api/v4/projects/7/pipelines?updated_after=2024-01-01T00%3A00%3A00Z', 'pipelines'],
  ['/api/v4/projects/7/pipelines/123', 'pipeline'],
  ['/api/v4/projects/7/pipelines/123/jobs?include_retried=true', 'pipeline_jobs'],
  ['/api/v4/projects/7/pipelines/123/bridges', 'bridges'],
  // doc/api/pipelines.md, "Get a pipeline's test report" and "…test report summary".
  ['/api/v4/projects/7/pipelines/123/test_report', 'test_report'],
  ['/api/v4/projects/7/pipelines/123/test_report_summary', 'test_report_summary'],
  ['/api/v4/projects/7/jobs?per_page=100&page=2', 'project_jobs'],
  ['/api/v4/projects/7/jobs/99', 'job'],
  ['/api/v4/projects/7/jobs/99/trace', 'job_log'],
  ['/api/v4/projects/7/repository/commits/0a1b2c3d', 'commit'],
  [
    '/api/v4/projects/7/repository/tree?ref=0a1b2c3d&recursive=true&per_page=100',
    'repository_tree',
  ],
  ['/api/v4/projects/7/merge_requests/12', 'merge_request'],
  ['/api/v4/projects/7/merge_requests?iids[]=12&iids[]=14', 'merge_requests'],
  ['/api/v4/user', 'user'],
  ['/api/graphql', 'graphql'],
  ['/uploads/-/system/user/avatar/3/avatar.png', 'image'],
  ['/avatar/0123abcd?s=80&d=identicon', 'image'],
  ['/api/v4/projects/7/releases', 'other'],
  ['/api/v3/projects', 'other'],
];

describe('gitLabRequestKind', () => {
  it.each(CASES)('%s is a %s request', (path, kind) => {
    expect(gitLabRequestKind(path)).toBe(kind);
  });

  it('reads a GitLab under a relative URL root the same', () => {
    expect(gitLabRequestKind('/gitlab/api/v4/projects/7/pipelines/1/jobs')).toBe('pipeline_jobs');
    expect(gitLabRequestKind('/gitlab/api/graphql')).toBe('graphql');
  });

  it('answers only words of the closed set, whatever the path', () => {
    const odd = ['', '/', '/api', '/api/v4', '/api/v4/projects', '/api/v4/groups/a/b/c/d/e', '?x'];
    for (const path of odd) expect(GITLAB_REQUEST_KINDS).toContain(gitLabRequestKind(path));
  });
});
