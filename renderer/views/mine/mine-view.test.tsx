import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MyMergeRequestsResponse } from '../../../server/contract.ts';
import { parseRoute } from '../../lib/router.ts';
import { routeFetch } from '../../testing/render-with-feed.tsx';
import MineView from './mine-view.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

const evidence = (text: string) => ({ text, since: null, last_passed: null, flakes: null });
const mine: MyMergeRequestsResponse = {
  user: { id: 7, username: 'ada', name: 'Ada' },
  merge_requests: [
    {
      project_id: 1,
      project_name: 'api',
      iid: 12,
      title: 'Faster search',
      web_url: 'https://gitlab.example/acme/api/-/merge_requests/12',
      source_branch: 'feature/search',
      target_branch: 'main',
      pipeline: { pipeline_id: 900, status: 'failed', web_url: 'https://gitlab.example/p/900' },
      failures: [
        {
          job_id: 1,
          job_name: 'lint',
          stage: 'test',
          verdict: 'broken-on-default',
          evidence: evidence('`lint` fails on `main` too, since #812'),
          signature: null,
        },
        {
          job_id: 2,
          job_name: 'test',
          stage: 'test',
          verdict: 'flaky',
          evidence: evidence('`test` failed and passed on retry 4 times this week (31 runs)'),
          signature: null,
        },
        {
          job_id: 3,
          job_name: 'build',
          stage: 'build',
          verdict: 'new',
          evidence: evidence('`build` passed on `main` in #811 and fails here'),
          signature: 'compile_error: x',
        },
      ],
    },
    {
      project_id: 2,
      project_name: 'web',
      iid: 4,
      title: 'Dark mode',
      web_url: 'https://gitlab.example/acme/web/-/merge_requests/4',
      source_branch: 'feature/dark',
      target_branch: 'main',
      pipeline: null,
      failures: [],
    },
  ],
};

describe('My MRs', () => {
  it('is a route of its own', () => {
    expect(parseRoute('/mine')).toEqual({ view: 'mine' });
  });

  it('lists each merge request with a verdict per failing job and its evidence', async () => {
    const routed = routeFetch((_m, url) =>
      url.pathname === '/api/triage/mine' ? Response.json(mine) : undefined,
    );
    restore = routed.restore;
    render(<MineView />);
    const mrs = await screen.findAllByTestId('mine-mr');
    expect(mrs.map((m) => m.getAttribute('data-iid'))).toEqual(['12', '4']);
    const failures = screen.getAllByTestId('mine-failure');
    expect(
      failures.map((f) => f.querySelector('[data-verdict]')!.getAttribute('data-verdict')),
    ).toEqual(['broken-on-default', 'flaky', 'new']);
    expect(failures[0]!.textContent).toContain('Broken on the target branch · not yours');
    expect(failures[1]!.textContent).toContain(
      'Flaky · retry it`test` failed and passed on retry 4 times this week (31 runs)',
    );
    expect(failures[2]!.textContent).toContain('New failure · yours to fix');
    expect(mrs[1]!.textContent).toContain('no pipeline in the history');
    expect(screen.getByRole('heading', { name: /My merge requests/ }).textContent).toContain(
      '@ada',
    );
  });

  it('says so when there is none', async () => {
    const routed = routeFetch((_m, url) =>
      url.pathname === '/api/triage/mine'
        ? Response.json({ ...mine, merge_requests: [] })
        : undefined,
    );
    restore = routed.restore;
    render(<MineView />);
    expect(await screen.findByText('Ada has no open merge request in this group.')).toBeTruthy();
  });
});
