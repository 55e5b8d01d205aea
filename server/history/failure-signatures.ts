import type Database from 'better-sqlite3';

/**
 * The history's migration that adds failure signatures (issue 27): one row per failed job whose
 * log was read. A row without a signature records a log that named no error (empty, or gone), so
 * it is not read again. No foreign key to `jobs`: a pipeline's job rows are replaced whenever its
 * jobs are read again (a retry), and the signature of an attempt stays true; rows are pruned with
 * the history's retention instead.
 */
export const FAILURE_SIGNATURES_MIGRATION = `
  CREATE TABLE job_signatures (
    job_id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL,
    pipeline_id INTEGER NOT NULL,
    job_name TEXT NOT NULL,
    signature TEXT,
    sample_line TEXT,
    category TEXT,
    failed_ms INTEGER NOT NULL
  );
  CREATE INDEX job_signatures_by_signature ON job_signatures (signature, failed_ms);
  CREATE INDEX job_signatures_by_failed ON job_signatures (failed_ms);
`;

/** A failed job's signature as stored (signature null: its log named no error). */
export interface StoredJobSignature {
  jobId: number;
  projectId: number;
  pipelineId: number;
  jobName: string;
  signature: string | null;
  sampleLine: string | null;
  category: string | null;
  /** When the job failed (its finish, else its creation), epoch ms. */
  failedAt: number;
}

interface SignatureRow {
  job_id: number;
  project_id: number;
  pipeline_id: number;
  job_name: string;
  signature: string | null;
  sample_line: string | null;
  category: string | null;
  failed_ms: number;
}

const fromRow = (r: SignatureRow): StoredJobSignature => ({
  jobId: r.job_id,
  projectId: r.project_id,
  pipelineId: r.pipeline_id,
  jobName: r.job_name,
  signature: r.signature,
  sampleLine: r.sample_line,
  category: r.category,
  failedAt: r.failed_ms,
});

/** The `job_signatures` table of the history database. */
export class SignatureTable {
  constructor(private readonly stmt: (sql: string) => Database.Statement) {}

  /** Inserts or replaces signatures. */
  save(rows: readonly StoredJobSignature[]): void {
    const put = this.stmt(
      `INSERT OR REPLACE INTO job_signatures (job_id, project_id, pipeline_id, job_name, signature,
         sample_line, category, failed_ms)
       VALUES (@jobId, @projectId, @pipelineId, @jobName, @signature, @sampleLine, @category, @failedAt)`,
    );
    for (const row of rows) put.run(row);
  }

  /** Every stored row of jobs that failed at or after `sinceMs`, oldest first. */
  since(sinceMs: number): StoredJobSignature[] {
    return (
      this.stmt('SELECT * FROM job_signatures WHERE failed_ms >= ? ORDER BY failed_ms, job_id').all(
        sinceMs,
      ) as SignatureRow[]
    ).map(fromRow);
  }

  /** Drops rows of jobs that failed before `cutoffMs`; returns how many. */
  prune(cutoffMs: number): number {
    return this.stmt('DELETE FROM job_signatures WHERE failed_ms < ?').run(cutoffMs).changes;
  }
}
