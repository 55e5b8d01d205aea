/**
 * Which GitLab resource a request read, in a few fixed words: metrics count requests by kind, so the
 * words must be a closed set (never an id or a path: those would make one time series a pipeline).
 */

/** Every kind of request the GitLab client makes, in a stable order. */
export const GITLAB_REQUEST_KINDS = [
  'group',
  'subgroups',
  'projects',
  'pipelines',
  'pipeline',
  'pipeline_jobs',
  'bridges',
  'test_report',
  'test_report_summary',
  'job',
  'project_jobs',
  'job_log',
  'commit',
  'repository_tree',
  'merge_request',
  'merge_requests',
  'user',
  'graphql',
  'image',
  'other',
] as const;

/** The kind of one GitLab request. */
export type GitLabRequestKind = (typeof GITLAB_REQUEST_KINDS)[number];

/**
 * The kind of a request from its path (`/api/v4/projects/7/pipelines?page=2` → `pipelines`). The
 * API root is found wherever it sits, so a GitLab under a relative URL root (`/gitlab/api/v4/…`)
 * reads the same; anything outside the API (avatars under `/uploads/`) is an `image`.
 */
export function gitLabRequestKind(pathAndQuery: string): GitLabRequestKind {
  const segments = pathAndQuery.split(/[?#]/, 1)[0]!.split('/').filter(Boolean);
  const api = segments.indexOf('api');
  if (api === -1) return 'image';
  if (segments[api + 1] === 'graphql' && segments.length === api + 2) return 'graphql';
  if (segments[api + 1] !== 'v4') return 'other';
  // Group and project ids are one segment each (a group path travels URL-encoded: `acme%2Fweb`).
  const [root, , sub, , leaf] = segments.slice(api + 2);
  const depth = segments.length - (api + 2);
  if (root === 'user' && depth === 1) return 'user';
  if (root === 'groups') {
    if (depth === 2) return 'group';
    if (sub === 'subgroups') return 'subgroups';
    if (sub === 'projects') return 'projects';
    return 'other';
  }
  if (root !== 'projects') return 'other';
  if (sub === 'pipelines') {
    if (depth === 3) return 'pipelines';
    if (depth === 4) return 'pipeline';
    if (leaf === 'jobs') return 'pipeline_jobs';
    if (leaf === 'bridges') return 'bridges';
    if (leaf === 'test_report') return 'test_report';
    if (leaf === 'test_report_summary') return 'test_report_summary';
  }
  if (sub === 'jobs') {
    if (depth === 3) return 'project_jobs';
    if (depth === 4) return 'job';
    if (leaf === 'trace') return 'job_log';
  }
  if (sub === 'repository' && segments[api + 5] === 'commits') return 'commit';
  if (sub === 'repository' && segments[api + 5] === 'tree') return 'repository_tree';
  if (sub === 'merge_requests' && depth === 4) return 'merge_request';
  if (sub === 'merge_requests' && depth === 3) return 'merge_requests';
  return 'other';
}
