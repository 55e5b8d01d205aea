/**
 * How a pipeline's ref reads everywhere the service shows one: a branch as itself, a merge
 * request's `refs/merge-requests/406/head` as `!406` with the MR's title and link (issue 30,
 * item 1). The summary, the pipeline details, the failure events and group health all use it.
 */
import type { MergeRequestRef } from '../group-health/contract.ts';

/** An MR's title and link, when the lookup cache has them. */
export interface MergeRequestInfo {
  title: string | null;
  webUrl: string;
}

/** Finds an MR's title and link (a cache in front of GitLab); undefined when not known yet. */
export type MergeRequestLookup = (projectId: number, iid: number) => MergeRequestInfo | undefined;

/** What to show for a ref: `ref_label` (branch, or `!iid`) and the merge request behind it. */
export interface RefLabel {
  ref_label: string;
  merge_request: MergeRequestRef | null;
}

// GitLab's MR pipelines run on refs/merge-requests/<iid>/head, /merge (merged results) or /train.
const MR_REF = /^refs\/merge-requests\/(\d+)\/(?:head|merge|train)$/;

/** The merge-request iid behind a `refs/merge-requests/<iid>/head` ref, or null. */
export function mergeRequestIid(ref: string): number | null {
  const match = MR_REF.exec(ref);
  return match ? Number(match[1]) : null;
}

/**
 * The label of `ref` in project `projectId`: MR refs become `!iid` with the title the lookup knows
 * (null until GitLab answered) and its link (guessed from the project's page until then).
 */
export function refLabel(
  projectId: number,
  ref: string,
  projectWebUrl: string | undefined,
  lookup?: MergeRequestLookup,
): RefLabel {
  const iid = mergeRequestIid(ref);
  if (iid === null) return { ref_label: ref, merge_request: null };
  const known = lookup?.(projectId, iid);
  return {
    ref_label: `!${iid}`,
    merge_request: {
      iid,
      title: known?.title ?? null,
      web_url: known?.webUrl ?? `${projectWebUrl ?? ''}/-/merge_requests/${iid}`,
    },
  };
}

/** `!406 (Fix the search index)` for an MR with a known title, else the label alone. */
export function refInWords(label: RefLabel, maxTitle = 60): string {
  const title = label.merge_request?.title;
  if (!title) return label.ref_label;
  const short = title.length > maxTitle ? `${title.slice(0, maxTitle - 1).trimEnd()}…` : title;
  return `${label.ref_label} (${short})`;
}
