import type Database from 'better-sqlite3';
import type { Logger } from '../platform/logger.ts';
import { TEST_REPORT_MIGRATION, TEST_REPORT_QUEUE_MIGRATION } from '../test-reports/migration.ts';
import { openStoreFile, schemaVersionOf, statementCache } from '../platform/sqlite-store-file.ts';
import { FAILURE_SIGNATURES_MIGRATION, SignatureTable } from './failure-signatures.ts';
import type {
  HistorySnapshot,
  HistoryUser,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from './model.ts';

/** Days of pipeline history kept when nothing else is configured. */
export const DEFAULT_RETENTION_DAYS = 90;

const DAY_MS = 86_400_000;

/** Schema migrations; index i brings the store from user_version i to i + 1. */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE projects (
    project_id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    path TEXT NOT NULL,
    web_url TEXT NOT NULL,
    default_branch TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE pipelines (
    pipeline_id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    ref TEXT NOT NULL,
    sha TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    default_branch INTEGER NOT NULL DEFAULT 0 CHECK (default_branch IN (0, 1)),
    user_id INTEGER,
    username TEXT,
    user_name TEXT,
    avatar_url TEXT,
    commit_title TEXT,
    commit_author TEXT,
    created_ms INTEGER NOT NULL,
    started_ms INTEGER,
    finished_ms INTEGER,
    updated_at TEXT NOT NULL,
    duration INTEGER,
    queued_duration INTEGER,
    web_url TEXT NOT NULL,
    details_for TEXT,
    jobs_for TEXT
  );
  CREATE INDEX pipelines_by_created ON pipelines (created_ms);
  CREATE INDEX pipelines_by_project ON pipelines (project_id, created_ms);
  CREATE TABLE jobs (
    job_id INTEGER PRIMARY KEY,
    pipeline_id INTEGER NOT NULL REFERENCES pipelines (pipeline_id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    stage TEXT NOT NULL,
    status TEXT NOT NULL,
    retried INTEGER NOT NULL DEFAULT 0 CHECK (retried IN (0, 1)),
    allow_failure INTEGER NOT NULL DEFAULT 0 CHECK (allow_failure IN (0, 1)),
    failure_reason TEXT,
    created_ms INTEGER NOT NULL,
    started_ms INTEGER,
    finished_ms INTEGER,
    duration REAL,
    queued_duration REAL,
    web_url TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX jobs_by_pipeline ON jobs (pipeline_id);
  CREATE TABLE merge_requests (
    project_id INTEGER NOT NULL,
    iid INTEGER NOT NULL,
    title TEXT NOT NULL,
    web_url TEXT NOT NULL,
    PRIMARY KEY (project_id, iid)
  ) WITHOUT ROWID;
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `,
  // 1: JUnit test reports (issue 26), kept beside the pipelines they belong to.
  TEST_REPORT_MIGRATION,
  FAILURE_SIGNATURES_MIGRATION,
  TEST_REPORT_QUEUE_MIGRATION,
];

/** The schema version this code writes. */
export const HISTORY_SCHEMA_VERSION = MIGRATIONS.length;

interface PipelineRow {
  pipeline_id: number;
  project_id: number;
  ref: string;
  sha: string;
  source: string;
  status: string;
  default_branch: number;
  user_id: number | null;
  username: string | null;
  user_name: string | null;
  avatar_url: string | null;
  commit_title: string | null;
  commit_author: string | null;
  created_ms: number;
  started_ms: number | null;
  finished_ms: number | null;
  updated_at: string;
  duration: number | null;
  queued_duration: number | null;
  web_url: string;
  details_for: string | null;
  jobs_for: string | null;
}

interface JobRow {
  job_id: number;
  pipeline_id: number;
  project_id: number;
  name: string;
  stage: string;
  status: string;
  retried: number;
  allow_failure: number;
  failure_reason: string | null;
  created_ms: number;
  started_ms: number | null;
  finished_ms: number | null;
  duration: number | null;
  queued_duration: number | null;
  web_url: string;
}

/** A merge request's title and link, as remembered. */
export interface StoredMergeRequest {
  projectId: number;
  iid: number;
  title: string;
  webUrl: string;
}

/** Options of the history store. */
export interface HistoryStoreOptions {
  /** Days of history kept by `prune` (default 90). */
  retentionDays?: number;
}

/**
 * Pipeline and job history in one SQLite file in the data dir, beyond the summary window.
 * Same durability as the analysis store: WAL (readers never block the poller's writes),
 * synchronous=FULL (an acknowledged write survives a crash or power loss), one transaction per
 * write, a schema version with forward-only migrations, and a damaged file moved aside rather than
 * stopping the service — history can always be re-read from GitLab.
 */
export class HistoryStore {
  /** Days kept by `prune`. */
  readonly retentionDays: number;
  /** Failed jobs' failure signatures (server/triage/). */
  readonly signatures: SignatureTable;
  private readonly stmt: (sql: string) => Database.Statement;
  private constructor(
    private readonly db: Database.Database,
    retentionDays: number,
  ) {
    this.retentionDays = retentionDays;
    this.stmt = statementCache(db);
    this.signatures = new SignatureTable(this.stmt);
  }

  /** Opens (creating and migrating as needed) the store at `file`; the file is private (0600). */
  static open(file: string, logger: Logger, options: HistoryStoreOptions = {}): HistoryStore {
    const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
    if (!Number.isInteger(retentionDays) || retentionDays < 1)
      throw new RangeError(`retentionDays must be a positive integer, not ${retentionDays}`);
    // The header only: a full quick_check would scan months of history before the first summary.
    const db = openStoreFile(file, logger, {
      what: 'history store',
      schemaVersion: HISTORY_SCHEMA_VERSION,
      migrations: MIGRATIONS,
      quickCheck: false,
    });
    return new HistoryStore(db, retentionDays);
  }

  /** The open database, for a domain keeping its own tables in this file (test reports). */
  database(): Database.Database {
    return this.db;
  }

  /** The schema version of the open file. */
  schemaVersion(): number {
    return schemaVersionOf(this.db);
  }

  /** Inserts or updates projects (projects no longer watched stay, for their history). */
  upsertProjects(projects: readonly ProjectHistoryRecord[]): void {
    const insert = this.stmt(
      `INSERT INTO projects (project_id, name, path, web_url, default_branch)
       VALUES (@id, @name, @path, @webUrl, @defaultBranch)
       ON CONFLICT (project_id) DO UPDATE SET name = excluded.name, path = excluded.path,
         web_url = excluded.web_url, default_branch = excluded.default_branch`,
    );
    this.db.transaction(() => {
      for (const p of projects) insert.run(p);
    })();
  }

  /** Every stored project. */
  projects(): ProjectHistoryRecord[] {
    return (
      this.stmt(
        'SELECT project_id, name, path, web_url, default_branch FROM projects ORDER BY project_id',
      ).all() as {
        project_id: number;
        name: string;
        path: string;
        web_url: string;
        default_branch: string;
      }[]
    ).map((r) => ({
      id: r.project_id,
      name: r.name,
      path: r.path,
      webUrl: r.web_url,
      defaultBranch: r.default_branch,
    }));
  }

  /**
   * Inserts or updates pipelines, with jobs for those given in `jobsByPipeline` (replacing what was
   * stored for them), in one transaction.
   */
  savePipelines(
    pipelines: readonly PipelineHistoryRecord[],
    jobsByPipeline: ReadonlyMap<number, readonly JobHistoryRecord[]> = new Map(),
  ): void {
    const upsert = this.stmt(
      `INSERT INTO pipelines (pipeline_id, project_id, ref, sha, source, status, default_branch,
         user_id, username, user_name, avatar_url, commit_title, commit_author, created_ms,
         started_ms, finished_ms, updated_at, duration, queued_duration, web_url, details_for, jobs_for)
       VALUES (@pipeline_id, @project_id, @ref, @sha, @source, @status, @default_branch,
         @user_id, @username, @user_name, @avatar_url, @commit_title, @commit_author, @created_ms,
         @started_ms, @finished_ms, @updated_at, @duration, @queued_duration, @web_url, @details_for, @jobs_for)
       ON CONFLICT (pipeline_id) DO UPDATE SET ref = excluded.ref, sha = excluded.sha,
         source = excluded.source, status = excluded.status,
         default_branch = excluded.default_branch, user_id = excluded.user_id,
         username = excluded.username, user_name = excluded.user_name,
         avatar_url = excluded.avatar_url, commit_title = excluded.commit_title,
         commit_author = excluded.commit_author, created_ms = excluded.created_ms,
         started_ms = excluded.started_ms, finished_ms = excluded.finished_ms,
         updated_at = excluded.updated_at, duration = excluded.duration,
         queued_duration = excluded.queued_duration, web_url = excluded.web_url,
         details_for = excluded.details_for, jobs_for = excluded.jobs_for`,
    );
    const dropJobs = this.stmt('DELETE FROM jobs WHERE pipeline_id = ?');
    const insertJob = this.stmt(
      `INSERT OR REPLACE INTO jobs (job_id, pipeline_id, project_id, name, stage, status, retried,
         allow_failure, failure_reason, created_ms, started_ms, finished_ms, duration,
         queued_duration, web_url)
       VALUES (@job_id, @pipeline_id, @project_id, @name, @stage, @status, @retried,
         @allow_failure, @failure_reason, @created_ms, @started_ms, @finished_ms, @duration,
         @queued_duration, @web_url)`,
    );
    this.db.transaction(() => {
      for (const p of pipelines) upsert.run(toPipelineRow(p));
      for (const [pipelineId, jobs] of jobsByPipeline) {
        dropJobs.run(pipelineId);
        for (const j of jobs) insertJob.run(toJobRow(j));
      }
    })();
  }

  /** Deletes pipelines (and their jobs) that GitLab no longer has. */
  deletePipelines(pipelineIds: readonly number[]): void {
    const del = this.stmt('DELETE FROM pipelines WHERE pipeline_id = ?');
    this.db.transaction(() => {
      for (const id of pipelineIds) del.run(id);
    })();
  }

  /**
   * Projects, pipelines created in [sinceMs, untilMs) (oldest first) and, unless `withJobs` is
   * false, their jobs.
   */
  load(sinceMs: number, untilMs = Number.MAX_SAFE_INTEGER, withJobs = true): HistorySnapshot {
    const pipelines = (
      this.stmt(
        'SELECT * FROM pipelines WHERE created_ms >= ? AND created_ms < ? ORDER BY created_ms, pipeline_id',
      ).all(sinceMs, untilMs) as PipelineRow[]
    ).map(fromPipelineRow);
    const jobs = new Map<number, JobHistoryRecord[]>();
    if (!withJobs) return { projects: this.projects(), pipelines, jobs };
    for (const row of this.stmt(
      `SELECT j.* FROM jobs j JOIN pipelines p ON p.pipeline_id = j.pipeline_id
       WHERE p.created_ms >= ? AND p.created_ms < ? ORDER BY j.job_id`,
    ).iterate(sinceMs, untilMs) as IterableIterator<JobRow>) {
      let list = jobs.get(row.pipeline_id);
      if (!list) jobs.set(row.pipeline_id, (list = []));
      list.push(fromJobRow(row));
    }
    return { projects: this.projects(), pipelines, jobs };
  }

  /**
   * The failed attempts of the failed pipelines created since `sinceMs`, by pipeline, in one read
   * (what a warm start's summary names: one query per pipeline took a second for 12,000).
   */
  failedJobsSince(sinceMs: number): Map<number, JobHistoryRecord[]> {
    const jobs = new Map<number, JobHistoryRecord[]>();
    for (const row of this.stmt(
      // CROSS JOIN keeps the pipelines' creation index as the outer loop: ordered by job the
      // planner walks all nine million jobs instead.
      `SELECT j.* FROM pipelines p CROSS JOIN jobs j ON j.pipeline_id = p.pipeline_id
       WHERE p.created_ms >= ? AND p.status = 'failed' AND j.status = 'failed'`,
    ).iterate(sinceMs) as IterableIterator<JobRow>) {
      let list = jobs.get(row.pipeline_id);
      if (!list) jobs.set(row.pipeline_id, (list = []));
      list.push(fromJobRow(row));
    }
    for (const list of jobs.values()) list.sort((a, b) => a.jobId - b.jobId);
    return jobs;
  }

  /** The stored job attempts of the given pipelines, oldest attempt first. */
  jobsOf(pipelineIds: readonly number[]): Map<number, JobHistoryRecord[]> {
    const jobs = new Map<number, JobHistoryRecord[]>();
    const select = this.stmt('SELECT * FROM jobs WHERE pipeline_id = ? ORDER BY job_id');
    for (const id of pipelineIds) {
      const rows = select.all(id) as JobRow[];
      if (rows.length > 0) jobs.set(id, rows.map(fromJobRow));
    }
    return jobs;
  }

  /**
   * A project's newest successful default-branch pipeline created before `beforeMs` (the start of
   * a red streak is after it), via the (project, created) index read backwards.
   */
  lastDefaultSuccess(projectId: number, beforeMs: number): PipelineHistoryRecord | undefined {
    const row = this.stmt(
      `SELECT * FROM pipelines WHERE project_id = ? AND created_ms < ? AND default_branch = 1
         AND status = 'success' ORDER BY created_ms DESC, pipeline_id DESC LIMIT 1`,
    ).get(projectId, beforeMs) as PipelineRow | undefined;
    return row && fromPipelineRow(row);
  }

  /** A project's default-branch pipelines created in [fromMs, beforeMs), oldest first. */
  defaultBranchPipelines(
    projectId: number,
    fromMs: number,
    beforeMs: number,
  ): PipelineHistoryRecord[] {
    return (
      this.stmt(
        `SELECT * FROM pipelines WHERE project_id = ? AND created_ms >= ? AND created_ms < ?
           AND default_branch = 1 ORDER BY created_ms, pipeline_id`,
      ).all(projectId, fromMs, beforeMs) as PipelineRow[]
    ).map(fromPipelineRow);
  }

  /** A project's newest `limit` successful default-branch pipelines with a duration before `beforeMs`. */
  successfulDefaultRuns(
    projectId: number,
    beforeMs: number,
    limit: number,
  ): PipelineHistoryRecord[] {
    return (
      this.stmt(
        `SELECT * FROM pipelines WHERE project_id = ? AND created_ms < ? AND default_branch = 1
           AND status = 'success' AND duration IS NOT NULL
         ORDER BY created_ms DESC, pipeline_id DESC LIMIT ?`,
      ).all(projectId, beforeMs, limit) as PipelineRow[]
    ).map(fromPipelineRow);
  }

  /**
   * A page of a project's pipelines that have stored jobs, newest first, created before the
   * (createdAt, pipelineId) position given: how the regression walk continues past memory.
   */
  pipelinesWithJobsBefore(
    projectId: number,
    createdAt: number,
    pipelineId: number,
    limit: number,
  ): PipelineHistoryRecord[] {
    return (
      this.stmt(
        `SELECT * FROM pipelines p WHERE project_id = ? AND (created_ms, pipeline_id) < (?, ?)
           AND EXISTS (SELECT 1 FROM jobs j WHERE j.pipeline_id = p.pipeline_id)
         ORDER BY created_ms DESC, pipeline_id DESC LIMIT ?`,
      ).all(projectId, createdAt, pipelineId, limit) as PipelineRow[]
    ).map(fromPipelineRow);
  }

  /**
   * One project's pipelines created in [sinceMs, untilMs) (oldest first) and, unless `withJobs` is
   * false, their jobs.
   */
  loadProject(
    projectId: number,
    sinceMs: number,
    untilMs: number,
    withJobs = true,
  ): HistorySnapshot {
    const pipelines = (
      this.stmt(
        `SELECT * FROM pipelines WHERE project_id = ? AND created_ms >= ? AND created_ms < ?
         ORDER BY created_ms, pipeline_id`,
      ).all(projectId, sinceMs, untilMs) as PipelineRow[]
    ).map(fromPipelineRow);
    return {
      projects: this.projects().filter((p) => p.id === projectId),
      pipelines,
      jobs: withJobs ? this.jobsOf(pipelines.map((p) => p.pipelineId)) : new Map(),
    };
  }

  /** Drops pipelines (and their jobs) created before `now - retentionDays`; returns how many. */
  prune(nowMs: number): number {
    const cutoff = nowMs - this.retentionDays * DAY_MS;
    this.signatures.prune(cutoff);
    return this.stmt('DELETE FROM pipelines WHERE created_ms < ?').run(cutoff).changes;
  }

  /** Remembers a merge request's title and link (MRs are looked up once). */
  saveMergeRequest(mr: StoredMergeRequest): void {
    this.stmt(
      `INSERT INTO merge_requests (project_id, iid, title, web_url) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id, iid) DO UPDATE SET title = excluded.title, web_url = excluded.web_url`,
    ).run(mr.projectId, mr.iid, mr.title, mr.webUrl);
  }

  /** Every remembered merge request. */
  mergeRequests(): StoredMergeRequest[] {
    return (
      this.stmt('SELECT project_id, iid, title, web_url FROM merge_requests').all() as {
        project_id: number;
        iid: number;
        title: string;
        web_url: string;
      }[]
    ).map((r) => ({ projectId: r.project_id, iid: r.iid, title: r.title, webUrl: r.web_url }));
  }

  /** A stored bookkeeping value (group, project-list time), or undefined. */
  getMeta(key: string): string | undefined {
    const row = this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value;
  }

  /** Stores (or, with undefined, removes) bookkeeping values in one transaction. */
  setMeta(values: Record<string, string | undefined>): void {
    const put = this.stmt(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
    const del = this.stmt('DELETE FROM meta WHERE key = ?');
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values))
        if (value === undefined) del.run(key);
        else put.run(key, value);
    })();
  }

  /** Counts of stored rows (diagnostics, tests). */
  counts(): { projects: number; pipelines: number; jobs: number } {
    const count = (table: string) =>
      this.stmt(`SELECT count(*) AS n FROM ${table}`).pluck().get() as number;
    return { projects: count('projects'), pipelines: count('pipelines'), jobs: count('jobs') };
  }

  /** False once closed. */
  get isOpen(): boolean {
    return this.db.open;
  }

  /** Closes the database (a checkpoint folds the WAL back into the file). */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

function toPipelineRow(p: PipelineHistoryRecord): PipelineRow {
  return {
    pipeline_id: p.pipelineId,
    project_id: p.projectId,
    ref: p.ref,
    sha: p.sha,
    source: p.source,
    status: p.status,
    default_branch: p.defaultBranch ? 1 : 0,
    user_id: p.user?.id ?? null,
    username: p.user?.username ?? null,
    user_name: p.user?.name ?? null,
    avatar_url: p.user?.avatarUrl ?? null,
    commit_title: p.commitTitle,
    commit_author: p.commitAuthor,
    created_ms: p.createdAt,
    started_ms: p.startedAt,
    finished_ms: p.finishedAt,
    updated_at: p.updatedAt,
    duration: p.duration,
    queued_duration: p.queuedDuration,
    web_url: p.webUrl,
    details_for: p.detailsFor,
    jobs_for: p.jobsFor,
  };
}

function fromPipelineRow(r: PipelineRow): PipelineHistoryRecord {
  return {
    projectId: r.project_id,
    pipelineId: r.pipeline_id,
    ref: intern(r.ref),
    sha: r.sha,
    source: intern(r.source),
    status: intern(r.status),
    defaultBranch: r.default_branch === 1,
    user: r.user_id === null ? null : userOf(r),
    commitTitle: r.commit_title,
    commitAuthor: r.commit_author,
    createdAt: r.created_ms,
    startedAt: r.started_ms,
    finishedAt: r.finished_ms,
    updatedAt: r.updated_at,
    duration: r.duration,
    queuedDuration: r.queued_duration,
    webUrl: r.web_url,
    // Usually all three are one time: one string.
    detailsFor: r.details_for === r.updated_at ? r.updated_at : r.details_for,
    jobsFor: r.jobs_for === r.updated_at ? r.updated_at : r.jobs_for,
  };
}

function toJobRow(j: JobHistoryRecord): JobRow {
  return {
    job_id: j.jobId,
    pipeline_id: j.pipelineId,
    project_id: j.projectId,
    name: j.name,
    stage: j.stage,
    status: j.status,
    retried: j.retried ? 1 : 0,
    allow_failure: j.allowFailure ? 1 : 0,
    failure_reason: j.failureReason,
    created_ms: j.createdAt,
    started_ms: j.startedAt,
    finished_ms: j.finishedAt,
    duration: j.duration,
    queued_duration: j.queuedDuration,
    web_url: j.webUrl,
  };
}

/** One object per user as last read: a group's pipelines are triggered by a few hundred people. */
const users = new Map<number, HistoryUser>();
function userOf(r: PipelineRow): HistoryUser {
  const known = users.get(r.user_id!);
  const username = r.username ?? '';
  const name = r.user_name ?? '';
  const avatarUrl = r.avatar_url ?? '';
  if (known && known.username === username && known.name === name && known.avatarUrl === avatarUrl)
    return known;
  const user = { id: r.user_id!, username, name, avatarUrl };
  if (users.size < 100_000) users.set(user.id, user);
  return user;
}

/**
 * One copy of each job name, stage, status and failure reason: SQLite hands a new string per row,
 * and a week of a 2,000-project group holds 700,000 jobs naming a few dozen distinct values.
 */
const interned = new Map<string, string>();
function intern(value: string): string {
  const known = interned.get(value);
  if (known !== undefined) return known;
  // Bounded: a value seen once is a name a job had; a group has few of them.
  if (interned.size < 100_000) interned.set(value, value);
  return value;
}

function fromJobRow(r: JobRow): JobHistoryRecord {
  return {
    projectId: r.project_id,
    pipelineId: r.pipeline_id,
    jobId: r.job_id,
    name: intern(r.name),
    stage: intern(r.stage),
    status: intern(r.status),
    retried: r.retried === 1,
    allowFailure: r.allow_failure === 1,
    failureReason: r.failure_reason === null ? null : intern(r.failure_reason),
    createdAt: r.created_ms,
    startedAt: r.started_ms,
    finishedAt: r.finished_ms,
    duration: r.duration,
    queuedDuration: r.queued_duration,
    webUrl: r.web_url,
  };
}
