import type Database from 'better-sqlite3';
import type { ConversationEntry, HistoryEntry } from '../../contract.ts';
import type { Logger } from '../../platform/logger.ts';
import {
  openStoreFile,
  schemaVersionOf,
  statementCache,
} from '../../platform/sqlite-store-file.ts';

/** What is stored for an analysed job. */
export interface StoredAnalysis {
  projectId: number;
  pipelineId: number;
  jobId: number;
  jobName: string;
  stage: string;
  projectName: string;
  analysis: string;
  /** `offline`, `openai`, `anthropic`, or `client` (an analysis the caller sent with a follow-up). */
  provider: string;
  model: string;
  /** True when the offline analyser answered because the configured provider was unreachable. */
  isFallback: boolean;
  /** The distilled log the analysis was made from (follow-ups reuse it). */
  distilledLog: string;
  /** JSON of the JobContext, when one was known. */
  contextJson: string | null;
  timestamp: string;
  conversation: ConversationEntry[];
}

/** A new or replacing analysis. */
export type NewAnalysis = Omit<StoredAnalysis, 'conversation'>;

/** A history row (no log, no conversation text): exactly the API's history entry. */
export type HistoryRow = HistoryEntry;

/** A stored whole-pipeline analysis. */
export interface StoredPipelineAnalysis {
  projectId: number;
  pipelineId: number;
  analysis: string;
  provider: string;
  model: string;
  isFallback: boolean;
  jobsJson: string;
  timestamp: string;
}

