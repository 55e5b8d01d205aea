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
 * burst of log reads. Pipeline details and notifications ask for a job at once (`signatureOf`),
 * through the same single read.
 */
export class SignatureRecorder {
  private readonly rows = new Map<number, StoredJobSignature>();
  private readonly inFlight = new Map<number, Promise<StoredJobSignature | null>>();
  private readonly attempts = new Map<number, number>();
  private readonly perCycle: number;
  private readonly backfillMs: number;
  private changes = 0;
  /** Job logs read since start (for the cost measurements). */
  logsRead = 0;

  constructor(private readonly deps: SignatureRecorderDeps) {
    this.perCycle = deps.perCycle ?? 4;
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

  /** One poll cycle's share: signs up to `perCycle` pending jobs; resolves when they are read. */
  async cycle(signal?: AbortSignal): Promise<number> {
    const batch = this.pending().slice(0, this.perCycle);
    await Promise.all(batch.map((job) => this.signatureOf(job, signal)));
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
