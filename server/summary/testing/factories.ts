import type { PipelineRecord, Project } from '../model.ts';

/** A project with sensible defaults. */
export function aProject(overrides: Partial<Project> = {}): Project {
  const id = overrides.id ?? 1;
  return {
    id,
    name: `project-${id}`,
    path: `acme/project-${id}`,
    webUrl: `https://gitlab.test/acme/project-${id}`,
    ...overrides,
  };
}

let nextId = 1000;

/** A pipeline record with sensible defaults; `createdAt` defaults to `now`. */
export function aPipeline(
  overrides: Partial<PipelineRecord> & { now?: number } = {},
): PipelineRecord {
  const { now = Date.parse('2026-11-21T12:00:00Z'), ...rest } = overrides;
  const id = rest.id ?? nextId++;
  const createdAt = rest.createdAt ?? now;
  return {
    id,
    projectId: 1,
    status: 'success',
    ref: 'main',
    source: 'push',
    createdAt,
    updatedAt: new Date(createdAt).toISOString(),
    webUrl: `https://gitlab.test/acme/project-1/-/pipelines/${id}`,
    duration: 60,
    user: {
      id: 7,
      username: 'ada',
      name: 'Ada Lovelace',
      avatarUrl: 'https://gitlab.test/ada.png',
    },
    detailsFor: new Date(createdAt).toISOString(),
    ...rest,
  };
}
