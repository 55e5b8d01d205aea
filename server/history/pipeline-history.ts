import { coversHot, readColdContext, type ColdContext, type HotRuns } from './cold-context.ts';
import type { HistoryStore, StoredMergeRequest } from './history-store.ts';
import { JobListsOverlay, PackedJobLists } from './packed-jobs.ts';
import { ProjectPasts } from './project-past.ts';
import type {
  HistorySnapshot,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from './model.ts';

const DAY_MS = 86_400_000;
/** Changes are written this long after the first of a burst, together. */
const FLUSH_DELAY_MS = 50;
/** The hot horizon moves by at least this much (prune runs every 6 hours). */
const HORIZON_STEP_MS = DAY_MS / 2;
/**
 * `loadAll` reads this much at a time: a day of a 2,000-project group is 100,000 jobs, whose
 * records, alive until packed, raised the peak memory.
 */
const LOAD_SLICE_MS = 2 * 3_600_000;

/** How the history holds its past. */
export interface PipelineHistoryOptions {
  /**
   * The oldest creation time memory holds at `now` (the hot horizon); older pipelines are read from
   * the store when a view needs them. Default: the whole retention in memory.
   */
  hotStart?: (now: number) => number;
  /** Successful runs per job kept for the duration series (the regression rule's 10 + 30). */
  runsKept?: number;
}

/**
 * The pipeline history: the recent part (the hot horizon: the summary window and a day) in memory,
 * all of it in the store, every change written through. A restart reads it back in two steps:
 * `open` takes the projects and the summary window's pipelines at once (a warm start needs nothing
 * else), and `loadAll` reads the jobs of the hot horizon in day-sized slices between which the
 * event loop runs. A snapshot is memory plus, per project, the little of the older past the health
 * views read (the default branch since its last success, the newest successful runs of each job:
 * `cold-context.ts`), read from the store once and kept until the horizon moves; a longer window
 * reads its days transiently (`snapshotFrom`). Only watched projects (the group's latest project
 * list) appear in snapshots; older records stay on disk until pruned.
 */
export class PipelineHistory {
  private readonly projects = new Map<number, ProjectHistoryRecord>();
  private watched: number[] = [];
  private watchedIds = new Set<number>();
  private readonly pipelines = new Map<number, PipelineHistoryRecord>();
  // Packed: a week of a large group is 800,000 attempts (packed-jobs.ts).
  private readonly jobs = new PackedJobLists((id) => this.projects.get(id)?.webUrl);
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
  /** Pipelines created before this are read from the store when needed. */
  private hotFrom: number;
  private loaded = false;
  private failedAtOpen = new Map<number, readonly JobHistoryRecord[]>();
  private readonly cold = new Map<number, ColdContext>();
  private readonly pasts: ProjectPasts;
  private readonly hotStart: (now: number) => number;
  private readonly runsKept: number;

  private constructor(
    private readonly store: HistoryStore,
    private readonly openedAt: number,
    options: PipelineHistoryOptions,
  ) {
    this.hotStart = options.hotStart ?? ((now: number) => now - this.store.retentionDays * DAY_MS);
    this.runsKept = options.runsKept ?? 40;
    this.hotFrom = this.hotStart(openedAt);
    this.pasts = new ProjectPasts(store);
  }

  /**
   * Opens the history: reads the projects, merge requests and the pipelines created since
   * `windowStart` (jobs only of the failed ones) — what a warm start serves. Pruning is left to
   * `prune`, after the first summary: on a large file it takes seconds.
   */
  static open(
    store: HistoryStore,
    now: number,
    windowStart: number,
    options: PipelineHistoryOptions = {},
  ): PipelineHistory {
    const history = new PipelineHistory(store, now, options);
    const snapshot = store.load(
      Math.max(windowStart, now - store.retentionDays * DAY_MS),
      Number.MAX_SAFE_INTEGER,
      false,
    );
    for (const p of snapshot.projects) history.projects.set(p.id, p);
    for (const p of snapshot.pipelines) history.pipelines.set(p.pipelineId, p);
    // A failed pipeline's row names its failing job: its failed attempts are needed for the first
    // summary (the rest of its jobs come with `loadAll`).
    history.failedAtOpen = store.failedJobsSince(
      Math.max(windowStart, now - store.retentionDays * DAY_MS),
    );
    for (const mr of store.mergeRequests())
      history.mergeRequests.set(`${mr.projectId}:${mr.iid}`, mr);
    const watched = store.getMeta('watchedProjects');
    history.watched = watched ? (JSON.parse(watched) as number[]) : [];
    history.watchedIds = new Set(history.watched);
    return history;
  }

  /**
   * Reads the hot horizon (pipelines and jobs) two hours at a time, newest first, yielding to the
   * event loop between days; records changed in memory meanwhile are kept. Resolves when done;
   * calling it again returns the same promise. Snapshots add the older past once it is done.
   */
  loadAll(): Promise<void> {
    this.loading ??= (async () => {
      const oldest = Math.max(this.hotFrom, this.openedAt - this.store.retentionDays * DAY_MS);
      for (let until = this.openedAt + DAY_MS; until > oldest; until -= LOAD_SLICE_MS) {
        if (!this.store.isOpen) return; // closed while loading: the service is stopping
        const slice = this.store.load(Math.max(oldest, until - LOAD_SLICE_MS), until);
        for (const p of slice.pipelines) {
          const known = this.pipelines.get(p.pipelineId);
          // Changed since it was written (the recorder got there first): memory is newer.
          if (known && (known.updatedAt !== p.updatedAt || known.jobsFor !== p.jobsFor)) continue;
          // The same record: the one memory has stays (the summary holds it too).
          if (!known) this.pipelines.set(p.pipelineId, p);
          const jobs = slice.jobs.get(p.pipelineId);
          if (jobs) this.jobs.set(p.pipelineId, jobs);
        }
        this.changes++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.loaded = true;
      this.failedAtOpen = new Map();
      this.changes++;
    })();
    return this.loading;
  }

  /** The oldest creation time memory holds; views reaching further read the store. */
  get horizon(): number {
    return this.hotFrom;
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

  /**
   * The job attempts of a pipeline in memory (empty until they were fetched or loaded); until
   * `loadAll` is done, a failed pipeline of the window has its failed attempts only.
   */
  jobsOf(pipelineId: number): readonly JobHistoryRecord[] {
    return this.jobs.get(pipelineId) ?? this.failedAtOpen.get(pipelineId) ?? [];
  }

  /** Stores pipelines, and the jobs of those given (replacing earlier attempts), atomically. */
  save(
    pipelines: readonly PipelineHistoryRecord[],
    jobsByPipeline: ReadonlyMap<number, readonly JobHistoryRecord[]> = new Map(),
  ): void {
    if (pipelines.length === 0 && jobsByPipeline.size === 0) return;
    for (const p of pipelines) {
      // A change to the past (a retried old pipeline) makes its project's cold context stale.
      if (p.createdAt < this.hotFrom) {
        this.cold.delete(p.projectId);
        this.pasts.forget(p.projectId);
      }
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
      const known = this.pipelines.get(id);
      // Not in memory: it may be in a cold context, which is read again.
      if (!known || known.createdAt < this.hotFrom) {
        this.cold.clear();
        this.pasts.clear();
      }
      this.pipelines.delete(id);
      this.jobs.delete(id);
      this.failedAtOpen.delete(id);
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

  /**
   * Drops what fell out of the retention from the store, and from memory what fell behind the hot
   * horizon (the cold contexts are read again at the new horizon).
   */
  prune(now: number): void {
    this.flush();
    const pruned = this.store.prune(now);
    if (pruned > 0) this.pasts.clear();
    let cutoff = now - this.store.retentionDays * DAY_MS;
    // The horizon moves in steps: each move reads every project's cold context again.
    if (this.hotStart(now) >= this.hotFrom + HORIZON_STEP_MS) {
      this.hotFrom = Math.max(cutoff, this.hotStart(now));
      this.cold.clear();
      this.pasts.clear();
      cutoff = this.hotFrom;
    } else if (pruned === 0) return;
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

  /**
   * The watched projects' history, oldest pipeline first: memory, and once `loadAll` is done each
   * project's cold context; the same object until a change.
   */
  snapshot(): HistorySnapshot {
    if (this.cached?.version === this.changes) return this.cached.snapshot;
    const snapshot = this.compose(this.hotFrom, [], new Map(), this.cold);
    this.cached = { version: this.changes, snapshot };
    return snapshot;
  }

  /**
   * The history from `fromMs` on as `snapshot()` shows it, for a window longer than memory holds:
   * the days before the horizon are read from the store for this answer only.
   */
  snapshotFrom(fromMs: number): HistorySnapshot {
    if (fromMs >= this.hotFrom || !this.loaded) return this.snapshot();
    this.flush();
    const read = this.store.load(fromMs, this.hotFrom);
    return this.compose(fromMs, read.pipelines, read.jobs, new Map());
  }

  /**
   * `snapshot()` with the whole stored past of the watched `projectIds`: every pipeline they have
   * before the horizon, whose jobs are read when asked for. Triage looks further back than the
   * health views (an open merge request's last pipeline, what fixed an error weeks ago, since when
   * the target branch is red); the past of the last few projects asked is kept (`project-past.ts`).
   */
  withPast(projectIds: readonly number[]): HistorySnapshot {
    const base = this.snapshot();
    const wanted = new Set(projectIds.filter((id) => this.watchedIds.has(id)));
    if (wanted.size === 0 || !this.loaded || !this.store.isOpen) return base;
    this.flush();
    const past: PipelineHistoryRecord[] = [];
    const over = new Map<number, ReadonlyMap<number, readonly JobHistoryRecord[]>>();
    for (const projectId of wanted) {
      const read = this.pasts.of(projectId, this.hotFrom);
      for (const p of read.pipelines) {
        // Memory's record of an old pipeline (retried since) is the newer one.
        if (this.pipelines.has(p.pipelineId)) continue;
        past.push(p);
        if (!base.jobs.has(p.pipelineId)) over.set(p.pipelineId, read.jobs);
      }
    }
    // The past holds the few old pipelines the cold context lent these projects.
    const rest = base.pipelines.filter(
      (p) =>
        !wanted.has(p.projectId) || p.createdAt >= this.hotFrom || this.pipelines.has(p.pipelineId),
    );
    return {
      projects: base.projects,
      pipelines: mergeByCreation(sortByCreation(past), rest),
      jobs: new JobListsOverlay(base.jobs, over),
    };
  }

  /** One watched project's whole retained history (its trends), memory and store together. */
  projectHistory(projectId: number): HistorySnapshot {
    const project = this.watchedProject(projectId);
    if (!project) return { projects: [], pipelines: [], jobs: new Map() };
    this.flush();
    const read = this.store.loadProject(
      projectId,
      this.openedAt - this.store.retentionDays * DAY_MS,
      this.hotFrom,
    );
    const byId = new Map(read.pipelines.map((p) => [p.pipelineId, p]));
    const jobs = new Map<number, readonly JobHistoryRecord[]>(read.jobs);
    for (const p of this.pipelines.values()) {
      if (p.projectId !== projectId) continue;
      byId.set(p.pipelineId, p);
      const list = this.jobs.get(p.pipelineId);
      if (list) jobs.set(p.pipelineId, list);
    }
    return { projects: [project], pipelines: sortByCreation([...byId.values()]), jobs };
  }

  /** Pipelines of watched projects in memory created at or after `fromMs`, oldest first. */
  recentPipelines(fromMs: number): PipelineHistoryRecord[] {
    return sortByCreation(
      [...this.pipelines.values()].filter(
        (p) => p.createdAt >= fromMs && this.watchedIds.has(p.projectId),
      ),
    );
  }

  /**
   * Memory, the pipelines (and jobs) `read` from the store for [boundary, horizon), and per project
   * the cold context before `boundary` (from `contexts` when still good, which keeps new ones).
   */
  private compose(
    boundary: number,
    read: readonly PipelineHistoryRecord[],
    readJobs: ReadonlyMap<number, readonly JobHistoryRecord[]>,
    contexts: Map<number, ColdContext>,
  ): HistorySnapshot {
    const watched = this.watchedIds;
    const byId = new Map<number, PipelineHistoryRecord>();
    for (const p of read) if (watched.has(p.projectId)) byId.set(p.pipelineId, p);
    for (const p of this.pipelines.values())
      if (watched.has(p.projectId)) byId.set(p.pipelineId, p);
    // Memory's attempts win over what was read; the rest are laid over memory's, not copied.
    const extra = new Map<number, ReadonlyMap<number, readonly JobHistoryRecord[]>>();
    for (const id of readJobs.keys()) if (!this.jobs.has(id)) extra.set(id, readJobs);
    const jobs = new JobListsOverlay(this.jobs, extra);
    if (this.loaded && this.store.isOpen) {
      this.flush();
      const hot = hotRunsOf(byId.values(), jobs);
      for (const projectId of this.watched) {
        const runs = hot.get(projectId) ?? { jobs: new Map(), pipelines: 0 };
        let context = contexts.get(projectId);
        if (!context || !coversHot(context, runs, this.runsKept)) {
          context = readColdContext(
            this.store,
            projectId,
            boundary,
            runs,
            this.runsKept,
            (id) => this.projects.get(id)?.webUrl,
          );
          contexts.set(projectId, context);
        }
        for (const p of context.pipelines) if (!byId.has(p.pipelineId)) byId.set(p.pipelineId, p);
        for (const id of context.jobs.keys()) if (!jobs.has(id)) extra.set(id, context.jobs);
      }
    }
    return {
      projects: this.watchedProjects(),
      pipelines: sortByCreation([...byId.values()]),
      jobs,
    };
  }
}

function sortByCreation(pipelines: PipelineHistoryRecord[]): PipelineHistoryRecord[] {
  return pipelines.sort((a, b) => a.createdAt - b.createdAt || a.pipelineId - b.pipelineId);
}

/** Two lists sorted by creation merged into one. */
function mergeByCreation(
  a: readonly PipelineHistoryRecord[],
  b: readonly PipelineHistoryRecord[],
): PipelineHistoryRecord[] {
  const out: PipelineHistoryRecord[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const order = x.createdAt - y.createdAt || x.pipelineId - y.pipelineId;
    if (order > 0) out.push(b[j++]!);
    else {
      out.push(a[i++]!);
      if (order === 0) j++; // the same pipeline in both
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Successful runs with a duration per project: per job name, and of default-branch pipelines. */
function hotRunsOf(
  pipelines: Iterable<PipelineHistoryRecord>,
  jobs: JobListsOverlay,
): Map<number, HotRuns> {
  const out = new Map<number, { jobs: Map<string, number>; pipelines: number }>();
  for (const p of pipelines) {
    let runs = out.get(p.projectId);
    if (!runs) out.set(p.projectId, (runs = { jobs: new Map(), pipelines: 0 }));
    if (p.status === 'success' && p.defaultBranch && p.duration !== null) runs.pipelines++;
    const names = runs.jobs;
    // From the packed lists: a week of a large group is 800,000 attempts not to build here.
    jobs.eachSuccessfulRun(p.pipelineId, (name) => names.set(name, (names.get(name) ?? 0) + 1));
  }
  return out;
}
