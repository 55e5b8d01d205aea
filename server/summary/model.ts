import type { DownstreamFailure } from '../contract.ts';

/**
 * Domain types of the summary engine: what the poller knows about a project and its pipelines.
 * Built from GitLab wire types in server/summary/from-gitlab.ts; turned into API shapes by summarise.ts.
 */

/** A watched project. */
export interface Project {
  id: number;
  name: string;
  path: string;
  webUrl: string;
  /** The project's default branch (failures there matter to everyone); null for an empty repo. */
  defaultBranch?: string | null;
}

/** Who triggered a pipeline. */
export interface PipelineUser {
  id: number;
  username: string;
  name: string;
  avatarUrl: string;
}

/** A pipeline as the summary needs it; list fields always, detail fields once fetched. */
export interface PipelineRecord {
  id: number;
  projectId: number;
  status: string;
  ref: string;
  source: string;
  /** Epoch ms. */
  createdAt: number;
  /** GitLab's updated_at as sent (ISO), used to detect changes. */
  updatedAt: string;
  webUrl: string;
  /** Integer seconds from the single-pipeline endpoint; null until fetched or while never started. */
  duration: number | null;
  user: PipelineUser | null;
  /** The updated_at the details were fetched at; details are stale when it differs from updatedAt. */
  detailsFor: string | null;
  /** Failed pipelines whose jobs were read: the job to open and the commit title (else absent). */
  failure?: PipelineFailure;
}

/** What a failed pipeline's jobs said: the job to open (null when none failed) and the commit. */
export interface PipelineFailure {
  jobId: number | null;
  commitTitle: string | null;
  /** The failing job's name, stage and GitLab failure_reason (absent in older warm-start data). */
  job?: { name: string; stage: string; failureReason: string | null } | null;
  /**
   * For one without a failed job of its own: where its failed trigger job's downstream pipeline
   * failed (absent when not looked for).
   */
  downstream?: DownstreamFailure | null;
}
