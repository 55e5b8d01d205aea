import type { FlakeIndex } from '../group-health/flaky-jobs.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import type { GitLabCurrentUser, GitLabMergeRequestListItem } from '../gitlab/wire.ts';
import type { PipelineHistory } from '../history/pipeline-history.ts';
import { mergeRequestIid, type PipelineHistoryRecord } from '../history/model.ts';
import type { Clock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';
import type { MyMergeRequest, MyMergeRequestsResponse, TriageFailure } from './contract.ts';
import { failedAtOf, type FailedJobRef, type SignatureRecorder } from './signature-recorder.ts';
import type { TestEvidence } from './test-evidence.ts';
import { judgeFailure, TargetBranchIndex, type Judgement } from './verdict.ts';

/** What "my merge requests" reads. */
export interface MyMergeRequestsDeps {
  gitlab: Pick<GitLabApi, 'getCurrentUser' | 'listGroupMergeRequests'>;
  /** The watched group. */
  group: () => string;
  /** Memory's snapshot with the stored past of the merge requests' projects (`withPast`). */
  history: Pick<PipelineHistory, 'withPast' | 'version' | 'watchedProjects' | 'loadAll'>;
  /** Flakes of the last week (group health's). */
  flakes: () => FlakeIndex;
  recorder: SignatureRecorder;
  /** Test-level evidence (the test reports), when the service has it. */
  tests?: TestEvidence;
  clock: Clock;
  logger: Logger;
  /** How long the merge request list is reused (default 60 s): one request a minute at most. */
  ttlMs?: number;
}

interface Listing {
  at: number;
  group: string;
  items: GitLabMergeRequestListItem[];
}

/**
 * The token user's open merge requests in the group, each with its latest pipeline (from the
 * history the poller already keeps: merge-request pipelines and branch pipelines of the source
 * branch), its failing jobs and a verdict for each. GitLab is asked for the user once and for the
 * merge request list at most once a `ttlMs`, by the poll cycle or a request, whichever comes first.
 */
export class MyMergeRequests {
  private user: GitLabCurrentUser | null = null;
  private listing: Listing | null = null;
  private refreshing: Promise<Listing> | null = null;
  private targets: { key: string; index: TargetBranchIndex } | null = null;
  private readonly ttlMs: number;
  /** GitLab requests made (the user, the list's pages counted as one call each listing). */
  requests = 0;

  constructor(private readonly deps: MyMergeRequestsDeps) {
    this.ttlMs = deps.ttlMs ?? 60_000;
  }

  /** The poll cycle's share: re-lists the merge requests when the list is older than `ttlMs`. */
  cycle(): void {
    if (!this.isStale() || this.refreshing) return;
    this.listed().catch((err: unknown) => {
      this.deps.logger.debug({ err: (err as Error).message }, 'listing my merge requests failed');
    });
  }

  /** GET /api/triage/mine */
  async answer(): Promise<MyMergeRequestsResponse> {
    const listing = await this.listed();
    const user = this.user!;
    await this.deps.history.loadAll();
    const projectIds = [...new Set(listing.items.map((mr) => mr.project_id))];
    const { pipelines, jobs } = this.deps.history.withPast(projectIds);
    const names = new Map(this.deps.history.watchedProjects().map((p) => [p.id, p.name]));
    const latest = latestPipelines(pipelines, listing.items);
    const out: MyMergeRequest[] = [];
    const unsigned: FailedJobRef[] = [];
    for (const mr of listing.items) {
      const name = names.get(mr.project_id);
      if (name === undefined) continue;
      const pipeline = latest.get(`${mr.project_id}:${mr.iid}`);
      const failing = pipeline
        ? (jobs.get(pipeline.pipelineId) ?? []).filter(
            (j) => j.status === 'failed' && !j.retried && !j.allowFailure,
          )
        : [];
      const failures: TriageFailure[] = [];
      for (const job of failing) {
        const judged = await this.judge(
          projectIds,
          mr.project_id,
          pipeline!,
          job.jobId,
          job.name,
          mr.target_branch,
        );
        // Known signatures only; the rest are read in the background and announced when they land.
        const signed = this.deps.recorder.known(job.jobId);
        if (!signed)
          unsigned.push({
            projectId: mr.project_id,
            pipelineId: pipeline!.pipelineId,
            jobId: job.jobId,
            jobName: job.name,
            failedAt: failedAtOf(job),
          });
        failures.push({
          job_id: job.jobId,
          job_name: job.name,
          stage: job.stage,
          verdict: judged.verdict,
          evidence: judged.evidence,
          signature: signed?.signature ?? null,
        });
      }
      out.push({
        project_id: mr.project_id,
        project_name: name,
        iid: mr.iid,
        title: mr.title,
        web_url: mr.web_url,
        source_branch: mr.source_branch,
        target_branch: mr.target_branch,
        pipeline: pipeline
          ? { pipeline_id: pipeline.pipelineId, status: pipeline.status, web_url: pipeline.webUrl }
          : null,
        failures,
      });
    }
    this.deps.recorder.request(unsigned);
    // Failing first; the list itself is most recently updated first.
    const order = new Map(out.map((m, i) => [m, i]));
    out.sort(
      (a, b) =>
        Number(b.failures.length > 0) - Number(a.failures.length > 0) ||
        order.get(a)! - order.get(b)!,
    );
    return { user: { id: user.id, username: user.username, name: user.name }, merge_requests: out };
  }

  /**
   * Verdicts of a pipeline's failed jobs against `targetBranch` (the project's default branch for
   * a push), for the `mine` notifications.
   */
  async verdicts(
    projectId: number,
    pipelineId: number,
    jobs: readonly { id: number; name: string }[],
    targetBranch: string,
  ): Promise<Map<number, Judgement>> {
    const out = new Map<number, Judgement>();
    const pipeline = this.deps.history
      .withPast([projectId])
      .pipelines.findLast((p) => p.pipelineId === pipelineId);
    if (!pipeline) return out;
    for (const job of jobs)
      out.set(
        job.id,
        await this.judge([projectId], projectId, pipeline, job.id, job.name, targetBranch),
      );
    return out;
  }

  /** `projects`: whose past the target-branch index reads (the projects asked about together). */
  private async judge(
    projects: readonly number[],
    projectId: number,
    pipeline: PipelineHistoryRecord,
    jobId: number,
    jobName: string,
    targetBranch: string,
  ): Promise<Judgement> {
    const tested = await this.deps.tests
      ?.verdictFor({
        projectId,
        pipelineId: pipeline.pipelineId,
        jobId,
        jobName,
        sha: pipeline.sha,
        targetBranch,
      })
      .catch(() => null);
    if (tested) return tested;
    return judgeFailure(
      { projectId, jobName, sha: pipeline.sha, targetBranch },
      this.targetIndex(projects),
      this.deps.flakes(),
      this.deps.clock.now(),
    );
  }

  private targetIndex(projects: readonly number[]): TargetBranchIndex {
    const key = `${this.deps.history.version}:${projects.join(',')}`;
    if (this.targets?.key !== key)
      this.targets = { key, index: new TargetBranchIndex(this.deps.history.withPast(projects)) };
    return this.targets.index;
  }

  private isStale(): boolean {
    return (
      this.listing === null ||
      this.listing.group !== this.deps.group() ||
      this.deps.clock.now() - this.listing.at >= this.ttlMs
    );
  }

  private listed(): Promise<Listing> {
    if (!this.isStale() && this.listing) return Promise.resolve(this.listing);
    this.refreshing ??= this.fetch().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private async fetch(): Promise<Listing> {
    const { gitlab } = this.deps;
    if (!gitlab.listGroupMergeRequests)
      throw new AppError('upstream_unavailable', 'This GitLab source cannot list merge requests');
    if (!this.user) {
      this.requests++;
      this.user = await gitlab.getCurrentUser();
    }
    const group = this.deps.group();
    this.requests++;
    const items = await gitlab.listGroupMergeRequests(group, this.user.id);
    this.listing = { at: this.deps.clock.now(), group, items };
    return this.listing;
  }
}

/**
 * Each merge request's latest pipeline in the history: one of its merge-request pipelines
 * (`refs/merge-requests/<iid>/head`, `/merge`, `/train`) or a branch pipeline of its source branch
 * at its head commit, whichever was created last.
 */
function latestPipelines(
  pipelines: readonly PipelineHistoryRecord[],
  items: readonly GitLabMergeRequestListItem[],
): Map<string, PipelineHistoryRecord> {
  const wanted = new Map<string, string>();
  const branches = new Map<string, GitLabMergeRequestListItem>();
  for (const mr of items) {
    wanted.set(`${mr.project_id}:${mr.iid}`, mr.source_branch);
    branches.set(`${mr.project_id}:${mr.source_branch}`, mr);
  }
  const out = new Map<string, PipelineHistoryRecord>();
  // Oldest first: a later one replaces an earlier one.
  for (const p of pipelines) {
    const iid = mergeRequestIid(p.ref);
    if (iid !== null) {
      const key = `${p.projectId}:${iid}`;
      if (wanted.has(key)) out.set(key, p);
      continue;
    }
    const mr = branches.get(`${p.projectId}:${p.ref}`);
    if (mr && mr.sha !== null && p.sha === mr.sha) out.set(`${p.projectId}:${mr.iid}`, p);
  }
  return out;
}
