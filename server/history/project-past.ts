import type { HistoryStore } from './history-store.ts';
import type { JobHistoryRecord, PipelineHistoryRecord } from './model.ts';

/**
 * Projects whose past is kept at once: a triage answer names the few projects of one user's merge
 * requests or one pipeline's details; the whole group's past (a million pipelines) would not fit.
 */
const KEPT_PROJECTS = 16;

/** One project's pipelines before the hot horizon, and the jobs of those read so far. */
interface Past {
  pipelines: readonly PipelineHistoryRecord[];
  jobs: StoredJobLists;
}

/**
 * The whole stored past of a few projects (every pipeline created before the hot horizon), for
 * triage: an open merge request's last pipeline, what fixed an error weeks ago and how long the
 * target branch has been red reach further back than memory. Pipelines are read once per project
 * and kept (the least recently asked project is dropped first) until the horizon moves; a
 * pipeline's jobs are read from the store when first asked for.
 */
export class ProjectPasts {
  private readonly kept = new Map<number, Past>();

  constructor(private readonly store: HistoryStore) {}

  /** A project's stored pipelines created before `before`, oldest first, and their jobs. */
  of(projectId: number, before: number): Past {
    let past = this.kept.get(projectId);
    if (past) this.kept.delete(projectId);
    else {
      past = {
        pipelines: this.store.loadProject(projectId, Number.MIN_SAFE_INTEGER, before, false)
          .pipelines,
        jobs: new StoredJobLists(this.store),
      };
      if (this.kept.size >= KEPT_PROJECTS) this.kept.delete(this.kept.keys().next().value!);
    }
    this.kept.set(projectId, past);
    return past;
  }

  /** Forgets a project's past (one of its old pipelines changed). */
  forget(projectId: number): void {
    this.kept.delete(projectId);
  }

  /** Forgets every project's past (the horizon moved, or a pipeline of unknown age was deleted). */
  clear(): void {
    this.kept.clear();
  }
}

/**
 * Job attempts of stored pipelines, read from the store on first `get` and kept: a triage answer
 * reads the jobs of a few past pipelines (a merge request's last one, the target branch's streak).
 */
export class StoredJobLists extends Map<number, readonly JobHistoryRecord[]> {
  constructor(private readonly store: HistoryStore) {
    super();
  }

  override get(pipelineId: number): readonly JobHistoryRecord[] | undefined {
    let list = super.get(pipelineId);
    if (list === undefined && this.store.isOpen) {
      list = this.store.jobsOf([pipelineId]).get(pipelineId) ?? [];
      super.set(pipelineId, list);
    }
    return list;
  }
}
