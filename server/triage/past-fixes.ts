import type { MergeRequestRef } from '../group-health/contract.ts';
import type { StoredJobSignature } from '../history/failure-signatures.ts';
import {
  mergeRequestIid,
  type HistorySnapshot,
  type PipelineHistoryRecord,
} from '../history/model.ts';
import type { MergeRequestLookup } from '../summary/merge-request-ref.ts';
import type { FixedBefore } from './contract.ts';

/** Fixes listed per failure (the newest). */
const MAX_FIXES = 3;

/** A failed job whose earlier fixes are wanted. */
export interface FailureOccurrence {
  projectId: number;
  pipelineId: number;
  signature: string;
}

/** An earlier failure with a signature and the first green pipeline of its ref after it. */
interface Occurrence {
  failed: PipelineHistoryRecord;
  /** Null while the ref has not gone green since (or went green on the same commit: a flake). */
  fix: PipelineHistoryRecord | null;
}

/**
 * What fixed each failure signature before, per project, computed in one pass over the pipeline
 * history (oldest first): each signed failure waits on its ref for the first green pipeline after
 * it. Rebuilt once per change of the history or of the signatures; asking for a failure is then a
 * few map reads.
 */
export class FixIndex {
  /** project → signature → occurrences, newest first. */
  private readonly bySignature = new Map<number, Map<string, Occurrence[]>>();
  /** project → sha → the merge request one of whose pipelines built it. */
  private readonly mrBySha = new Map<number, Map<string, number>>();

  constructor(
    snapshot: Pick<HistorySnapshot, 'pipelines'>,
    rows: Iterable<StoredJobSignature>,
    private readonly mergeRequests: MergeRequestLookup,
    private readonly projectWebUrl: (projectId: number) => string | undefined,
  ) {
    // One signature per pipeline is the rule; a few pipelines fail two ways.
    const signaturesOf = new Map<number, string | string[]>();
    for (const row of rows) {
      if (row.signature === null) continue;
      const known = signaturesOf.get(row.pipelineId);
      if (known === undefined) signaturesOf.set(row.pipelineId, row.signature);
      else if (typeof known === 'string') {
        if (known !== row.signature) signaturesOf.set(row.pipelineId, [known, row.signature]);
      } else if (!known.includes(row.signature)) known.push(row.signature);
    }
    // project → ref → occurrences waiting for the ref to go green.
    const waiting = new Map<number, Map<string, Occurrence[]>>();
    // A group's merge-request refs repeat across its pipelines: each is parsed once.
    const iids = new Map<string, number | null>();
    for (const p of snapshot.pipelines) {
      if (p.ref.startsWith('refs/merge-requests/')) {
        let iid = iids.get(p.ref);
        if (iid === undefined) iids.set(p.ref, (iid = mergeRequestIid(p.ref)));
        if (iid !== null) {
          let shas = this.mrBySha.get(p.projectId);
          if (!shas) this.mrBySha.set(p.projectId, (shas = new Map()));
          shas.set(p.sha, iid);
        }
      }
      if (p.status === 'success') {
        const refs = waiting.get(p.projectId);
        const pending = refs?.get(p.ref);
        if (!pending) continue;
        // Green again on the failure's own commit is a flake, not a fix.
        for (const o of pending) if (o.failed.sha !== p.sha) o.fix = p;
        refs!.delete(p.ref);
        continue;
      }
      const signatures = signaturesOf.get(p.pipelineId);
      if (!signatures) continue;
      let refs = waiting.get(p.projectId);
      if (!refs) waiting.set(p.projectId, (refs = new Map()));
      let pending = refs.get(p.ref);
      if (!pending) refs.set(p.ref, (pending = []));
      let bySignature = this.bySignature.get(p.projectId);
      if (!bySignature) this.bySignature.set(p.projectId, (bySignature = new Map()));
      for (const signature of typeof signatures === 'string' ? [signatures] : signatures) {
        const occurrence: Occurrence = { failed: p, fix: null };
        pending.push(occurrence);
        const list = bySignature.get(signature);
        if (list) list.push(occurrence);
        else bySignature.set(signature, [occurrence]);
      }
    }
    for (const signatures of this.bySignature.values())
      for (const list of signatures.values()) list.reverse();
  }

  /**
   * Earlier occurrences of the failure's signature on its project whose ref then went green, newest
   * first: for each, the first green pipeline of that ref after it, on another commit (green again
   * on the same commit is a flake, not a fix), created before this failure's pipeline.
   */
  fixesFor(failure: FailureOccurrence): FixedBefore[] {
    const earlier = this.bySignature.get(failure.projectId)?.get(failure.signature) ?? [];
    // The failure itself is among them when its pipeline was signed: no index of every pipeline's
    // creation time is kept for it (that map was most of the rebuild's allocations).
    const before =
      earlier.find((o) => o.failed.pipelineId === failure.pipelineId)?.failed.createdAt ??
      Number.MAX_SAFE_INTEGER;
    const out: FixedBefore[] = [];
    const fixes = new Set<number>();
    for (const { failed, fix } of earlier) {
      if (out.length === MAX_FIXES) break;
      if (failed.pipelineId === failure.pipelineId || failed.createdAt >= before) continue;
      if (!fix || fix.createdAt >= before || fixes.has(fix.pipelineId)) continue;
      fixes.add(fix.pipelineId);
      out.push({
        pipeline_id: fix.pipelineId,
        sha: fix.sha,
        short_sha: fix.sha.slice(0, 8),
        commit_title: fix.commitTitle,
        commit_author: fix.commitAuthor,
        merge_request: this.mergeRequestOf(fix),
        fixed_at: new Date(fix.finishedAt ?? fix.createdAt).toISOString(),
        failed_pipeline_id: failed.pipelineId,
      });
    }
    return out;
  }

  private mergeRequestOf(p: PipelineHistoryRecord): MergeRequestRef | null {
    const iid = mergeRequestIid(p.ref) ?? this.mrBySha.get(p.projectId)?.get(p.sha) ?? null;
    if (iid === null) return null;
    const known = this.mergeRequests(p.projectId, iid);
    return {
      iid,
      title: known?.title ?? null,
      web_url: known?.webUrl ?? `${this.projectWebUrl(p.projectId) ?? ''}/-/merge_requests/${iid}`,
    };
  }
}

/** A past fix in words, for the AI prompt and the offline report. */
export function fixInWords(fix: FixedBefore, now: number): string {
  const mr = fix.merge_request ? ` (!${fix.merge_request.iid})` : '';
  const title = fix.commit_title ? ` '${fix.commit_title}'` : '';
  const by = fix.commit_author ? ` by ${fix.commit_author}` : '';
  return `fixed before by ${fix.short_sha}${title}${by}${mr} ${agoInWords(now - Date.parse(fix.fixed_at))} (pipeline #${fix.pipeline_id}, after the same error in #${fix.failed_pipeline_id})`;
}

/** "3 hours ago", "2 days ago", "two weeks ago"-style words for an age in ms. */
export function agoInWords(ms: number): string {
  if (ms < 3_600_000) return 'less than an hour ago';
  const hours = Math.round(ms / 3_600_000);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} days ago`;
  return `${Math.round(days / 7)} weeks ago`;
}
