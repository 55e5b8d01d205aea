import type { HealthWindow } from '../group-health/contract.ts';
import type { StoredJobSignature } from '../history/failure-signatures.ts';
import type { FailureSignature, FailureSignaturesResponse } from './contract.ts';

/** Jobs listed per signature (the newest); `occurrences` counts them all. */
const MAX_JOBS = 50;

interface Group {
  signature: string;
  rows: StoredJobSignature[];
}

/**
 * The failure signatures of a window, most widespread first: by how many projects share one, then
 * by occurrences, then the newest. Only projects `projectName` knows (the watched ones) count.
 */
export function signatureReport(
  rows: Iterable<StoredJobSignature>,
  window: HealthWindow,
  projectName: (projectId: number) => string | undefined,
): FailureSignaturesResponse {
  const from = Date.parse(window.from);
  const to = Date.parse(window.to);
  const groups = new Map<string, Group>();
  for (const row of rows) {
    if (row.signature === null || row.failedAt < from || row.failedAt > to) continue;
    if (projectName(row.projectId) === undefined) continue;
    let group = groups.get(row.signature);
    if (!group) groups.set(row.signature, (group = { signature: row.signature, rows: [] }));
    group.rows.push(row);
  }
  const signatures: FailureSignature[] = [];
  for (const { signature, rows: list } of groups.values()) {
    // The newest MAX_JOBS and the oldest are all the report shows: no need to sort every row.
    const newestJobs = newestFirst(list, MAX_JOBS);
    let oldest = list[0]!.failedAt;
    const perProject = new Map<number, number>();
    for (const r of list) {
      if (r.failedAt < oldest) oldest = r.failedAt;
      perProject.set(r.projectId, (perProject.get(r.projectId) ?? 0) + 1);
    }
    const newest = newestJobs[0]!;
    signatures.push({
      signature,
      sample_line: newest.sampleLine ?? '',
      category: newest.category ?? '',
      occurrences: list.length,
      projects: [...perProject]
        .map(([id, n]) => ({ project_id: id, project_name: projectName(id)!, occurrences: n }))
        .sort(
          (a, b) => b.occurrences - a.occurrences || a.project_name.localeCompare(b.project_name),
        ),
      first_seen: new Date(oldest).toISOString(),
      last_seen: new Date(newest.failedAt).toISOString(),
      jobs: newestJobs.map((r) => ({
        project_id: r.projectId,
        pipeline_id: r.pipelineId,
        job_id: r.jobId,
        job_name: r.jobName,
        at: new Date(r.failedAt).toISOString(),
      })),
    });
  }
  signatures.sort(
    (a, b) =>
      b.projects.length - a.projects.length ||
      b.occurrences - a.occurrences ||
      Date.parse(b.last_seen) - Date.parse(a.last_seen) ||
      a.signature.localeCompare(b.signature),
  );
  return { window, signatures };
}

const newer = (a: StoredJobSignature, b: StoredJobSignature) =>
  b.failedAt - a.failedAt || b.jobId - a.jobId;

/**
 * The `k` newest rows, newest first (ties: the higher job id), by insertion into a short sorted
 * list: rows come in any order and most are older than the k kept, so few are inserted.
 */
function newestFirst(rows: readonly StoredJobSignature[], k: number): StoredJobSignature[] {
  const kept: StoredJobSignature[] = [];
  for (const row of rows) {
    if (kept.length === k && newer(row, kept[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newer(kept[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, row);
    if (kept.length > k) kept.pop();
  }
  return kept;
}
