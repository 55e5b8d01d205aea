import type { HealthWindow } from '../group-health/contract.ts';
import type { PipelineHistory } from '../history/pipeline-history.ts';
import type { Clock } from '../platform/clock.ts';
import type { MergeRequestLookup } from '../summary/merge-request-ref.ts';
import { parseSince } from '../summary/since.ts';
import type { FailureSignaturesResponse, FixedBefore } from './contract.ts';
import { FixIndex, fixInWords } from './past-fixes.ts';
import { failedAtOf, type SignatureRecorder } from './signature-recorder.ts';
import { signatureReport } from './signature-report.ts';

/** What triage reads. */
export interface TriageServiceDeps {
  /** Memory's snapshot with a project's stored past (`withPast`): fixes reach back weeks. */
  history: Pick<PipelineHistory, 'withPast' | 'version' | 'loadAll' | 'watchedProjects' | 'jobsOf'>;
  recorder: SignatureRecorder;
  clock: Clock;
  /** The summary's window (`7d`): the default window of the signatures. */
  since: () => string;
  mergeRequests: MergeRequestLookup;
}

/** A failed job of a pipeline, as the details or an event name it. */
export interface FailedJob {
  id: number;
  name: string;
  /** When it failed (epoch ms). */
  failedAt: number;
}

/**
 * Triage over the pipeline history and the signed failures: the signature report, what fixed a
 * failure before, and a job's signature on demand.
 */
export class TriageService {
  private fixes: { key: string; index: FixIndex } | null = null;

  constructor(private readonly deps: TriageServiceDeps) {}

  /** GET /api/failures/signatures: the window's failure signatures, most widespread first. */
  async signatures(since?: string): Promise<FailureSignaturesResponse> {
    const window = since ?? this.deps.since();
    const now = this.deps.clock.now();
    const span: HealthWindow = {
      since: window,
      from: new Date(now - parseSince(window)).toISOString(),
      to: new Date(now).toISOString(),
    };
    await this.deps.history.loadAll();
    const names = new Map(this.deps.history.watchedProjects().map((p) => [p.id, p.name]));
    return signatureReport(this.deps.recorder.all(), span, (id) => names.get(id));
  }

  /**
   * The signatures known of a pipeline's failed jobs, by job id; the others are queued for a
   * background read (the recorder's per-cycle budget) and announced when they land, so opening a
   * pipeline never waits for a job log.
   */
  jobSignatures(
    projectId: number,
    pipelineId: number,
    jobs: readonly FailedJob[],
  ): Map<number, { signature: string; sampleLine: string }> {
    const out = this.knownSignatures(jobs);
    this.deps.recorder.request(
      jobs
        .filter((job) => !this.deps.recorder.known(job.id))
        .map((job) => ({
          projectId,
          pipelineId,
          jobId: job.id,
          jobName: job.name,
          failedAt: job.failedAt,
        })),
    );
    return out;
  }

  /**
   * The signatures already known of a pipeline's failed jobs, by job id: no log is read, so a
   * failure event costs no request of its own (the poll cycle signs the jobs soon after).
   */
  knownSignatures(
    jobs: readonly { id: number }[],
  ): Map<number, { signature: string; sampleLine: string }> {
    const out = new Map<number, { signature: string; sampleLine: string }>();
    for (const job of jobs) {
      const row = this.deps.recorder.known(job.id);
      if (row?.signature)
        out.set(job.id, { signature: row.signature, sampleLine: row.sampleLine ?? '' });
    }
    return out;
  }

  /**
   * What fixed each failed job's error before on its project, by job id (newest fix first), for
   * the jobs whose signature is known; the others are signed in the background (`jobSignatures`).
   */
  async fixedBefore(
    projectId: number,
    pipelineId: number,
    jobs: readonly FailedJob[],
  ): Promise<Map<number, FixedBefore[]>> {
    const signatures = this.jobSignatures(projectId, pipelineId, jobs);
    await this.deps.history.loadAll();
    const index = this.fixIndex(projectId);
    const out = new Map<number, FixedBefore[]>();
    for (const job of jobs) {
      const signed = signatures.get(job.id);
      out.set(
        job.id,
        signed ? index.fixesFor({ projectId, pipelineId, signature: signed.signature }) : [],
      );
    }
    return out;
  }

  /** A failed job's past fixes in words for the AI (undefined when none is known). */
  async fixedBeforeInWords(
    projectId: number,
    pipelineId: number,
    jobId: number,
    jobName: string,
  ): Promise<string | undefined> {
    const stored = this.deps.history.jobsOf(pipelineId).find((j) => j.jobId === jobId);
    const job = {
      id: jobId,
      name: jobName,
      failedAt: stored ? failedAtOf(stored) : this.deps.clock.now(),
    };
    // The analysis reads this log anyway and the user asked for it: worth waiting for its one read.
    await this.deps.recorder.signatureOf({
      projectId,
      pipelineId,
      jobId,
      jobName,
      failedAt: job.failedAt,
    });
    const fixes = (await this.fixedBefore(projectId, pipelineId, [job])).get(jobId) ?? [];
    if (fixes.length === 0) return undefined;
    const now = this.deps.clock.now();
    return `This error was ${fixes.map((f) => fixInWords(f, now)).join('; and ')}.`;
  }

  private fixIndex(projectId: number): FixIndex {
    const key = `${this.deps.history.version}:${this.deps.recorder.version}:${projectId}`;
    if (this.fixes?.key === key) return this.fixes.index;
    const urls = new Map(this.deps.history.watchedProjects().map((p) => [p.id, p.webUrl]));
    const index = new FixIndex(
      this.deps.history.withPast([projectId]),
      // The project's rows only: the index is per project, and the group's are 50,000 at scale.
      this.deps.recorder.ofProject(projectId),
      this.deps.mergeRequests,
      (id) => urls.get(id),
    );
    this.fixes = { key, index };
    return index;
  }
}
