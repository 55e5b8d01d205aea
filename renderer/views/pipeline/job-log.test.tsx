import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, routeFetch } from '../../testing/render-with-feed.tsx';
import JobLog from './job-log.tsx';

const E = '\x1b';
const TRACE = [
  `${E}[0Ksection_start:100:prepare[collapsed=true]\r${E}[0K${E}[36;1mPreparing executor${E}[0;m`,
  'Pulling image node:24',
  `${E}[0Ksection_end:104:prepare\r${E}[0K`,
  `${E}[0Ksection_start:104:script\r${E}[0KRunning script`,
  `${E}[32;1m$ npm test${E}[0;m`,
  `${E}[31mAssertionError: expected 3 to equal 2${E}[0m`,
  `${E}[0Ksection_end:130:script\r${E}[0K`,
  `${E}[31;1mERROR: Job failed: exit code 1${E}[0;m`,
  '',
].join('\n');

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

describe('JobLog', () => {
  it('renders ANSI colours and GitLab sections, folded as GitLab asks', async () => {
    restore = routeFetch((_m, url) =>
      url.pathname === '/api/jobtrace' ? jsonResponse({ trace: TRACE, complete: true }) : undefined,
    ).restore;
    const { container } = render(<JobLog projectId={1} jobId={13} jobStatus="failed" />);
    const error = await screen.findByText('AssertionError: expected 3 to equal 2');
    expect(error.className).toContain('ansi-fg-1');
    expect(screen.getByText('$ npm test').className).toBe('ansi-fg-2 ansi-bold');

    // The collapsed=true section hides its body; the other section is open and shows its duration.
    const prepare = screen.getByRole('button', { name: /Preparing executor/ });
    expect(prepare.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('Pulling image node:24')).toBeNull();
    expect(screen.getByRole('button', { name: /Running script/ }).textContent).toContain('26s');
    fireEvent.click(prepare);
    expect(screen.getByText('Pulling image node:24')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryByText('$ npm test')).toBeNull();
    expect(container.querySelectorAll('.log-line')).toHaveLength(3);
  });

  it('searches, counts matches and unfolds the section holding one', async () => {
    restore = routeFetch(() => jsonResponse({ trace: TRACE, complete: true })).restore;
    render(<JobLog projectId={1} jobId={13} jobStatus="failed" />);
    await screen.findByText('Running script');
    const search = screen.getByLabelText('Search the log');
    fireEvent.change(search, { target: { value: 'image' } });
    expect(screen.getByTestId('log-hits').textContent).toBe('1 match');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(screen.getByTestId('log-hits').textContent).toBe('1 of 1');
    await waitFor(() => expect(screen.getByText('image')).toBeTruthy());
    expect(screen.getByText('image').tagName).toBe('MARK');
  });

  it('follows a running job: new output is appended on the next poll', async () => {
    let calls = 0;
    restore = routeFetch(() => {
      calls++;
      return calls === 1
        ? jsonResponse({ trace: 'step 1\n', complete: false })
        : jsonResponse({ trace: 'step 1\nstep 2\n', complete: true });
    }).restore;
    render(<JobLog projectId={1} jobId={13} jobStatus="running" />);
    expect(await screen.findByText('step 1')).toBeTruthy();
    expect(await screen.findByText('step 2', undefined, { timeout: 4000 })).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('says when only the tail of a huge log is shown, and links to the whole log in GitLab', async () => {
    // The service caps a log at its tail and says so (`truncated`, `bytes`: GET /api/jobtrace).
    const tail = 'x'.repeat(4 * 1024 * 1024 - 6) + '\nend\n';
    restore = routeFetch(() =>
      jsonResponse({ trace: tail, complete: true, truncated: true, bytes: 39_007_027 }),
    ).restore;
    render(
      <JobLog
        projectId={1}
        jobId={13}
        jobStatus="failed"
        jobUrl="https://gitlab.example.com/g/p/-/jobs/13"
      />,
    );
    // Splitting 4 MiB into lines takes jsdom over a second on a busy 2-core CI box.
    const notice = await screen.findByRole('note', {}, { timeout: 10_000 });
    expect(notice.textContent).toContain('Showing the last 4.0 MiB of a 37.2 MiB log.');
    // GitLab's "View complete raw" link is the job page plus /raw (gitlab-org/gitlab#295654).
    const link = screen.getByRole('link', { name: /Open the full log in GitLab/ });
    expect(link.getAttribute('href')).toBe('https://gitlab.example.com/g/p/-/jobs/13/raw');
  });

  it('says nothing about truncation for a whole log, and states it when no GitLab link is known', async () => {
    restore = routeFetch(() => jsonResponse({ trace: TRACE, complete: true })).restore;
    render(<JobLog projectId={1} jobId={13} jobStatus="failed" />);
    await screen.findByText('Running script');
    expect(screen.queryByRole('note')).toBeNull();
    cleanup();
    restore();
    restore = routeFetch(() =>
      jsonResponse({ trace: 'tail\n', complete: true, truncated: true, bytes: 9 * 1024 * 1024 }),
    ).restore;
    render(<JobLog projectId={1} jobId={13} jobStatus="failed" />);
    const notice = await screen.findByRole('note');
    expect(notice.textContent).toBe(
      'Showing the last 5 B of a 9.0 MiB log.The full log is in GitLab.',
    );
    expect(screen.queryByRole('link')).toBeNull();
  });

  it("shows the service's error when the log cannot be read", async () => {
    restore = routeFetch(() =>
      jsonResponse({ error: 'Job 13 not found', statusCode: 404, timestamp: 'x' }, 404),
    ).restore;
    render(<JobLog projectId={1} jobId={13} jobStatus="failed" />);
    expect(await screen.findByText('Job 13 not found')).toBeTruthy();
  });
});