/** Schema migrations; index i brings the store from user_version i to i + 1. */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE analyses (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    job_id INTEGER NOT NULL,
    pipeline_id INTEGER NOT NULL,
    project_name TEXT NOT NULL DEFAULT '',
    job_name TEXT NOT NULL,
    stage TEXT NOT NULL,
    analysis TEXT NOT NULL,
    provider TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    is_fallback INTEGER NOT NULL DEFAULT 0 CHECK (is_fallback IN (0, 1)),
    distilled_log TEXT NOT NULL DEFAULT '',
    context_json TEXT,
    created_at TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    UNIQUE (project_id, job_id)
  );
  CREATE INDEX analyses_newest ON analyses (created_ms DESC, id DESC);
  CREATE TABLE conversation_entries (
    id INTEGER PRIMARY KEY,
    analysis_id INTEGER NOT NULL REFERENCES analyses (id) ON DELETE CASCADE,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    provider TEXT NOT NULL,
    is_fallback INTEGER NOT NULL DEFAULT 0 CHECK (is_fallback IN (0, 1)),
    created_at TEXT NOT NULL
  );
  CREATE INDEX conversation_by_analysis ON conversation_entries (analysis_id, id);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE pipeline_analyses (
    project_id INTEGER NOT NULL,
    pipeline_id INTEGER NOT NULL,
    analysis TEXT NOT NULL,
    provider TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    is_fallback INTEGER NOT NULL DEFAULT 0 CHECK (is_fallback IN (0, 1)),
    jobs_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, pipeline_id)
  ) WITHOUT ROWID;
  `,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

interface AnalysisRow {
  id: number;
  project_id: number;
  pipeline_id: number;
  job_id: number;
  job_name: string;
  stage: string;
  project_name: string;
  analysis: string;
  provider: string;
  model: string;
  is_fallback: number;
  distilled_log: string;
  context_json: string | null;
  created_at: string;
}

/**
 * Analyses, follow-up conversations, settings and pipeline analyses in one SQLite file.
 * WAL lets history reads run while an analysis is written; synchronous=FULL makes every commit
 * durable before we answer (the cost is one fsync per analysis or follow-up, which are seconds of
 * model time apart), so an acknowledged analysis survives a crash or power loss. Every write is a
 * single transaction, so nothing is ever half-written.
 */
export class AnalysisStore {
  private readonly stmt: (sql: string) => Database.Statement;
  private constructor(private readonly db: Database.Database) {
    this.stmt = statementCache(db);
  }

  /** Opens (creating and migrating as needed) the store at `file`. */
  static open(file: string, logger: Logger): AnalysisStore {
    return new AnalysisStore(
      openStoreFile(file, logger, {
        what: 'analysis store',
        schemaVersion: SCHEMA_VERSION,
        migrations: MIGRATIONS,
        quickCheck: true,
      }),
    );
  }

  /** The schema version of the open file. */
  schemaVersion(): number {
    return schemaVersionOf(this.db);
  }

  /** The stored analysis of a job with its conversation, or undefined. */
  get(projectId: number, jobId: number): StoredAnalysis | undefined {
    return this.db.transaction(() => {
      const row = this.stmt('SELECT * FROM analyses WHERE project_id = ? AND job_id = ?').get(
        projectId,
        jobId,
      ) as AnalysisRow | undefined;
      if (!row) return undefined;
      const conversation = this.stmt(
        'SELECT question, answer, created_at AS timestamp FROM conversation_entries WHERE analysis_id = ? ORDER BY id',
      ).all(row.id) as ConversationEntry[];
      return {
        projectId: row.project_id,
        pipelineId: row.pipeline_id,
        jobId: row.job_id,
        jobName: row.job_name,
        stage: row.stage,
        projectName: row.project_name,
        analysis: row.analysis,
        provider: row.provider,
        model: row.model,
        isFallback: row.is_fallback === 1,
        distilledLog: row.distilled_log,
        contextJson: row.context_json,
        timestamp: row.created_at,
        conversation,
      };
    })();
  }

  private upsert(a: NewAnalysis): number {
    const row = this.stmt(
      `INSERT INTO analyses (project_id, job_id, pipeline_id, project_name, job_name, stage, analysis,
           provider, model, is_fallback, distilled_log, context_json, created_at, created_ms)
         VALUES (@projectId, @jobId, @pipelineId, @projectName, @jobName, @stage, @analysis,
           @provider, @model, @isFallback, @distilledLog, @contextJson, @timestamp, @createdMs)
         ON CONFLICT (project_id, job_id) DO UPDATE SET
           pipeline_id = excluded.pipeline_id, project_name = excluded.project_name,
           job_name = excluded.job_name, stage = excluded.stage, analysis = excluded.analysis,
           provider = excluded.provider, model = excluded.model, is_fallback = excluded.is_fallback,
           distilled_log = excluded.distilled_log, context_json = excluded.context_json,
           created_at = excluded.created_at, created_ms = excluded.created_ms
         RETURNING id`,
    ).get({
      ...a,
      isFallback: a.isFallback ? 1 : 0,
      createdMs: Date.parse(a.timestamp),
    }) as { id: number };
    return row.id;
  }

  /**
   * Stores an analysis, replacing any earlier one of the job. A fresh analysis starts a fresh
   * conversation (the old questions were about the old answer) unless `keepConversation`.
   */
  saveAnalysis(a: NewAnalysis, options: { keepConversation?: boolean } = {}): void {
    this.db.transaction(() => {
      const id = this.upsert(a);
      if (!options.keepConversation) {
        this.stmt('DELETE FROM conversation_entries WHERE analysis_id = ?').run(id);
      }
    })();
  }

  /**
   * Appends a follow-up exchange. When the job has no stored analysis yet, `ifMissing` is stored
   * first, in the same transaction.
   */
  appendFollowup(
    projectId: number,
    jobId: number,
    entry: ConversationEntry & { provider: string; isFallback: boolean },
    ifMissing?: NewAnalysis,
  ): void {
    this.db.transaction(() => {
      let row = this.stmt('SELECT id FROM analyses WHERE project_id = ? AND job_id = ?').get(
        projectId,
        jobId,
      ) as { id: number } | undefined;
      if (!row) {
        if (!ifMissing) throw new Error(`no analysis stored for job ${jobId}`);
        row = { id: this.upsert(ifMissing) };
      }
      this.stmt(
        'INSERT INTO conversation_entries (analysis_id, question, answer, provider, is_fallback, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(
        row.id,
        entry.question,
        entry.answer,
        entry.provider,
        entry.isFallback ? 1 : 0,
        entry.timestamp,
      );
    })();
  }

  /** Deletes a job's analysis and conversation; true when there was one. */
  delete(projectId: number, jobId: number): boolean {
    return (
      this.stmt('DELETE FROM analyses WHERE project_id = ? AND job_id = ?').run(projectId, jobId)
        .changes > 0
    );
  }

  /** Ids of the project's analysed jobs, ascending. */
  analyzedJobIds(projectId: number): number[] {
    return this.stmt('SELECT job_id FROM analyses WHERE project_id = ? ORDER BY job_id')
      .pluck()
      .all(projectId) as number[];
  }

  /** One page of history, newest first, and the total count, read consistently. */
  history(page: number, pageSize: number): { rows: HistoryRow[]; totalCount: number } {
    return this.db.transaction(() => {
      const totalCount = this.stmt('SELECT COUNT(*) FROM analyses').pluck().get() as number;
      const rows = this.stmt(
        `SELECT a.project_id AS projectId, a.project_name AS projectName, a.pipeline_id AS pipelineId,
             a.job_id AS jobId, a.job_name AS jobName, a.stage, a.analysis,
             (SELECT COUNT(*) FROM conversation_entries c WHERE c.analysis_id = a.id) AS conversationCount,
             a.created_at AS timestamp
           FROM analyses a ORDER BY a.created_ms DESC, a.id DESC LIMIT ? OFFSET ?`,
      ).all(pageSize, (page - 1) * pageSize) as HistoryRow[];
      return { rows, totalCount };
    })();
  }

  /** Looks one analysis up by primary key (the history bench's baseline). */
  getById(id: number): { analysis: string } | undefined {
    return this.stmt('SELECT analysis FROM analyses WHERE id = ?').get(id) as
      { analysis: string } | undefined;
  }

  /** A stored setting, or undefined. */
  getSetting(key: string): string | undefined {
    return this.stmt('SELECT value FROM settings WHERE key = ?').pluck().get(key) as
      string | undefined;
  }

  /** Stores several settings at once (undefined deletes). */
  setSettings(values: Record<string, string | undefined>): void {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) this.stmt('DELETE FROM settings WHERE key = ?').run(key);
        else
          this.stmt(
            'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
          ).run(key, value);
      }
    })();
  }

  /** The stored analysis of a whole pipeline, or undefined. */
  getPipelineAnalysis(projectId: number, pipelineId: number): StoredPipelineAnalysis | undefined {
    const row = this.stmt(
      'SELECT * FROM pipeline_analyses WHERE project_id = ? AND pipeline_id = ?',
    ).get(projectId, pipelineId) as
      | {
          analysis: string;
          provider: string;
          model: string;
          is_fallback: number;
          jobs_json: string;
          created_at: string;
        }
      | undefined;
    if (!row) return undefined;
    return {
      projectId,
      pipelineId,
      analysis: row.analysis,
      provider: row.provider,
      model: row.model,
      isFallback: row.is_fallback === 1,
      jobsJson: row.jobs_json,
      timestamp: row.created_at,
    };
  }

  /** Stores (replaces) a whole-pipeline analysis. */
  savePipelineAnalysis(a: StoredPipelineAnalysis): void {
    this.stmt(
      `INSERT INTO pipeline_analyses (project_id, pipeline_id, analysis, provider, model, is_fallback, jobs_json, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (project_id, pipeline_id) DO UPDATE SET analysis = excluded.analysis,
           provider = excluded.provider, model = excluded.model, is_fallback = excluded.is_fallback,
           jobs_json = excluded.jobs_json, created_at = excluded.created_at`,
    ).run(
      a.projectId,
      a.pipelineId,
      a.analysis,
      a.provider,
      a.model,
      a.isFallback ? 1 : 0,
      a.jobsJson,
      a.timestamp,
    );
  }

  /** Writes many analyses in one transaction (bench and tests seed history this way). */
  bulkInsert(analyses: NewAnalysis[]): void {
    this.db.transaction(() => {
      for (const a of analyses) this.upsert(a);
    })();
  }

  /** Closes the database (checkpointing the WAL). */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
