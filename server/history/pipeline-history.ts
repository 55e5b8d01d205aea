import type { HistoryStore, StoredMergeRequest } from './history-store.ts';
import type {
  HistorySnapshot,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from './model.ts';

const DAY_MS = 86_400_000;
/** Changes are written this long after the first of a burst, together. */
const FLUSH_DELAY_MS = 50;

/**
 * The pipeline history in memory, written through to the store: every change is on disk before
 * it is visible. A restart reads it back in two steps: `open` takes the projects and the
 * summary window's pipelines at once (a warm start needs nothing else), and `loadAll` reads the
 * rest of the retention in day-sized slices between which the event loop runs, so the service
 * answers while months of jobs are read. Snapshots for the health computations are built once per
 * change. Only watched projects (the group's latest project list) appear in snapshots; older
 * records stay on disk until pruned.
 */
export class PipelineHistory {
  private readonly projects = new Map<number, ProjectHistoryRecord>();
  private watched: number[] = [];
  private watchedIds = new Set<number>();
  private readonly pipelines = new Map<number, PipelineHistoryRecord>();
  private readonly jobs = new Map<number, readonly JobHistoryRecord[]>();
  private readonly mergeRequests = new Map<string, StoredMergeRequest>();
  private changes = 0;
  private cached: { version: number; snapshot: HistorySnapshot } | null = null;
  private loading: Promise<void> | null = null;
  private pending = {
    pipelines: new Map<number, PipelineHistoryRecord>(),
    jobs: new Map<number, readonly JobHistoryRecord[]>(),
    deletes: new Set<number>(),
  };
  private flushTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly store: HistoryStore,
    private readonly openedAt: number,
  ) {}

  /**
   * Opens the history: prunes what fell out of retention, and reads the projects, merge requests
   * and the pipelines created since `windowStart` (jobs only of the failed ones) — what a warm
   * start serves.
   */
  static open(store: HistoryStore, now: number, windowStart: number): PipelineHistory {
    const history = new PipelineHistory(store, now);
    store.prune(now);
    const snapshot = store.load(windowStart, Number.MAX_SAFE_INTEGER, false);
    for (const p of snapshot.projects) history.projects.set(p.id, p);
    for (const p of snapshot.pipelines) history.pipelines.set(p.pipelineId, p);
    // A failed pipeline's row names its failing job: those jobs are needed for the first summary.
    const failed = snapshot.pipelines.filter((p) => p.status === 'failed').map((p) => p.pipelineId);
    for (const [id, list] of store.jobsOf(failed)) history.jobs.set(id, list);
    for (const mr of store.mergeRequests())
      history.mergeRequests.set(`${mr.projectId}:${mr.iid}`, mr);
    const watched = store.getMeta('watchedProjects');
    history.watched = watched ? (JSON.parse(watched) as number[]) : [];
    history.watchedIds = new Set(history.watched);
    return history;
  }

  /**
   * Reads the whole retention (pipelines and jobs) a day at a time, newest first, yielding to the
   * event loop between days; records changed in memory meanwhile are kept. Resolves when done;
   * calling it again returns the same promise.
   */
  loadAll(): Promise<void> {
    this.loading ??= (async () => {
      const oldest = this.openedAt - this.store.retentionDays * DAY_MS;
      for (let until = this.openedAt + DAY_MS; until > oldest; until -= DAY_MS) {
        if (!this.store.isOpen) return; // closed while loading: the service is stopping
        const slice = this.store.load(Math.max(oldest, until - DAY_MS), until);
        for (const p of slice.pipelines) {
          const known = this.pipelines.get(p.pipelineId);
          // Changed since it was written (the recorder got there first): memory is newer.
          if (known && (known.updatedAt !== p.updatedAt || known.jobsFor !== p.jobsFor)) continue;
          this.pipelines.set(p.pipelineId, p);
          const jobs = slice.jobs.get(p.pipelineId);
          if (jobs) this.jobs.set(p.pipelineId, jobs);
        }
        this.changes++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    return this.loading;
  }

  /** Increases on every change; a snapshot is rebuilt only when it moved. */
  get version(): number {
    return this.changes;
  }

  /** Days kept. */
  get retentionDays(): number {
    return this.store.retentionDays;
  }

  /** A bookkeeping value kept with the history (group, project-list time). */
  meta(key: string): string | undefined {
    return this.store.getMeta(key);
  }

  /** Stores bookkeeping values. */
  setMeta(values: Record<string, string | undefined>): void {
    this.store.setMeta(values);
  }

  /** The group's current projects: stored, and the only ones snapshots show. */
  setProjects(projects: readonly ProjectHistoryRecord[]): void {
    this.store.upsertProjects(projects);
    this.watched = projects.map((p) => p.id);
    this.watchedIds = new Set(this.watched);
    this.store.setMeta({ watchedProjects: JSON.stringify(this.watched) });
    for (const p of projects) this.projects.set(p.id, p);
    this.changes++;
  }

  /** The watched projects. */
  watchedProjects(): ProjectHistoryRecord[] {
    return this.watched.flatMap((id) => this.projects.get(id) ?? []);
  }

  /** A watched project by id (a lookup per recorded pipeline: no list built). */
  watchedProject(projectId: number): ProjectHistoryRecord | undefined {
    return this.watchedIds.has(projectId) ? this.projects.get(projectId) : undefined;
  }

  /** A stored pipeline, if any. */
  pipeline(pipelineId: number): PipelineHistoryRecord | undefined {
    return this.pipelines.get(pipelineId);
  }

  /** The stored job attempts of a pipeline (empty until they were fetched). */
  jobsOf(pipelineId: number): readonly JobHistoryRecord[] {
    return this.jobs.get(pipelineId) ?? [];
  }

  /** Stores pipelines, and the jobs of those given (replacing earlier attempts), atomically. */
  save(
    pipelines: readonly PipelineHistoryRecord[],
    jobsByPipeline: ReadonlyMap<number, readonly JobHistoryRecord[]> = new Map(),
  ): void {
    if (pipelines.length === 0 && jobsByPipeline.size === 0) return;
    for (const p of pipelines) {
      this.pipelines.set(p.pipelineId, p);
      this.pending.pipelines.set(p.pipelineId, p);
      this.pending.deletes.delete(p.pipelineId);
    }
    for (const [id, list] of jobsByPipeline) {
      this.jobs.set(id, list);
      this.pending.jobs.set(id, list);
    }
    this.changes++;
    this.scheduleFlush();
  }

  /** Forgets pipelines GitLab no longer has. */
  delete(pipelineIds: readonly number[]): void {
    if (pipelineIds.length === 0) return;
    for (const id of pipelineIds) {
      this.pipelines.delete(id);
      this.jobs.delete(id);
      this.pending.pipelines.delete(id);
      this.pending.jobs.delete(id);
      this.pending.deletes.add(id);
    }
    this.changes++;
    this.scheduleFlush();
  }

  /**
   * Writes what changed since the last flush in one transaction (one fsync instead of one per
   * pipeline: a first load records thousands). Runs 50 ms after a change, and on close; what is
   * lost in a crash inside those 50 ms is read from GitLab again.
   */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.store.isOpen) return;
    const { pipelines, jobs, deletes } = this.pending;
    if (deletes.size > 0) this.store.deletePipelines([...deletes]);
    if (pipelines.size > 0 || jobs.size > 0) {
      // Jobs reference their pipeline: write the in-memory record of any pipeline with new jobs.
      for (const id of jobs.keys()) {
        const p = this.pipelines.get(id);
        if (p && !pipelines.has(id)) pipelines.set(id, p);
      }
      this.store.savePipelines([...pipelines.values()], jobs);
    }
    this.pending = { pipelines: new Map(), jobs: new Map(), deletes: new Set() };
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
    this.flushTimer.unref?.();
  }

  /** Drops what fell out of the retention. */
  prune(now: number): void {
    this.flush();
    if (this.store.prune(now) === 0) return;
    const cutoff = now - this.store.retentionDays * DAY_MS;
    for (const [id, p] of this.pipelines)
      if (p.createdAt < cutoff) {
        this.pipelines.delete(id);
        this.jobs.delete(id);
      }
    this.changes++;
  }

  /** A merge request's remembered title and link. */
  mergeRequest(projectId: number, iid: number): StoredMergeRequest | undefined {
    return this.mergeRequests.get(`${projectId}:${iid}`);
  }

  /** Remembers a merge request's title and link. */
  saveMergeRequest(mr: StoredMergeRequest): void {
    this.store.saveMergeRequest(mr);
    this.mergeRequests.set(`${mr.projectId}:${mr.iid}`, mr);
    this.changes++;
  }

  /** The watched projects' history, oldest pipeline first; the same object until a change. */
  snapshot(): HistorySnapshot {
    if (this.cached?.version === this.changes) return this.cached.snapshot;
    const watched = new Set(this.watched);
    const pipelines = [...this.pipelines.values()]
      .filter((p) => watched.has(p.projectId))
      .sort((a, b) => a.createdAt - b.createdAt || a.pipelineId - b.pipelineId);
    const snapshot: HistorySnapshot = {
      projects: this.watchedProjects(),
      pipelines,
      jobs: this.jobs,
    };
    this.cached = { version: this.changes, snapshot };
    return snapshot;
  }
}
