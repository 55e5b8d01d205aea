import type { SignatureTable, StoredJobSignature } from '../history/failure-signatures.ts';
import type { JobHistoryRecord } from '../history/model.ts';
import type { PipelineHistory } from '../history/pipeline-history.ts';
import { isFinishedStatus } from '../gitlab/pipeline-status.ts';
import type { Clock } from '../platform/clock.ts';
import { isAppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import { failureSignature } from './failure-signature.ts';

/** Where job logs come from (the GitLab client with the capped log reader). */
export interface JobLogSource {
  getJobTrace(projectId: number, jobId: number, signal?: AbortSignal): Promise<string>;
}

/** What the recorder reads and writes. */
export interface SignatureRecorderDeps {
  history: Pick<PipelineHistory, 'snapshot'>;
  table: Pick<SignatureTable, 'save' | 'since'>;
  logs: JobLogSource;
  clock: Clock;
  logger: Logger;
  /** Logs read per poll cycle at most (default 4): a first load of a red group stays cheap. */
  perCycle?: number;
  /** How far back failed jobs are signed (default 7 days); older ones only when asked for. */
  backfillMs?: number;
  /** Days of signatures kept in memory (the history's retention). */
  retentionDays: number;
  /** Told of the rows a background read added (the SSE announcement), once per batch. */
  onSigned?: (rows: readonly StoredJobSignature[]) => void;
}

/** A failed job attempt to sign. */
export interface FailedJobRef {
  projectId: number;
  pipelineId: number;
  jobId: number;
  jobName: string;
  failedAt: number;
}

const DAY_MS = 86_400_000;
const MAX_ATTEMPTS = 3;

/** When a failed job attempt failed: its finish, else its creation. */
export const failedAtOf = (job: JobHistoryRecord): number => job.finishedAt ?? job.createdAt;

/**
 * Signs failed jobs: reads each failed job's log once, keeps its failure signature in the history
 * database, and answers from memory afterwards. The poller's cycle decides when
 * (`cycle()`); a cycle signs at most `perCycle` failed attempts of finished pipelines of the last
 * week, newest first, so a group with many failures is signed over a few cycles rather than in one
 * burst of log reads. Pipeline details and My MRs never wait for a log: they answer with what is
 * known and `request` the rest, which is read in the background ahead of the backfill, within the
 * same budget of `perCycle` reads between two cycles; `onSigned` hears what landed.
 */
export class SignatureRecorder {
  private readonly rows = new Map<number, StoredJobSignature>();
  private readonly inFlight = new Map<number, Promise<StoredJobSignature | null>>();
  private readonly attempts = new Map<number, number>();
  private readonly perCycle: number;
  private readonly backfillMs: number;
  private changes = 0;
  /** Jobs asked for and not yet read, oldest request first (by job id: one read each). */
  private readonly queue = new Map<number, FailedJobRef>();
  /** Reads left until the next cycle; a cycle refills it. */
  private budget: number;
  private draining: Promise<void> | null = null;
  /** Job logs read since start (for the cost measurements). */
  logsRead = 0;

  constructor(private readonly deps: SignatureRecorderDeps) {
    this.perCycle = deps.perCycle ?? 4;
    this.budget = this.perCycle;
    this.backfillMs = deps.backfillMs ?? 7 * DAY_MS;
    const since = deps.clock.now() - deps.retentionDays * DAY_MS;
    for (const row of deps.table.since(since)) this.rows.set(row.jobId, row);
  }

  /** Increases whenever a signature is added. */
  get version(): number {
    return this.changes;
  }

  /** Every known signature row (of jobs whose log named an error or not). */
  all(): Iterable<StoredJobSignature> {
    return this.rows.values();
  }

  /** The known signature rows of one project's jobs. */
  *ofProject(projectId: number): Iterable<StoredJobSignature> {
    for (const row of this.rows.values()) if (row.projectId === projectId) yield row;
  }

  /** The stored row of a job, if its log was read. */
  known(jobId: number): StoredJobSignature | undefined {
    return this.rows.get(jobId);
  }

  /** The failed job attempts of finished pipelines still to sign, newest first. */
  pending(): FailedJobRef[] {
    const { pipelines, jobs } = this.deps.history.snapshot();
    const from = this.deps.clock.now() - this.backfillMs;
    const out: FailedJobRef[] = [];
    for (let i = pipelines.length - 1; i >= 0; i--) {
      const p = pipelines[i]!;
      if (p.createdAt < from) break;
      if (!isFinishedStatus(p.status)) continue;
      for (const job of jobs.get(p.pipelineId) ?? []) {
        if (job.status !== 'failed' || this.rows.has(job.jobId)) continue;
        if ((this.attempts.get(job.jobId) ?? 0) >= MAX_ATTEMPTS) continue;
        out.push({
          projectId: p.projectId,
          pipelineId: p.pipelineId,
          jobId: job.jobId,
          jobName: job.name,
          failedAt: failedAtOf(job),
        });
      }
    }
    return out.sort((a, b) => b.failedAt - a.failedAt || b.jobId - a.jobId);
  }

  /**
   * One poll cycle's share: refills the budget and signs up to `perCycle` jobs, those requested
   * first, then the backfill; resolves when they are read (with the count read).
   */
  async cycle(signal?: AbortSignal): Promise<number> {
    this.budget = this.perCycle;
    let read = 0;
    while (this.budget > 0 && !signal?.aborted) {
      const batch = this.nextBatch();
      if (batch.length === 0) break;
      read += await this.signBatch(batch, signal);
    }
    return read;
  }

  /**
   * Queues failed jobs not yet signed for a background read (at once while this cycle's budget
   * lasts, else the next cycles); returns at once. `onSigned` hears the rows that land.
   */
  request(jobs: readonly FailedJobRef[]): void {
    for (const job of jobs) {
      if (this.rows.has(job.jobId) || this.inFlight.has(job.jobId)) continue;
      if ((this.attempts.get(job.jobId) ?? 0) >= MAX_ATTEMPTS) continue;
      if (!this.queue.has(job.jobId)) this.queue.set(job.jobId, job);
    }
    if (this.queue.size > 0 && this.budget > 0) this.drain();
  }

  /** Resolves when the background reads started by `request` are done (tests). */
  settled(): Promise<void> {
    return this.draining ?? Promise.resolve();
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = (async () => {
      while (this.budget > 0 && this.queue.size > 0) {
        const batch = [...this.queue.values()].slice(0, this.budget);
        await this.signBatch(batch);
      }
    })()
      .catch((err: unknown) => {
        this.deps.logger.debug({ err: (err as Error).message }, 'signing requested jobs failed');
      })
      .finally(() => (this.draining = null));
  }

  /** The requested jobs first, then the backfill's newest, as many as the budget allows. */
  private nextBatch(): FailedJobRef[] {
    const batch = [...this.queue.values()].slice(0, this.budget);
    if (batch.length < this.budget) {
      const taken = new Set(batch.map((j) => j.jobId));
      for (const job of this.pending()) {
        if (batch.length === this.budget) break;
        if (!taken.has(job.jobId) && !this.inFlight.has(job.jobId)) batch.push(job);
      }
    }
    return batch;
  }

  /** Reads a batch (spending the budget), then tells `onSigned` of the rows that named an error. */
  private async signBatch(batch: readonly FailedJobRef[], signal?: AbortSignal): Promise<number> {
    this.budget -= batch.length;
    for (const job of batch) this.queue.delete(job.jobId);
    const before = this.changes;
    const rows = await Promise.all(batch.map((job) => this.signatureOf(job, signal)));
    const landed = rows.filter((r): r is StoredJobSignature => r !== null && r.signature !== null);
    if (this.changes !== before && landed.length > 0) this.deps.onSigned?.(landed);
    return batch.length;
  }

  /** The job's signature row: stored, or read from its log now (once, however many ask). */
  signatureOf(job: FailedJobRef, signal?: AbortSignal): Promise<StoredJobSignature | null> {
    const known = this.rows.get(job.jobId);
    if (known) return Promise.resolve(known);
    let pending = this.inFlight.get(job.jobId);
    if (!pending) {
      pending = this.read(job, signal).finally(() => this.inFlight.delete(job.jobId));
      this.inFlight.set(job.jobId, pending);
    }
    return pending;
  }

  private async read(job: FailedJobRef, signal?: AbortSignal): Promise<StoredJobSignature | null> {
    let log: string;
    try {
      this.logsRead++;
      log = await this.deps.logs.getJobTrace(job.projectId, job.jobId, signal);
    } catch (err) {
      // The log is gone (erased job, expired artifacts) or hidden: nothing to read, ever.
      if (isAppError(err, 'not_found', 'forbidden')) log = '';
      else {
        this.attempts.set(job.jobId, (this.attempts.get(job.jobId) ?? 0) + 1);
        this.deps.logger.debug(
          { jobId: job.jobId, err: (err as Error).message },
          'job log read for its failure signature failed; tried again next cycle',
        );
        return null;
      }
    }
    const found = failureSignature(log);
    const row: StoredJobSignature = {
      jobId: job.jobId,
      projectId: job.projectId,
      pipelineId: job.pipelineId,
      jobName: job.jobName,
      signature: found?.signature ?? null,
      sampleLine: found?.sampleLine ?? null,
      category: found?.category ?? null,
      failedAt: job.failedAt,
    };
    this.deps.table.save([row]);
    this.rows.set(job.jobId, row);
    this.attempts.delete(job.jobId);
    this.changes++;
    return row;
  }
}
