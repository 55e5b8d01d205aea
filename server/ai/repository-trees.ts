// The files of a repository at a commit, read once per commit and kept for a while: the analysis
// checks the paths a log names against them, and every failed job of a pipeline shares one commit.
import { isAppError } from '../platform/errors.ts';

/** What is known of a repository's files at one commit. */
export type RepositoryTree =
  | {
      kind: 'files';
      /** Paths of the repository's files (blobs), from its root. */
      paths: ReadonlySet<string>;
      /** False when the listing stopped at the cap: a path missing from it may still exist. */
      complete: boolean;
    }
  | { kind: 'unavailable'; reason: string };

/** Reads a repository's tree entries at a commit (GitLabApi.listRepositoryTree). */
export type TreeReader = (
  projectId: number,
  sha: string,
  limit: number,
) => Promise<{ path: string; type: string }[]>;

/** How many entries are read at most: 30 pages of 100, once per commit. */
export const MAX_TREE_ENTRIES = 3_000;
/** How many commits' trees are kept (a pipeline's jobs share one; a few pipelines at a time). */
const KEPT_TREES = 32;

/**
 * Trees by project and commit, read at most once per commit while kept (concurrent asks share
 * one read). A refusal (403, 404) is kept like a tree, since it will not change for that commit;
 * other failures (GitLab unreachable) are forgotten, so the next analysis asks again.
 */
export class RepositoryTrees {
  private readonly kept = new Map<string, Promise<RepositoryTree>>();

  constructor(
    private readonly read: TreeReader,
    private readonly limit = MAX_TREE_ENTRIES,
  ) {}

  /** The repository's files at `sha`, or why they are unknown. */
  get(projectId: number, sha: string): Promise<RepositoryTree> {
    const key = `${projectId}:${sha}`;
    const hit = this.kept.get(key);
    if (hit) {
      // Most recently used last, so the oldest is the first evicted.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit;
    }
    const pending = this.load(projectId, sha, key);
    this.kept.set(key, pending);
    while (this.kept.size > KEPT_TREES) this.kept.delete(this.kept.keys().next().value!);
    return pending;
  }

  private async load(projectId: number, sha: string, key: string): Promise<RepositoryTree> {
    try {
      const entries = await this.read(projectId, sha, this.limit);
      return {
        kind: 'files',
        paths: new Set(entries.filter((e) => e.type === 'blob').map((e) => e.path)),
        complete: entries.length < this.limit,
      };
    } catch (err) {
      const lasting = isAppError(err, 'forbidden') || isAppError(err, 'not_found');
      if (!lasting) this.kept.delete(key);
      return {
        kind: 'unavailable',
        reason: isAppError(err, 'forbidden')
          ? 'GitLab refused to list the repository’s files (403: the token may not read the code)'
          : isAppError(err, 'not_found')
            ? 'GitLab found no repository tree at this commit (404)'
            : `GitLab did not list the repository’s files (${err instanceof Error ? err.message : String(err)})`,
      };
    }
  }
}
