// The source locations a failure points at, as repository paths: the runner's checkout folder
// stripped, checked against the repository's files at the failing commit (those that exist first)
// and linked to GitLab's file view at the line.
import type { RepositoryTree } from '../repository-trees.ts';

/** A location the analysis names, with its repository path and link when known. */
export interface LinkedLocation {
  /** The path from the repository's root when it could be told, else as the log printed it. */
  file: string;
  line: number;
  column?: number | undefined;
  /**
   * True when the file exists in the repository at the commit, false when the repository's
   * complete listing lacks it (a generated or library file), undefined when not checked.
   */
  exists: boolean | undefined;
  /** GitLab's view of the file at the commit, at the line. */
  url?: string | undefined;
}

/** The locations of one failure, and why they were not checked when they were not. */
export interface FailureLocations {
  items: LinkedLocation[];
  /** Set when the paths could not be checked against the repository. */
  unchecked?: string | undefined;
}

/** Where the job ran, as far as the analysis knows. */
export interface LocationScope {
  /** `https://gitlab.example.com/acme/web` (the job's web_url without `/-/jobs/N`). */
  projectUrl: string | undefined;
  /** `acme/web`: the runner checks out under a folder ending in it. */
  projectPath: string | undefined;
  sha: string | undefined;
}

/** The project's web address and path, from a job's web_url (`…/acme/web/-/jobs/42`). */
export function scopeOfJob(webUrl: string | undefined, sha: string | undefined): LocationScope {
  const m = webUrl ? /^(https?:\/\/[^/]+)(\/.+?)\/-\/jobs\/\d+\/?$/.exec(webUrl) : null;
  return {
    projectUrl: m ? `${m[1]}${m[2]}` : undefined,
    projectPath: m ? decodeURIComponent(m[2]!.slice(1)) : undefined,
    sha,
  };
}

/** `file:line[:column]` (the analyser's own format) read back. */
export function parseLocation(
  ref: string,
): { file: string; line: number; column?: number } | undefined {
  const m = /^(.+?):(\d+)(?::(\d+))?$/.exec(ref);
  if (!m) return undefined;
  return {
    file: m[1]!,
    line: Number(m[2]),
    ...(m[3] !== undefined ? { column: Number(m[3]) } : {}),
  };
}

/**
 * The path from the repository's root: the runner's checkout folder (CI_PROJECT_DIR, by default
 * `/builds/<namespace>/<project>`, or under the runner's `builds_dir`; doc/ci/variables/
 * predefined_variables.md) stripped, `./` dropped. Undefined for an absolute path outside it.
 */
export function repositoryRelative(
  file: string,
  projectPath: string | undefined,
): string | undefined {
  const plain = file.replace(/\\/g, '/');
  if (projectPath) {
    const marker = `/${projectPath}/`;
    const at = plain.indexOf(marker);
    if (at >= 0) return plain.slice(at + marker.length);
  }
  if (plain.startsWith('/') || /^[A-Za-z]:\//.test(plain)) return undefined;
  return plain.replace(/^(?:\.\/)+/, '');
}

/**
 * The repository path a printed path names: itself, the longest tail of it that is a file (an
 * absolute path from another checkout folder), or the only file ending in it (a JVM frame names
 * `com/acme/App.java` under `src/main/java/`).
 */
function findInTree(
  file: string,
  relative: string | undefined,
  paths: ReadonlySet<string>,
): string | undefined {
  if (relative !== undefined && paths.has(relative)) return relative;
  const parts = file.replace(/\\/g, '/').split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (paths.has(tail)) return tail;
  }
  const name = relative ?? parts.join('/');
  let only: string | undefined;
  for (const p of paths) {
    if (!p.endsWith(`/${name}`)) continue;
    if (only !== undefined) return undefined;
    only = p;
  }
  return only;
}

/** GitLab's file view at a commit and line: `<project>/-/blob/<sha>/<path>#L<line>`. */
export function blobUrl(projectUrl: string, sha: string, path: string, line: number): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `${projectUrl}/-/blob/${sha}/${encoded}#L${line}`;
}

/**
 * The locations (`file:line[:col]`, the project's own first) as repository paths, checked against
 * the repository's files when the tree is known: those that exist first, then those not checked,
 * then those the repository lacks. A location is linked when its repository path is known.
 */
export function linkLocations(
  refs: readonly string[],
  scope: LocationScope,
  tree: RepositoryTree | undefined,
): FailureLocations {
  const items: LinkedLocation[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    const loc = parseLocation(ref);
    if (!loc) continue;
    const relative = repositoryRelative(loc.file, scope.projectPath);
    let file = relative ?? loc.file;
    let exists: boolean | undefined;
    if (tree?.kind === 'files') {
      const found = findInTree(loc.file, relative, tree.paths);
      if (found !== undefined) {
        file = found;
        exists = true;
      } else if (tree.complete) {
        exists = false;
      }
    }
    const key = `${file}:${loc.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const linkable = exists === true || (exists === undefined && relative !== undefined);
    items.push({
      file,
      line: loc.line,
      column: loc.column,
      exists,
      url:
        linkable && scope.projectUrl && scope.sha
          ? blobUrl(scope.projectUrl, scope.sha, file, loc.line)
          : undefined,
    });
  }
  const rank = (l: LinkedLocation) => (l.exists === true ? 0 : l.exists === undefined ? 1 : 2);
  items.sort((a, b) => rank(a) - rank(b));
  return {
    items,
    unchecked:
      items.length === 0
        ? undefined
        : tree === undefined
          ? 'the repository’s files were not read'
          : tree.kind === 'unavailable'
            ? tree.reason
            : undefined,
  };
}

/** `file:line[:col]` of a linked location, as the analyser quotes it. */
export function locationText(l: LinkedLocation): string {
  return `${l.file}:${l.line}${l.column !== undefined ? `:${l.column}` : ''}`;
}

/** One location in Markdown: the reference, linked when it can be, and what is known of the file. */
export function describeLocation(l: LinkedLocation): string {
  const ref = `\`${locationText(l)}\``;
  const linked = l.url ? `[${ref}](${l.url})` : ref;
  return l.exists === false ? `${linked} (not in the repository at this commit)` : linked;
}

/** The locations in one Markdown line, with a note when they were not checked. */
export function describeLocations(found: FailureLocations): string {
  const list = found.items.map(describeLocation).join(', ');
  return found.unchecked
    ? `${list} — not checked against the repository: ${found.unchecked}`
    : list;
}
