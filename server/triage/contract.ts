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

/** Whether a failure is the merge request's doing (issue 27, §1). */
export type TriageVerdict = 'broken-on-default' | 'flaky' | 'new' | 'unknown';

/** A pipeline named as evidence. */
export interface EvidencePipeline {
  pipeline_id: number;
  sha: string;
  short_sha: string;
  commit_title: string | null;
  commit_author: string | null;
  web_url: string;
  /** When it was created (ISO). */
  at: string;
}

/** Why a failure got its verdict. */
export interface TriageEvidence {
  /** One sentence: "`test` fails on `main` since #812 (a1b2c3d4 …, 3 hours ago)". */
  text: string;
  /** broken-on-default: the target branch's first pipeline of the job's current failing streak. */
  since: EvidencePipeline | null;
  /** new: the target branch's latest pipeline where the job passed. */
  last_passed: EvidencePipeline | null;
  /** flaky: the job's flakes and runs over the last week, and the rate (%). */
  flakes: { flakes: number; runs: number; flake_rate: number } | null;
}

/** A failing job of a merge request's latest pipeline, with its verdict. */
export interface TriageFailure {
  job_id: number;
  job_name: string;
  stage: string;
  verdict: TriageVerdict;
  evidence: TriageEvidence;
  /** The job's failure signature, when its log was read. */
  signature: string | null;
}

/** One open merge request of the token's user. */
export interface MyMergeRequest {
  project_id: number;
  project_name: string;
  iid: number;
  title: string;
  web_url: string;
  source_branch: string;
  target_branch: string;
  /** Its latest pipeline in the history, or null when none is known. */
  pipeline: { pipeline_id: number; status: string; web_url: string } | null;
  failures: TriageFailure[];
}

/** GET /api/triage/mine */
export interface MyMergeRequestsResponse {
  /** The GitLab token's user. */
  user: { id: number; username: string; name: string };
  /** Failing first, then the most recently updated. */
  merge_requests: MyMergeRequest[];
}

/** A failed job whose signature a background log read just found. */
export interface SignedFailure {
  project_id: number;
  pipeline_id: number;
  job_id: number;
  signature: string;
}

/**
 * The additive SSE named event `failure-signatures` on GET /api/events/pipelines: failed jobs
 * signed in the background since the last one, so a dashboard showing one of their pipelines (its
 * details' `fixed_before`, My MRs' `signature`) asks again.
 */
export interface FailureSignaturesEvent {
  event: 'failure-signatures';
  jobs: SignedFailure[];
  timestamp: string;
}
