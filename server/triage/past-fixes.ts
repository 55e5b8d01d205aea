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

/**
 * What fixed each failure signature before, per project: the pipeline history by ref and the
 * signed failed jobs by signature, indexed once per change of either, so asking for a pipeline's
 * failed jobs costs a few map reads and binary searches.
 */
export class FixIndex {
  private readonly pipelines = new Map<number, PipelineHistoryRecord>();
  /** `project:ref` → pipelines oldest first. */
  private readonly byRef = new Map<string, PipelineHistoryRecord[]>();
  /** `project:signature` → failed pipelines with that signature, newest first (each once). */
  private readonly bySignature = new Map<string, PipelineHistoryRecord[]>();
  /** `project:sha` → the merge request whose pipeline built that commit. */
  private readonly mrBySha = new Map<string, number>();

  constructor(
    snapshot: Pick<HistorySnapshot, 'pipelines'>,
    rows: Iterable<StoredJobSignature>,
    private readonly mergeRequests: MergeRequestLookup,
    private readonly projectWebUrl: (projectId: number) => string | undefined,
  ) {
    for (const p of snapshot.pipelines) {
      this.pipelines.set(p.pipelineId, p);
      const key = `${p.projectId}:${p.ref}`;
      let list = this.byRef.get(key);
      if (!list) this.byRef.set(key, (list = []));
      list.push(p);
      const iid = mergeRequestIid(p.ref);
      if (iid !== null) this.mrBySha.set(`${p.projectId}:${p.sha}`, iid);
    }
    const seen = new Set<string>();
    for (const row of rows) {
      if (row.signature === null) continue;
      const p = this.pipelines.get(row.pipelineId);
      const key = `${row.projectId}:${row.signature}`;
      if (!p || seen.has(`${key}:${p.pipelineId}`)) continue;
      seen.add(`${key}:${p.pipelineId}`);
      let list = this.bySignature.get(key);
      if (!list) this.bySignature.set(key, (list = []));
      list.push(p);
    }
    for (const list of this.bySignature.values()) list.sort(newestFirst);
  }

  /**
   * Earlier occurrences of the failure's signature on its project whose ref then went green, newest
   * first: for each, the first green pipeline of that ref after it, on another commit (green again
   * on the same commit is a flake, not a fix), finished before this failure's pipeline started.
   */
  fixesFor(failure: FailureOccurrence): FixedBefore[] {
    const current = this.pipelines.get(failure.pipelineId);
    const before = current?.createdAt ?? Number.MAX_SAFE_INTEGER;
    const earlier = this.bySignature.get(`${failure.projectId}:${failure.signature}`) ?? [];
    const out: FixedBefore[] = [];
    const fixes = new Set<number>();
    for (const failed of earlier) {
      if (out.length === MAX_FIXES) break;
      if (failed.pipelineId === failure.pipelineId || failed.createdAt >= before) continue;
      const fix = this.firstGreenAfter(failed, before);
      if (!fix || fixes.has(fix.pipelineId)) continue;
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

  private firstGreenAfter(
    failed: PipelineHistoryRecord,
    before: number,
  ): PipelineHistoryRecord | undefined {
    const list = this.byRef.get(`${failed.projectId}:${failed.ref}`) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.createdAt <= failed.createdAt) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < list.length; i++) {
      const p = list[i]!;
      if (p.createdAt >= before) return undefined;
      if (p.status !== 'success') continue;
      return p.sha === failed.sha ? undefined : p;
    }
    return undefined;
  }

  private mergeRequestOf(p: PipelineHistoryRecord): MergeRequestRef | null {
    const iid = mergeRequestIid(p.ref) ?? this.mrBySha.get(`${p.projectId}:${p.sha}`) ?? null;
    if (iid === null) return null;
    const known = this.mergeRequests(p.projectId, iid);
    return {
      iid,
      title: known?.title ?? null,
      web_url: known?.webUrl ?? `${this.projectWebUrl(p.projectId) ?? ''}/-/merge_requests/${iid}`,
    };
  }
}

const newestFirst = (a: PipelineHistoryRecord, b: PipelineHistoryRecord) =>
  b.createdAt - a.createdAt || b.pipelineId - a.pipelineId;

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
