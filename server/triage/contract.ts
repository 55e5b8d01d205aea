// Triage (issue 27): failure signatures across projects, what fixed a failure before, and the
// token user's merge requests with a verdict per failure. Wire shapes only; the dashboard reads
// them through server/contract.ts.
import type { HealthWindow, MergeRequestRef } from '../group-health/contract.ts';

/** A failed job carrying a signature. */
export interface FailureSignatureJob {
  project_id: number;
  pipeline_id: number;
  job_id: number;
  job_name: string;
  /** When the job failed (ISO). */
  at: string;
}

/** A project a signature occurred in, and how often. */
export interface FailureSignatureProject {
  project_id: number;
  project_name: string;
  occurrences: number;
}

/** One failure signature of the window: the same error, wherever it occurred. */
export interface FailureSignature {
  /** `<category>: <decisive line with numbers, hashes, paths, ids and times masked>`. */
  signature: string;
  /** The decisive line as the newest occurrence printed it. */
  sample_line: string;
  /** The root-cause category the offline analyser elected. */
  category: string;
  /** Failed jobs with this signature in the window. */
  occurrences: number;
  /** Most occurrences first. */
  projects: FailureSignatureProject[];
  first_seen: string;
  last_seen: string;
  /** Newest first. */
  jobs: FailureSignatureJob[];
}

/** GET /api/failures/signatures */
export interface FailureSignaturesResponse {
  window: HealthWindow;
  /** Most widespread first: most projects, then most occurrences, then the newest. */
  signatures: FailureSignature[];
}

/**
 * An earlier occurrence of the same failure on the same project whose ref went green afterwards:
 * the first green pipeline after it, and its commit.
 */
export interface FixedBefore {
  /** The first green pipeline of the ref after the earlier failure. */
  pipeline_id: number;
  sha: string;
  short_sha: string;
  commit_title: string | null;
  commit_author: string | null;
  /** The merge request the fixing commit came through, when known. */
  merge_request: MergeRequestRef | null;
  /** When the fixing pipeline finished (ISO). */
  fixed_at: string;
  /** The earlier pipeline that failed the same way. */
  failed_pipeline_id: number;
}
