import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeDetails, pipelineDetails } from '../../testing/fixtures.ts';
import { jsonResponse, routeFetch } from '../../testing/render-with-feed.tsx';
import PipelinePanel from './pipeline-panel.tsx';

let restore = () => {};
afterEach(() => {
  cleanup();
  restore();
});

/** Serves these details at GET /api/pipelines/:projectId/details/:pipelineId, nothing else. */
function serveDetails(details: ReturnType<typeof pipelineDetails>) {
  restore = routeFetch((_m, url) =>
    url.pathname === `/api/pipelines/${details.project_id}/details/${details.pipeline_id}`
      ? jsonResponse(details)
      : undefined,
  ).restore;
}

function renderPanel(details: ReturnType<typeof pipelineDetails>) {
  serveDetails(details);
  render(
    <PipelinePanel
      projectId={details.project_id}
      pipelineId={details.pipeline_id}
      jobId={null}
      tab="log"
      onClose={() => undefined}
    />,
  );
}

describe('PipelinePanel', () => {
  it('lists the pipelines its trigger jobs started, each linking to GitLab, and a trigger not started yet', async () => {
    // Finished details are cached per pipeline for the window: each case uses its own pipeline id.
    const details = pipelineDetails({
      pipeline_id: 2001,
      bridges: [
        bridgeDetails(21, 'trigger:docs', { id: 3001, status: 'success', project: 'docs' }),
        bridgeDetails(22, 'trigger:e2e', { id: 3002, status: 'failed', project: 'e2e-suite' }),
        bridgeDetails(23, 'trigger:mobile', null),
      ],
    });
    renderPanel(details);
    const section = await screen.findByRole('region', { name: 'Triggered pipelines' });
    const rows = within(section).getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('data-bridge-id'))).toEqual(['21', '22', '23']);

    const failed = within(rows[1]!).getByRole('link');
    expect(within(rows[1]!).getByText('trigger:e2e')).toBeTruthy();
    expect(failed.textContent).toContain('#3002 failed');
    expect(failed.getAttribute('href')).toBe('http://gitlab.test/acme/e2e-suite/-/pipelines/3002');
    expect(within(rows[0]!).getByRole('link').textContent).toContain('#3001 success');

    expect(within(rows[2]!).queryByRole('link')).toBeNull();
    expect(within(rows[2]!).getByText('not started')).toBeTruthy();
  });

  it.each([
    ['an empty list', 2002, []],
    ['no bridges field', 2003, undefined],
  ])(
    'shows no triggered-pipelines section for a pipeline without trigger jobs (%s)',
    async (_, id, bridges) => {
      renderPanel(pipelineDetails({ pipeline_id: id, bridges }));
      // The stages render once the details have arrived; the triggers section never does.
      const stages = await screen.findByRole('region', { name: 'Jobs by stage' });
      expect(within(stages).getByText('unit')).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'Triggered pipelines' })).toBeNull();
      expect(screen.queryByText('Triggered pipelines')).toBeNull();
    },
  );
});
