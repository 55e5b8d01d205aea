import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { projectSummary, recentPipeline, summaryFixture } from '../../testing/fixtures.ts';
import { renderWithFeed } from '../../testing/render-with-feed.tsx';
import { DEFAULT_PROJECT_QUERY } from '../../lib/projects-filter.ts';
import { emptyMessage, ProjectsView, resetProjectsView } from './projects-view.tsx';

const now = new Date('2026-03-10T12:00:00Z');
afterEach(() => {
  cleanup();
  resetProjectsView();
});

const rows = () => document.querySelectorAll('[data-project-id]');

describe('ProjectsView', () => {
  it('renders 500 projects through a virtual list (only a screenful in the DOM)', async () => {
    renderWithFeed(<ProjectsView />, summaryFixture(500, now));
    expect(await screen.findByText('500 projects')).toBeTruthy();
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(40);
  });

  it('filters by text and state and says how many match', async () => {
    renderWithFeed(<ProjectsView />, summaryFixture(30, now));
    const input = await screen.findByLabelText('Filter projects by name or path');
    fireEvent.change(input, { target: { value: 'project-2' } });
    // project-2 and project-20 … project-29
    expect(screen.getByText('11 of 30 projects')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'nothing-like-this' } });
    expect(screen.getByText(/No project matches/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    fireEvent.click(screen.getByRole('button', { name: 'Running' }));
    const running = summaryFixture(30, now).projects.filter((p) => p.running > 0).length;
    expect(screen.getByText(`${running} of 30 projects`)).toBeTruthy();
  });

  it('sorts by a column and expands a project to its recent pipelines', async () => {
    renderWithFeed(<ProjectsView />, summaryFixture(12, now));
    await screen.findByText('12 projects');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Project' }));
    const names = [...rows()].map((r) => r.querySelector('.project-name')!.textContent);
    expect(names.slice(0, 4)).toEqual(['project-1', 'project-2', 'project-3', 'project-4']);
    expect(screen.getByRole('button', { name: 'Project, sorted ascending' })).toBeTruthy();

    const first = rows()[0]!;
    const toggle = within(first as HTMLElement).getAllByRole('button')[0]!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(screen.getByRole('list', { name: 'Recent pipelines of project-1' })).toBeTruthy();
  });

  it("shows the service's average duration, not one over pipelines without a duration", async () => {
    const summary = summaryFixture(1, now);
    summary.projects = [
      projectSummary(1, [
        recentPipeline({ pipeline_id: 3, status: 'running', duration: null }),
        recentPipeline({ pipeline_id: 2, duration: 300 }),
        recentPipeline({ pipeline_id: 1, duration: 100 }),
      ]),
    ];
    renderWithFeed(<ProjectsView />, summary);
    await screen.findByText(/^1 project/);
    const row = rows()[0]!;
    // The server divides 400 s by the 2 pipelines with a duration; 3 would say 2m 13s.
    expect(summary.projects[0]!.average_duration).toBe(200);
    expect(within(row as HTMLElement).getByText('3m 20s')).toBeTruthy();
  });

  it('applies a live pipeline-update without refetching', async () => {
    const { sources } = renderWithFeed(<ProjectsView />, summaryFixture(5, now));
    await screen.findByText('5 projects');
    act(() => {
      sources[0]!.open();
      sources[0]!.emit('pipeline-update', summaryFixture(7, now, 3));
    });
    expect(screen.getByText('7 projects')).toBeTruthy();
  });

  it('says what an empty table means without quoting an empty filter (issue 30)', () => {
    const query = { ...DEFAULT_PROJECT_QUERY };
    expect(emptyMessage({ ...query, show: 'running' })).toBe('No running projects right now.');
    expect(emptyMessage({ ...query, text: '  ' })).toBe('No projects right now.');
    expect(emptyMessage({ ...query, text: 'billing ' })).toBe('No project matches “billing”.');
    expect(emptyMessage({ ...query, text: 'api', show: 'failing' })).toBe(
      'No failing project matches “api”.',
    );
  });
});
