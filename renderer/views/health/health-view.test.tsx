import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DefaultBranchesResponse, HealthPipeline } from '../../../server/contract.ts';
import { jsonResponse, routeFetch } from '../../testing/render-with-feed.tsx';
import HealthView from './health-view.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const rate = (successful: number, failed: number) => ({
  successful,
  failed,
  success_rate: Math.round((successful / (successful + failed)) * 1000) / 10,
});
const pipeline = (id: number): HealthPipeline => ({
  pipeline_id: id,
  project_id: 1,
  status: 'failed',
  ref: 'main',
  ref_label: 'main',
  merge_request: null,
  source: 'push',
  sha: 'abcdef0123',
  short_sha: 'abcdef01',
  commit_title: 'Refactor auth',
  commit_author: 'Carol',
  user: null,
  created_at: new Date(Date.now() - 3_600_000).toISOString(),
  finished_at: null,
  duration: 60,
  web_url: 'http://gitlab.test/p/-/pipelines/7',
});
const fix = {
  fixes: 1,
  median_seconds: 600,
  p90_seconds: 600,
  max_seconds: 600,
  mean_seconds: 600,
};

function serve(): void {
  const body: DefaultBranchesResponse = {
    window: { since: '7d', from: '', to: '' },
    broken: 1,
    passing: 0,
    unknown: 0,
    projects: [
      {
        project_id: 1,
        project_name: 'api',
        project_path: 'acme/api',
        web_url: 'http://gitlab.test/acme/api',
        default_branch: 'main',
        state: 'broken',
        latest: pipeline(7),
        broken_since: pipeline(7),
        broken_jobs: [
          {
            job_id: 71,
            name: 'unit-tests',
            stage: 'test',
            allow_failure: false,
            failure_reason: 'script_failure',
            web_url: 'http://gitlab.test/jobs/71',
          },
        ],
        broken_for_seconds: 3600,
        pipelines_since: [],
        pipelines_since_count: 0,
        time_to_fix: fix,
        success_rates: { default_branch: rate(3, 1), merge_requests: rate(1, 2), all: rate(4, 3) },
      },
    ],
    success_rates: { default_branch: rate(3, 1), merge_requests: rate(1, 2), all: rate(4, 3) },
    time_to_fix: fix,
  };
  restore = routeFetch((_, url) =>
    url.pathname === '/api/health/default-branches' ? jsonResponse(body) : undefined,
  ).restore;
}

describe('HealthView (issue 30)', () => {
  it('counts one fix as "1 fix"', async () => {
    serve();
    render(<HealthView />);
    expect(await screen.findByText(/median time to fix \(1 fix\)/)).toBeTruthy();
  });

  it('names the job that broke the branch, linking to its log', async () => {
    serve();
    render(<HealthView />);
    const jobs = await screen.findByTestId('broken-jobs');
    const link = within(jobs).getByRole('link', { name: 'unit-tests' });
    expect(link.getAttribute('href')).toBe('/pipelines/1/7?job=71');
    expect(jobs.textContent).toMatch(/unit-tests\s+failed$/);
  });

  it('links "N failed" to the failures that number counts', async () => {
    serve();
    render(<HealthView />);
    const link = await screen.findByTestId('scope-failed-link');
    expect(link.textContent).toBe('1 failed');
    expect(link.getAttribute('href')).toBe('/failures?scope=default_branch');
  });
});
