/**
 * Where `explain` reads a job from: the running service (cli/explain/service-source.ts) or GitLab
 * itself with the analyser in-process (cli/explain/gitlab-source.ts). Both answer in the service's
 * wire shapes and fail with the CLI's coded errors (`job_not_found`, `auth_failed`, `network`…),
 * so the use case and its tests do not care which one answered.
 */
import type { AnalyseResponse, JobResponse, ProviderStatus } from '../../server/contract.ts';

/** A job's log as far as it was read: the tail when it was longer than the reader's cap. */
export interface JobLog {
  text: string;
  truncated: boolean;
  /** The whole log's size in bytes, when it was truncated. */
  bytes?: number | undefined;
}

/** An analysis of a failed job. */
export interface JobAnalysis {
  /** Markdown. */
  text: string;
  /** Served from the analysis store rather than asked for now. */
  cached: boolean;
  timestamp: string;
  /** The configured analyser is the built-in offline one (its answer quotes the step and lines). */
  offline: boolean;
}

/** An analysis answer and the analyser that gave it, as `explain` reports them. */
export function jobAnalysisOf(
  answer: AnalyseResponse,
  provider: Pick<ProviderStatus, 'provider'>,
): JobAnalysis {
  return {
    text: answer.analysis,
    cached: answer.cached,
    timestamp: answer.timestamp,
    offline: provider.provider === 'offline',
  };
}

/** The reads and the one analysis `explain` needs. */
export interface JobSource {
  readonly kind: 'service' | 'gitlab';
  /** Where answers come from, for messages: "the service at …", "GitLab at …". */
  readonly description: string;
  /** The GitLab base URL the source reads (a job URL must lie under it). */
  readonly gitlabUrl: string;
  /** A project's numeric id from its id or full path. */
  projectId(project: string): Promise<number>;
  job(projectId: number, jobId: number): Promise<JobResponse>;
  log(projectId: number, jobId: number): Promise<JobLog>;
  /** Analyses a failed job (or serves the stored analysis unless `force`). */
  analyse(job: JobResponse, log: JobLog, options: { force: boolean }): Promise<JobAnalysis>;
  close(): Promise<void>;
}
