/**
 * What `explain` is given: a GitLab job URL (`https://gitlab.example.com/group/project/-/jobs/123`,
 * anything after the id such as `/raw` allowed) or `PROJECT JOB_ID` (a numeric project id or its
 * full path). A URL names its project by path under the GitLab's base URL, which may carry a
 * relative root (`https://example.com/gitlab`), so the path is cut only once the base is known.
 */
import { CliError } from '../errors.ts';

/** A job named by its GitLab URL or by project and id. */
export type JobRef =
  { kind: 'url'; url: URL; jobId: number } | { kind: 'id'; project: string; jobId: number };

// GitLab's web routes put `/-/` between a project's path and its pages (doc/development/routing.md).
const JOB_PATH = /^(.*?)\/-\/jobs\/(\d+)(?:\/.*)?$/;
// A namespace/project path: segments of letters, digits, `_`, `-`, `.`, separated by `/`.
const PROJECT_PATH = /^[\w.-]+(?:\/[\w.-]+)+$/;

const EXAMPLES =
  "give a job URL (https://gitlab.example.com/group/project/-/jobs/123) or 'PROJECT JOB_ID'";

function jobIdOf(text: string): number | undefined {
  const id = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(id) ? id : undefined;
}

/** Reads the positional arguments of `explain`; anything else is a `bad_job_ref` error. */
export function parseJobRef(args: readonly string[]): JobRef {
  if (args.length === 1) {
    const [text] = args as [string];
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new CliError(
        'bad_job_ref',
        jobIdOf(text) === undefined
          ? `'${text}' is not a job: ${EXAMPLES}`
          : `job ${text} needs its project: 'PROJECT ${text}' (project id or path), or the job URL`,
      );
    }
    const match = JOB_PATH.exec(url.pathname);
    const jobId = match ? jobIdOf(match[2]!) : undefined;
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !match || jobId === undefined) {
      throw new CliError('bad_job_ref', `'${text}' is not a GitLab job URL: ${EXAMPLES}`);
    }
    if (match[1]!.replace(/^\/+/, '') === '') {
      throw new CliError('bad_job_ref', `'${text}' names no project before /-/jobs/`);
    }
    return { kind: 'url', url, jobId };
  }
  if (args.length === 2) {
    const [project, job] = args as [string, string];
    const jobId = jobIdOf(job);
    if (jobId === undefined) {
      throw new CliError('bad_job_ref', `'${job}' is not a job id (a positive whole number)`);
    }
    const trimmed = project.replace(/^\/+|\/+$/g, '');
    if (jobIdOf(trimmed) === undefined && !PROJECT_PATH.test(trimmed)) {
      throw new CliError(
        'bad_job_ref',
        `'${project}' is not a project: give its numeric id or its full path (group/project)`,
      );
    }
    return { kind: 'id', project: trimmed, jobId };
  }
  throw new CliError(
    'bad_job_ref',
    args.length === 0 ? `which job? ${EXAMPLES}` : `too many arguments: ${EXAMPLES}`,
  );
}

/**
 * The GitLab base URL of a job URL: `configured` (a relative root included) when the URL lies
 * under it, else the URL's origin.
 */
export function gitlabBaseOf(ref: Extract<JobRef, { kind: 'url' }>, configured?: string): string {
  if (configured !== undefined && isUnder(ref.url, configured))
    return configured.replace(/\/+$/, '');
  return ref.url.origin;
}

/** True when `url` is on the GitLab at `baseUrl` (same origin, under its path). */
export function isUnder(url: URL, baseUrl: string): boolean {
  const base = new URL(baseUrl);
  const root = base.pathname.replace(/\/+$/, '');
  return url.origin === base.origin && (root === '' || url.pathname.startsWith(`${root}/`));
}

/** The project (id or full path) a reference names, a URL's path read under `baseUrl`. */
export function projectOf(ref: JobRef, baseUrl: string): string {
  if (ref.kind === 'id') return ref.project;
  const root = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const prefix = JOB_PATH.exec(ref.url.pathname)![1]!;
  const path = decodeURIComponent(prefix.slice(root.length)).replace(/^\/+|\/+$/g, '');
  if (!PROJECT_PATH.test(path)) {
    throw new CliError('bad_job_ref', `'${ref.url.href}' names no project path under ${baseUrl}`);
  }
  return path;
}
