/**
 * Minimal but valid GitLab REST answers for transport tests (retries, pagination, budget), shaped
 * like the examples in doc/api/jobs.md, pipelines.md, groups.md and commits.md, so they pass the
 * client's wire validation.
 */
import type { GitLabJob } from '../wire.ts';

const BASE = 'https://gitlab.example.com';
const AT = '2026-11-20T10:00:00.000Z';

/** A job of pipeline 1 in project 1. */
export function wireJob(id: number): Record<string, unknown> {
  return {
    id,
    name: `job-${id}`,
    stage: 'test',
    status: 'success',
    ref: 'main',
    tag: false,
    allow_failure: false,
    created_at: AT,
    started_at: AT,
    finished_at: AT,
    duration: 84.1,
    queued_duration: 0.4,
    web_url: `${BASE}/acme/app/-/jobs/${id}`,
    user: null,
    commit: null,
    pipeline: { id: 1, project_id: 1, ref: 'main', sha: 'a'.repeat(40), status: 'success' },
  };
}

/** An element of a project's pipeline list. */
export function wirePipelineItem(id: number, projectId = 1): Record<string, unknown> {
  return {
    id,
    iid: id,
    project_id: projectId,
    sha: 'a'.repeat(40),
    ref: 'main',
    status: 'success',
    source: 'push',
    created_at: AT,
    updated_at: AT,
    web_url: `${BASE}/acme/app/-/pipelines/${id}`,
  };
}

/** A group or subgroup. */
export function wireGroup(id: number): Record<string, unknown> {
  return {
    id,
    name: `g${id}`,
    path: `g${id}`,
    full_path: `acme/g${id}`,
    description: '',
    visibility: 'private',
    parent_id: null,
    web_url: `${BASE}/groups/acme/g${id}`,
    avatar_url: null,
  };
}

/** A project of a group. */
export function wireProject(id: number): Record<string, unknown> {
  return {
    id,
    name: `p${id}`,
    path: `p${id}`,
    path_with_namespace: `acme/p${id}`,
    web_url: `${BASE}/acme/p${id}`,
  };
}

/** A commit. */
export function wireCommit(sha: string): Record<string, unknown> {
  return {
    id: sha,
    short_id: sha.slice(0, 8),
    title: 'Fix the build',
    message: 'Fix the build\n',
    author_name: 'Ada',
    author_email: 'ada@example.com',
    created_at: '2026-11-20T11:00:00.000+01:00',
    web_url: `${BASE}/acme/app/-/commit/${sha}`,
  };
}

/**
 * A typed failed `test:unit` job on `main` (doc/api/jobs.md), for tests that build their own
 * GitLab: the times, URL, commit and pipeline are the caller's.
 */
export function failedJob(
  fields: Pick<
    GitLabJob,
    | 'id'
    | 'created_at'
    | 'started_at'
    | 'finished_at'
    | 'duration'
    | 'queued_duration'
    | 'web_url'
    | 'commit'
    | 'pipeline'
  >,
): GitLabJob {
  return {
    name: 'test:unit',
    stage: 'test',
    status: 'failed',
    ref: 'main',
    tag: false,
    allow_failure: false,
    failure_reason: 'script_failure',
    user: null,
    ...fields,
  };
}
