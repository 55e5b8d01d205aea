/**
 * The cctray feed (`GET /cc.xml`): the XML menu-bar monitors read — CCMenu, Nevergreen, BuildNotify,
 * CCTray. The format is cctray.org/v1 (build-canaries/cctray `pages/cctray-1.md`): a `<Projects>`
 * root holding one `<Project>` per build, with `name`, `activity` (Sleeping, Building,
 * CheckingModifications), `lastBuildStatus` (Success, Failure, Exception, Unknown),
 * `lastBuildLabel`, `lastBuildTime` and `webUrl`. Every value is computed here from the pipeline
 * history; monitors only draw it.
 */
import { XMLBuilder } from 'fast-xml-parser';
import { statusOutcome } from '../contract.ts';
import type { HealthIndex } from '../group-health/health-index.ts';
import type { PipelineHistoryRecord, ProjectHistoryRecord } from '../history/model.ts';

/** `activity` values of cctray.org/v1. */
export const CCTRAY_ACTIVITIES = ['Sleeping', 'Building', 'CheckingModifications'] as const;
/** `lastBuildStatus` values of cctray.org/v1. */
export const CCTRAY_STATUSES = ['Success', 'Failure', 'Exception', 'Unknown'] as const;

/** What a project is doing now. */
export type CcTrayActivity = (typeof CCTRAY_ACTIVITIES)[number];
/** How its last build ended. */
export type CcTrayStatus = (typeof CCTRAY_STATUSES)[number];

/** One `<Project>` of the feed: a project's default branch, or one of its refs. */
export interface CcTrayProject {
  /** `group/project` for the default branch, `group/project :: ref` for another ref. */
  name: string;
  activity: CcTrayActivity;
  lastBuildStatus: CcTrayStatus;
  /** The last build's pipeline id; absent while nothing finished. */
  lastBuildLabel?: string;
  /** When the last build finished (ISO 8601, UTC); absent while nothing finished. */
  lastBuildTime?: string;
  /** The project's pipelines on that ref in GitLab. */
  webUrl: string;
}

/** What the feed is computed from: group health's view of the pipeline history. */
export type CcTraySource = Pick<HealthIndex, 'projects' | 'pipelinesByProject' | 'from'>;

/** Between a project's path and a ref in the names of ref entries (GoCD's separator in cctray). */
export const REF_SEPARATOR = ' :: ';

/**
 * The feed's projects: each watched project's default branch (projects without one, empty
 * repositories, are left out), then each of `refs` the project has pipelines on, by project path.
 *
 * - `lastBuildStatus` comes from the newest success or failed pipeline on the ref in the retained
 *   history, as group health's default-branch state does: canceled and skipped pipelines say
 *   nothing about the code. GitLab has no "error" outcome, so `Exception` is never sent; no
 *   finished pipeline is `Unknown` (cctray.org/v1 notes: "use unknown for all status values not
 *   mentioned in the standard").
 * - `activity` is `Building` while a pipeline on the ref runs or waits to (the summary's "running"
 *   statuses), counting only pipelines in the summary window: the poller stops following older
 *   ones, so an old record still saying `running` is stale, not a build.
 */
export function ccTrayProjects(
  source: CcTraySource,
  refs: readonly string[] = [],
): CcTrayProject[] {
  const projects = [...source.projects.values()].sort(
    (a, b) => a.path.localeCompare(b.path) || a.id - b.id,
  );
  const entries: CcTrayProject[] = [];
  for (const project of projects) {
    const pipelines = source.pipelinesByProject.get(project.id) ?? [];
    if (project.defaultBranch) {
      const onDefault = pipelines.filter((p) => p.defaultBranch);
      entries.push(entry(project.path, project, project.defaultBranch, onDefault, source.from));
    }
    for (const ref of new Set(refs)) {
      if (ref === project.defaultBranch) continue;
      const onRef = pipelines.filter((p) => p.ref === ref);
      if (onRef.length === 0) continue;
      entries.push(
        entry(`${project.path}${REF_SEPARATOR}${ref}`, project, ref, onRef, source.from),
      );
    }
  }
  return entries;
}

function entry(
  name: string,
  project: ProjectHistoryRecord,
  ref: string,
  pipelines: readonly PipelineHistoryRecord[],
  windowStart: number,
): CcTrayProject {
  let last: PipelineHistoryRecord | undefined;
  let building = false;
  for (const p of pipelines) {
    if ((p.status === 'success' || p.status === 'failed') && (!last || newer(p, last))) last = p;
    if (p.createdAt >= windowStart && statusOutcome(p.status) === 'running') building = true;
  }
  return {
    name,
    activity: building ? 'Building' : 'Sleeping',
    lastBuildStatus: !last ? 'Unknown' : last.status === 'success' ? 'Success' : 'Failure',
    ...(last
      ? {
          lastBuildLabel: String(last.pipelineId),
          lastBuildTime: isoSeconds(last.finishedAt ?? last.createdAt),
        }
      : {}),
    webUrl: `${project.webUrl}/-/pipelines?ref=${encodeURIComponent(ref)}`,
  };
}

const newer = (a: PipelineHistoryRecord, b: PipelineHistoryRecord) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.pipelineId > b.pipelineId);

/**
 * ISO 8601 in UTC without fractions: cctray.org/v1 asks for a zone ("ideally … with Zulu/GMT time
 * marker"), and CCMenu strips fractional seconds before parsing (erikdoe/ccmenu2
 * `CCTrayResponseParser.dateForString`), so none are sent.
 */
function isoSeconds(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

// Characters XML 1.0 does not allow at all (§2.2 `Char`); escaping cannot express them.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
  format: true,
});

/** The feed as an XML document; attribute values are escaped by the builder. */
export function ccTrayXml(projects: readonly CcTrayProject[]): string {
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Projects: {
      Project: projects.map((project) =>
        Object.fromEntries(
          Object.entries(project).map(([key, value]) => [
            `@_${key}`,
            String(value).replace(NOT_XML_CHAR, ''),
          ]),
        ),
      ),
    },
  }) as string;
}
