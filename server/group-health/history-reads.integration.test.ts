// Group health read from project job lists and merge-request lists (issue 24 §5) gives the very
// numbers the per-pipeline reads gave, for a fraction of the requests. GitLab's project job list
// holds every attempt, newest id first, in the job entity of the pipeline job list
// (lib/api/ci/jobs.rb `get ':id/jobs'`: `user_project.builds.order(id: :desc)`, no `.latest`;
// https://docs.gitlab.com/api/jobs/#list-project-jobs), and the merge-request list takes `iids[]`
// (https://docs.gitlab.com/api/merge_requests/#list-project-merge-requests).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitLabApi } from '../gitlab/api.ts';
import { GitLabClient } from '../gitlab/client.ts';
import type { Clock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { startSimulator, type GitLabSimulator } from '../simulator/index.ts';
import type { RouteKind } from '../simulator/stats.ts';
import { openPollerWithHealth, type PollerWithHealth } from './testing/poller-with-health.ts';

let sim: GitLabSimulator;
const closers: (() => unknown)[] = [];

beforeAll(async () => {
  sim = await startSimulator({ live: false });
  closers.push(() => sim.close());
});

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** One cold first load with group health; the requests it made, by kind. */
async function firstLoad(
  gitlab: GitLabApi,
  clock: Clock,
): Promise<{
  service: PollerWithHealth;
  requests: Record<RouteKind, number>;
}> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'health-reads-'));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const service = openPollerWithHealth(gitlab, sim.groupPath, dir, clock);
  closers.push(service.close);
  sim.stats.reset();
  await service.poller.cycleOnce();
  await service.settle();
  return { service, requests: { ...sim.stats.byKind } };
}

/** Everything group health shows, at one instant. */
async function everyNumber(service: PollerWithHealth) {
  const { health } = service.group;
  const projects = service.poller.snapshot.projects.map((p) => p.project_id);
  return {
    defaultBranches: await health.defaultBranches(),
    flakyJobs: await health.flakyJobs(),
    regressions: await health.regressions(),
    failures: await health.failures({ page: 1, pageSize: 1_000 }),
    trends: await Promise.all(projects.map((id) => health.trends(id, 7))),
  };
}

describe('history read in bulk', () => {
  it('shows the same group health as per-pipeline reads with a fifth of the requests', async () => {
    // Both loads see the same instant, so windows and "broken for" agree to the second.
    const now = Date.now();
    const clock: Clock = { now: () => now };
    const client = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    // The same client without the list reads: the recorder reads each pipeline and MR alone.
    const perPipeline: GitLabApi = Object.assign(Object.create(client) as GitLabClient, {
      listProjectJobs: undefined,
      listMergeRequests: undefined,
    });

    const single = await firstLoad(perPipeline, clock);
    const bulk = await firstLoad(client, clock);

    const finished = single.service.group.health
      .health()
      .index.input.snapshot.pipelines.filter((p) => p.jobsFor !== null).length;
    expect(finished).toBeGreaterThan(100);
    // Per pipeline: one job read per finished pipeline (the poller's failure reads included).
    expect(single.requests.jobs).toBe(finished);
    expect(single.requests['project-jobs']).toBe(0);
    // In bulk: the summary's own failure reads stay; the rest comes from a few list pages.
    const history = (r: Record<RouteKind, number>) =>
      r.jobs + r['project-jobs'] + r['merge-request'];
    expect(bulk.requests['project-jobs']).toBeGreaterThan(0);
    // Per MR alone: one request each; listed by iids: a few per project.
    const mergeRequests = new Set(
      single.service.group.health
        .health()
        .index.input.snapshot.pipelines.filter((p) => p.ref.startsWith('refs/merge-requests/'))
        .map((p) => `${p.projectId}:${p.ref}`),
    ).size;
    expect(single.requests['merge-request']).toBe(mergeRequests);
    expect(bulk.requests['merge-request'] * 5).toBeLessThan(mergeRequests);
    // 541 → 77 on the default dataset.
    expect(history(bulk.requests) * 5).toBeLessThan(history(single.requests));

    // The same history, job by job, and the same numbers everywhere.
    const a = single.service.group.health.health().index.input.snapshot;
    const b = bulk.service.group.health.health().index.input.snapshot;
    expect(b.pipelines).toEqual(a.pipelines);
    // A job canceled before it started has a queue time that grows until it is read: GitLab's
    // CommitStatus#queued_duration is `(started_at || Time.current) - queued_at`
    // (app/models/commit_status.rb, calculate_duration). The two services read it at other moments.
    const comparable = (jobs: typeof a.jobs) =>
      new Map(
        [...jobs]
          .sort(([x], [y]) => x - y)
          .map(([id, list]) => [
            id,
            list.map((j) => (j.startedAt === null ? { ...j, queuedDuration: null } : j)),
          ]),
      );
    expect(comparable(b.jobs)).toEqual(comparable(a.jobs));
    const numbers = await everyNumber(bulk.service);
    expect(numbers).toEqual(await everyNumber(single.service));
    // Not vacuous: the scenarios' flake, failures and the broken branch are in there.
    expect(numbers.flakyJobs.jobs.length).toBeGreaterThan(0);
    expect(numbers.failures.failures.length).toBeGreaterThan(10);
    expect(numbers.defaultBranches.broken).toBeGreaterThan(0);
    expect(numbers.trends.every((t) => t !== null && t.jobs.length > 0)).toBe(true);
  }, 120_000);

  it('reads a pipeline on its own when the job list shows it changed meanwhile', async () => {
    const now = Date.now();
    const client = new GitLabClient({ baseUrl: sim.url, token: sim.token, logger: silentLogger });
    let changed: { projectId: number; pipelineId: number } | null = null;
    // The list is read while a pipeline is retried: its jobs carry another updated_at.
    const racing: GitLabApi = Object.assign(Object.create(client) as GitLabClient, {
      async listProjectJobs(projectId: number, createdAfter: number, signal?: AbortSignal) {
        const jobs = await client.listProjectJobs(projectId, createdAfter, signal);
        const done = jobs.find((j) => j.pipeline.status === 'success');
        if (!changed && done) changed = { projectId, pipelineId: done.pipeline.id };
        return jobs.map((j) =>
          j.pipeline.id === changed?.pipelineId
            ? { ...j, pipeline: { ...j.pipeline, updated_at: new Date(now).toISOString() } }
            : j,
        );
      },
    });
    const { service } = await firstLoad(racing, { now: () => now });
    expect(changed).not.toBeNull();
    const { projectId, pipelineId } = changed!;
    // Its own read happened, and what is stored is exactly GitLab's pipeline job list.
    expect(sim.stats.recent.some((r) => r.url.includes(`/pipelines/${pipelineId}/jobs?`))).toBe(
      true,
    );
    const own = await client.listPipelineJobs(projectId, pipelineId, undefined, {
      includeRetried: true,
    });
    const stored = service.group.health.health().index.input.snapshot.jobs.get(pipelineId);
    expect(stored?.map((j) => j.jobId)).toEqual(own.map((j) => j.id).sort((a, b) => a - b));
  }, 120_000);
});
