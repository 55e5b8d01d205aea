import { describe, expect, it } from 'vitest';
import type {
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
} from '../gitlab/wire.ts';
import { toJobHistory, toPipelineHistory, toProjectHistory } from './from-gitlab.ts';
import type { PipelineHistoryRecord } from './model.ts';

const item: GitLabPipelineListItem = {
  id: 42,
  iid: 7,
  project_id: 3,
  sha: 'a'.repeat(40),
  ref: 'main',
  status: 'running',
  source: 'push',
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:05:00.000Z',
  web_url: 'https://gitlab.example.com/acme/app/-/pipelines/42',
};

const detail: GitLabPipeline = {
  ...item,
  status: 'failed',
  updated_at: '2026-11-20T10:09:00.000Z',
  before_sha: '0'.repeat(40),
  tag: false,
  yaml_errors: null,
  user: { id: 9, username: 'ada', name: 'Ada', avatar_url: null } as GitLabPipeline['user'],
  started_at: '2026-11-20T10:01:00.000Z',
  finished_at: '2026-11-20T10:09:00.000Z',
  committed_at: null,
  duration: 479.6,
  queued_duration: 2.4,
  coverage: null,
};

describe('GitLab → history records', () => {
  it('keeps a project without a default branch as an empty branch name', () => {
    const project = {
      id: 3,
      name: 'app',
      path_with_namespace: 'acme/app',
      web_url: 'https://gitlab.example.com/acme/app',
      default_branch: null,
    } as unknown as GitLabProject;
    expect(toProjectHistory(project)).toEqual({
      id: 3,
      name: 'app',
      path: 'acme/app',
      webUrl: 'https://gitlab.example.com/acme/app',
      defaultBranch: '',
    });
  });

  it('turns a list item into a record without details', () => {
    expect(toPipelineHistory(item, 'main')).toEqual({
      projectId: 3,
      pipelineId: 42,
      ref: 'main',
      sha: 'a'.repeat(40),
      source: 'push',
      status: 'running',
      defaultBranch: true,
      user: null,
      commitTitle: null,
      commitAuthor: null,
      createdAt: Date.parse('2026-11-20T10:00:00.000Z'),
      startedAt: null,
      finishedAt: null,
      updatedAt: '2026-11-20T10:05:00.000Z',
      duration: null,
      queuedDuration: null,
      webUrl: 'https://gitlab.example.com/acme/app/-/pipelines/42',
      detailsFor: null,
      jobsFor: null,
    });
  });

  it('takes duration, user and times from the single pipeline, in whole seconds', () => {
    const record = toPipelineHistory(detail, 'main');
    expect(record).toMatchObject({
      status: 'failed',
      user: { id: 9, username: 'ada', name: 'Ada', avatarUrl: '' },
      startedAt: Date.parse('2026-11-20T10:01:00.000Z'),
      finishedAt: Date.parse('2026-11-20T10:09:00.000Z'),
      duration: 480,
      queuedDuration: 2,
      updatedAt: '2026-11-20T10:09:00.000Z',
      detailsFor: '2026-11-20T10:09:00.000Z',
    });
  });

  it('keeps what an earlier answer knew when a list item lacks it', () => {
    const previous: PipelineHistoryRecord = {
      ...toPipelineHistory(detail, 'main'),
      commitTitle: 'Fix the parser',
      commitAuthor: 'Ada',
      jobsFor: detail.updated_at,
    };
    const relisted = toPipelineHistory({ ...item, status: 'failed' }, 'main', previous);
    expect(relisted).toMatchObject({
      user: previous.user,
      duration: 480,
      queuedDuration: 2,
      startedAt: previous.startedAt,
      finishedAt: previous.finishedAt,
      detailsFor: previous.detailsFor,
      commitTitle: 'Fix the parser',
      commitAuthor: 'Ada',
      jobsFor: detail.updated_at,
      updatedAt: item.updated_at,
    });
  });

  it('never counts a tag pipeline for the default branch, nor any pipeline of a project without one', () => {
    expect(toPipelineHistory({ ...detail, tag: true }, 'main').defaultBranch).toBe(false);
    expect(toPipelineHistory({ ...item, ref: '' }, '').defaultBranch).toBe(false);
    expect(toPipelineHistory({ ...item, ref: 'feature' }, 'main').defaultBranch).toBe(false);
  });

  it('keeps a job attempt with its float durations', () => {
    const job = {
      id: 5,
      name: 'test',
      stage: 'test',
      status: 'failed',
      allow_failure: false,
      failure_reason: 'script_failure',
      created_at: '2026-11-20T10:01:00.000Z',
      started_at: '2026-11-20T10:02:00.000Z',
      finished_at: null,
      duration: 84.1,
      queued_duration: 0.4,
      web_url: 'https://gitlab.example.com/acme/app/-/jobs/5',
      pipeline: { id: 42 },
    } as unknown as GitLabJob;
    expect(toJobHistory(job, 3)).toEqual({
      projectId: 3,
      pipelineId: 42,
      jobId: 5,
      name: 'test',
      stage: 'test',
      status: 'failed',
      retried: false,
      allowFailure: false,
      failureReason: 'script_failure',
      createdAt: Date.parse('2026-11-20T10:01:00.000Z'),
      startedAt: Date.parse('2026-11-20T10:02:00.000Z'),
      finishedAt: null,
      duration: 84.1,
      queuedDuration: 0.4,
      webUrl: 'https://gitlab.example.com/acme/app/-/jobs/5',
    });
  });
});
