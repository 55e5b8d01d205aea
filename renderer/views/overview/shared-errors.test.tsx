import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FailureSignaturesResponse, FixedBefore } from '../../../server/contract.ts';
import { routeFetch } from '../../testing/render-with-feed.tsx';
import { PastFixes } from '../pipeline/past-fixes.tsx';
import { SharedErrors } from './shared-errors.tsx';

const now = new Date('2026-11-21T12:00:00Z');
let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const job = (project_id: number, job_id: number) => ({
  project_id,
  pipeline_id: job_id * 10,
  job_id,
  job_name: 'build',
  at: '2026-11-21T11:00:00.000Z',
});
const signatures: FailureSignaturesResponse = {
  window: { since: '7d', from: '2026-11-14T12:00:00.000Z', to: '2026-11-21T12:00:00.000Z' },
  signatures: [
    {
      signature: 'dependency_network: npm error code ECONNRESET',
      sample_line: 'npm error code ECONNRESET',
      category: 'dependency_network',
      occurrences: 4,
      projects: [
        { project_id: 1, project_name: 'api', occurrences: 2 },
        { project_id: 2, project_name: 'web', occurrences: 1 },
        { project_id: 3, project_name: 'billing', occurrences: 1 },
      ],
      first_seen: '2026-11-21T09:00:00.000Z',
      last_seen: '2026-11-21T11:00:00.000Z',
      jobs: [job(1, 7), job(2, 6), job(3, 5), job(1, 4)],
    },
    {
      signature: 'test_failure: E assert # == #',
      sample_line: 'E assert 1 == 2',
      category: 'test_failure',
      occurrences: 3,
      projects: [{ project_id: 1, project_name: 'api', occurrences: 3 }],
      first_seen: '2026-11-21T09:00:00.000Z',
      last_seen: '2026-11-21T10:00:00.000Z',
      jobs: [job(1, 3), job(1, 2), job(1, 1)],
    },
  ],
};

describe('SharedErrors', () => {
  it('shows only the errors that span several projects, with their projects', async () => {
    const routed = routeFetch((_m, url) =>
      url.pathname === '/api/failures/signatures' ? Response.json(signatures) : undefined,
    );
    restore = routed.restore;
    render(<SharedErrors lastUpdate={null} now={now} />);
    const rows = await screen.findAllByTestId('shared-error');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.getAttribute('data-projects')).toBe('3');
    expect(rows[0]!.textContent).toContain('The same error in 3 projects');
    expect(rows[0]!.textContent).toContain('npm error code ECONNRESET');
    expect(rows[0]!.textContent).toContain('api, web and billing · 4 failed jobs');
  });

  it('shows nothing when no error is shared', async () => {
    const routed = routeFetch((_m, url) =>
      url.pathname === '/api/failures/signatures'
        ? Response.json({ ...signatures, signatures: signatures.signatures.slice(1) })
        : undefined,
    );
    restore = routed.restore;
    const { container } = render(<SharedErrors lastUpdate={null} now={now} />);
    await new Promise((r) => setTimeout(r, 20));
    expect(routed.calls.map((c) => c.url.pathname)).toEqual(['/api/failures/signatures']);
    expect(container.textContent).toBe('');
  });
});

describe('PastFixes', () => {
  it('says which commit fixed the error before, when, and through which MR', () => {
    const fix: FixedBefore = {
      pipeline_id: 88,
      sha: 'a1b2c3d4e5f6',
      short_sha: 'a1b2c3d4',
      commit_title: 'pin node to 20.11',
      commit_author: 'Dana Reyes',
      merge_request: { iid: 7, title: 'Pin node', web_url: 'https://gitlab.example/mr/7' },
      fixed_at: '2026-11-07T12:00:00.000Z',
      failed_pipeline_id: 80,
    };
    render(<PastFixes fixes={[fix]} now={now} />);
    const box = screen.getByTestId('past-fixes');
    expect(box.textContent).toContain('This error was fixed before');
    expect(box.textContent).toContain(
      'by a1b2c3d4 ‘pin node to 20.11’ by Dana Reyes 14d ago in !7 Pin node (pipeline #88, after #80)',
    );
    expect(screen.getByRole('link', { name: '!7 Pin node' }).getAttribute('href')).toBe(
      'https://gitlab.example/mr/7',
    );
  });

  it('renders nothing without fixes', () => {
    const { container } = render(<PastFixes fixes={[]} now={now} />);
    expect(container.textContent).toBe('');
  });
});
