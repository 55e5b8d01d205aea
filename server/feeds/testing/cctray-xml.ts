import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';
import { CCTRAY_ACTIVITIES, CCTRAY_STATUSES } from '../cctray.ts';

/** One parsed `<Project>`: its attributes as sent (checked by `parseCcTray`). */
export interface ParsedProject {
  name: string;
  activity: string;
  lastBuildStatus: string;
  webUrl: string;
  lastBuildLabel?: string;
  lastBuildTime?: string;
  nextBuildTime?: string;
}

// cctray.org/v1 (build-canaries/cctray pages/cctray-1.md): the attributes a <Project> may have.
const ATTRIBUTES = [
  'name',
  'activity',
  'lastBuildStatus',
  'lastBuildLabel',
  'lastBuildTime',
  'nextBuildTime',
  'webUrl',
];
// The table marks these "required: yes"; lastBuildTime too, but only a build has a time (see the
// check below), and "clients … should not rely on any optional attribute being present".
const ALWAYS = ['name', 'activity', 'lastBuildStatus', 'webUrl'];
// xs:dateTime with a zone: the spec's notes ask for one, "ideally … Zulu/GMT".
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses a cctray document with an XML parser (fast-xml-parser, after its validator) and checks
 * it against cctray.org/v1: one `<Projects>` root holding only `<Project>` elements, the spec's
 * attributes and nothing else, the enum value sets, zoned date-times, absolute web URLs and unique
 * names (CCMenu finds a project by name: erikdoe/ccmenu2 `CCTrayResponseParser.pipelineStatus`).
 */
export function parseCcTray(xml: string): ParsedProject[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const document = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    isArray: (name) => name === 'Project',
  }).parse(xml) as Record<string, unknown>;
  expect(Object.keys(document).filter((k) => k !== '?xml')).toEqual(['Projects']);
  const root = document.Projects;
  const projects =
    (root === '' ? [] : (root as { Project?: Record<string, string>[] }).Project) ?? [];
  if (root !== '') expect(Object.keys(root as object).filter((k) => k !== 'Project')).toEqual([]);
  for (const project of projects) {
    for (const key of Object.keys(project)) expect(ATTRIBUTES, key).toContain(key);
    for (const key of ALWAYS) expect(project[key], `${project.name} ${key}`).toBeTruthy();
    expect(CCTRAY_ACTIVITIES).toContain(project.activity);
    expect(CCTRAY_STATUSES).toContain(project.lastBuildStatus);
    if (project.lastBuildStatus !== 'Unknown') {
      expect(project.lastBuildTime, project.name).toMatch(DATE_TIME);
      expect(project.lastBuildLabel, project.name).toMatch(/^\d+$/);
    }
    if (project.lastBuildTime !== undefined) expect(project.lastBuildTime).toMatch(DATE_TIME);
    expect(new URL(project.webUrl!).protocol).toMatch(/^https?:$/);
  }
  const names = projects.map((p) => p.name);
  expect(new Set(names).size).toBe(names.length);
  return projects as unknown as ParsedProject[];
}
