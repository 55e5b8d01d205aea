import type { GitLabApi } from '../../gitlab/api.ts';
import type { GitLabJob, GitLabPipeline, GitLabPipelineListItem } from '../../gitlab/wire.ts';
import { AppError } from '../../platform/errors.ts';
import { loadCorpus } from './corpus/load-corpus.ts';

/** A canned GitLab for AI tests: one project, a failed pipeline and the green one before it. */
export interface FakeGitLab extends GitLabApi {
  /** Every call, as `method:args`, in order. */
  readonly calls: string[];
  jobs: GitLabJob[];
  pipelines: GitLabPipeline[];
  traces: Map<number, string>;
  /** When true every call fails as if GitLab were unreachable. */
  down: boolean;
}

/** The project the fake serves. */
export const FAKE_PROJECT = { id: 7, name: 'shop-web' };

const SHA_NEW = 'b'.repeat(40);
const SHA_OLD = 'a'.repeat(40);

/** A GitLab job with sensible defaults. */
export function makeJob(over: Partial<GitLabJob> & { id: number; pipelineId: number }): GitLabJob {
  const { pipelineId, ...rest } = over;
  const sha = pipelineId >= 300 ? SHA_NEW : SHA_OLD;
  return {
    name: 'test:unit',
    stage: 'test',
    status: 'failed',
    ref: 'main',
    tag: false,
    allow_failure: false,
    created_at: '2026-11-21T11:00:00.000Z',
    started_at: '2026-11-21T11:00:05.000Z',
    finished_at: '2026-11-21T11:02:05.000Z',
    duration: 120.4,
    queued_duration: 1.2,
    failure_reason: over.status === 'success' ? undefined : 'script_failure',
    web_url: `https://gitlab.example.com/acme/shop-web/-/jobs/${over.id}`,
    user: null,
    commit: {
      id: sha,
      short_id: sha.slice(0, 8),
      title: pipelineId >= 300 ? 'Apply discounts before tax' : 'Bump dependencies',
      message: '',
      author_name: pipelineId >= 300 ? 'Ada' : 'Lin',
      author_email: 'dev@example.com',
      created_at: '2026-11-21T10:00:00.000Z',
    },
    pipeline: { id: pipelineId, project_id: FAKE_PROJECT.id, ref: 'main', sha, status: 'failed' },
    ...rest,
  };
}

function makePipeline(id: number, status: GitLabPipeline['status']): GitLabPipeline {
  const sha = id >= 300 ? SHA_NEW : SHA_OLD;
  return {
    id,
    iid: id,
    project_id: FAKE_PROJECT.id,
    sha,
    ref: 'main',
    status,
    source: 'push',
    created_at: '2026-11-21T11:00:00.000Z',
    updated_at: '2026-11-21T11:05:00.000Z',
    web_url: `https://gitlab.example.com/acme/shop-web/-/pipelines/${id}`,
    before_sha: '0'.repeat(40),
    tag: false,
    yaml_errors: null,
    user: null,
    started_at: '2026-11-21T11:00:01.000Z',
    finished_at: '2026-11-21T11:05:00.000Z',
    committed_at: null,
    duration: 299,
    queued_duration: 1,
    coverage: null,
  };
}

/**
 * Pipeline 300 (failed) has test:unit #9001 and test:api #9003 failing with the same Jest error,
 * lint #9002 failing with ESLint errors and build #9004 green; pipeline 290 (green) has
 * test:unit #8990.
 */
export function createFakeGitLab(): FakeGitLab {
  const corpus = loadCorpus();
  const log = (name: string) => corpus.find((c) => c.case.name === name)!.raw;
  const fake: FakeGitLab = {
    baseUrl: 'https://gitlab.example.com',
    calls: [],
    down: false,
    jobs: [
      makeJob({ id: 9001, pipelineId: 300 }),
      makeJob({ id: 9002, pipelineId: 300, name: 'lint', stage: 'verify' }),
      makeJob({ id: 9003, pipelineId: 300, name: 'test:api' }),
      makeJob({ id: 9004, pipelineId: 300, name: 'build', stage: 'build', status: 'success' }),
      makeJob({ id: 8990, pipelineId: 290, status: 'success' }),
    ],
    pipelines: [makePipeline(300, 'failed'), makePipeline(290, 'success')],
    traces: new Map([
      [9001, log('jest-assertion')],
      [9002, log('eslint-errors')],
      [9003, log('jest-assertion')],
      [9004, 'Build OK\n'],
      [8990, 'All tests passed\n'],
    ]),
    async getGroup() {
      throw new AppError('not_found', 'not used by AI');
    },
    async listSubgroups() {
      return [];
    },
    async listGroupProjects() {
      return [];
    },
    async listPipelines(projectId) {
      record(`listPipelines:${projectId}`);
      return fake.pipelines as GitLabPipelineListItem[];
    },
    async getPipeline(projectId, pipelineId) {
      record(`getPipeline:${pipelineId}`);
      const p = fake.pipelines.find((x) => x.id === pipelineId && projectId === FAKE_PROJECT.id);
      if (!p) throw new AppError('not_found', `Pipeline ${pipelineId} not found`);
      return p;
    },
    async listPipelineJobs(projectId, pipelineId) {
      record(`listPipelineJobs:${pipelineId}`);
      return fake.jobs.filter((j) => j.pipeline.id === pipelineId && projectId === FAKE_PROJECT.id);
    },
    async getJob(projectId, jobId) {
      record(`getJob:${jobId}`);
      const j = fake.jobs.find((x) => x.id === jobId && projectId === FAKE_PROJECT.id);
      if (!j) throw new AppError('not_found', `Job ${jobId} not found`);
      return j;
    },
    async getJobTrace(projectId, jobId) {
      record(`getJobTrace:${jobId}`);
      const t = fake.traces.get(jobId);
      if (t === undefined || projectId !== FAKE_PROJECT.id) {
        throw new AppError('not_found', `Job ${jobId} not found`);
      }
      return t;
    },
    async getCommit(_projectId, sha) {
      record(`getCommit:${sha.slice(0, 8)}`);
      throw new AppError('not_found', 'commit lookups are not expected when jobs carry commits');
    },
    async getCurrentUser() {
      throw new AppError('not_found', 'not used by AI');
    },
    async getMergeRequest() {
      throw new AppError('not_found', 'not used by AI');
    },
    async fetchImage() {
      throw new AppError('not_found', 'not used by AI');
    },
  };
  function record(call: string) {
    fake.calls.push(call);
    if (fake.down) throw new AppError('upstream_unavailable', 'GitLab is unreachable');
  }
  return fake;
}
