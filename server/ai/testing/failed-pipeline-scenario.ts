import { FakeGitLab } from '../../gitlab/testing/fake-gitlab.ts';
import { failedJob } from '../../gitlab/testing/wire-fixtures.ts';
import type { GitLabJob, GitLabPipeline } from '../../gitlab/wire.ts';
import { loadCorpus } from './corpus/load-corpus.ts';

/** The project the AI tests' GitLab serves. */
export const FAKE_PROJECT = { id: 7, name: 'shop-web' };

const SHA_NEW = 'b'.repeat(40);
const SHA_OLD = 'a'.repeat(40);

/** A GitLab job with sensible defaults. */
export function makeJob(over: Partial<GitLabJob> & { id: number; pipelineId: number }): GitLabJob {
  const { pipelineId, ...rest } = over;
  const sha = pipelineId >= 300 ? SHA_NEW : SHA_OLD;
  return {
    ...failedJob({
      id: over.id,
      created_at: '2026-11-21T11:00:00.000Z',
      started_at: '2026-11-21T11:00:05.000Z',
      finished_at: '2026-11-21T11:02:05.000Z',
      duration: 120.4,
      queued_duration: 1.2,
      web_url: `https://gitlab.example.com/acme/shop-web/-/jobs/${over.id}`,
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
    }),
    failure_reason: over.status === 'success' ? undefined : 'script_failure',
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
 * A FakeGitLab holding one project, shop-web: pipeline 300 (failed) has test:unit #9001 and test:api
 * #9003 failing with the same Jest error, lint #9002 failing with ESLint errors and build #9004 green;
 * pipeline 290 (green) has test:unit #8990. Logs come from the AI corpus.
 */
export function failedPipelineGitLab(): FakeGitLab {
  const corpus = loadCorpus();
  const log = (name: string) => corpus.find((c) => c.case.name === name)!.raw;
  const gitlab = new FakeGitLab({ baseUrl: 'https://gitlab.example.com' });
  gitlab.addProject(FAKE_PROJECT.id, FAKE_PROJECT.name);
  gitlab.pipelines.set(FAKE_PROJECT.id, [
    makePipeline(300, 'failed'),
    makePipeline(290, 'success'),
  ]);
  gitlab.jobs = [
    makeJob({ id: 9001, pipelineId: 300 }),
    makeJob({ id: 9002, pipelineId: 300, name: 'lint', stage: 'verify' }),
    makeJob({ id: 9003, pipelineId: 300, name: 'test:api' }),
    makeJob({ id: 9004, pipelineId: 300, name: 'build', stage: 'build', status: 'success' }),
    makeJob({ id: 8990, pipelineId: 290, status: 'success' }),
  ];
  gitlab.traces = new Map([
    [9001, log('jest-assertion')],
    [9002, log('eslint-errors')],
    [9003, log('jest-assertion')],
    [9004, 'Build OK\n'],
    [8990, 'All tests passed\n'],
  ]);
  return gitlab;
}
