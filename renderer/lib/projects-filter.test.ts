import { describe, expect, it } from 'vitest';
import { projectSummary, recentPipeline } from '../testing/fixtures.ts';
import { DEFAULT_PROJECT_QUERY, filterProjects } from './projects-filter.ts';

const projects = [
  projectSummary(1, [recentPipeline({ status: 'failed' }), recentPipeline()], {
    project_name: 'api',
    project_path: 'acme/backend/api',
  }),
  projectSummary(2, [recentPipeline({ status: 'running' })], {
    project_name: 'web',
    project_path: 'acme/frontend/web',
  }),
  projectSummary(3, [recentPipeline(), recentPipeline(), recentPipeline()], {
    project_name: 'worker',
    project_path: 'acme/backend/worker',
  }),
  projectSummary(4, [], { project_name: 'docs', project_path: 'acme/docs' }),
];
const names = (ps: { project_name: string }[]) => ps.map((p) => p.project_name);

describe('filterProjects', () => {
  it('keeps the service order by default', () => {
    expect(names(filterProjects(projects, DEFAULT_PROJECT_QUERY))).toEqual([
      'api',
      'web',
      'worker',
      'docs',
    ]);
  });

  it('matches every word against name and path', () => {
    const q = { ...DEFAULT_PROJECT_QUERY, text: 'backend  WOR' };
    expect(names(filterProjects(projects, q))).toEqual(['worker']);
    expect(names(filterProjects(projects, { ...q, text: 'nothing' }))).toEqual([]);
  });

  it('filters running and failing projects', () => {
    expect(names(filterProjects(projects, { ...DEFAULT_PROJECT_QUERY, show: 'running' }))).toEqual([
      'web',
    ]);
    expect(names(filterProjects(projects, { ...DEFAULT_PROJECT_QUERY, show: 'failing' }))).toEqual([
      'api',
    ]);
  });

  it('sorts by a column both ways, projects without finished pipelines last by rate', () => {
    const byRate = { ...DEFAULT_PROJECT_QUERY, sort: 'success_rate' as const };
    expect(names(filterProjects(projects, byRate))).toEqual(['worker', 'api', 'web', 'docs']);
    expect(names(filterProjects(projects, { ...byRate, sort: 'name', direction: 'asc' }))).toEqual([
      'api',
      'worker',
      'docs',
      'web',
    ]);
    expect(names(filterProjects(projects, { ...byRate, sort: 'total' }))).toEqual([
      'worker',
      'api',
      'web',
      'docs',
    ]);
  });
});
