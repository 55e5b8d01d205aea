import type { GitLabJobStatus, GitLabPipelineStatus } from '../gitlab/wire.ts';
import { FAILURES, TEMPLATES } from './ci-templates.ts';
import { TEST_FAILURE } from './test-reports/catalog.ts';
import type {
  FailureKind,
  JobTemplate,
  PriorRun,
  RefKind,
  SimBridge,
  SimJob,
  SimPipeline,
  SimProject,
} from './model.ts';
import { hashSeed, rngFor, type Rng } from './random.ts';
import { failureOnSameCommit } from './same-commit.ts';

/** Statuses of a job (or pipeline) that is still moving. */
export const ACTIVE_JOB_STATUSES: ReadonlySet<GitLabJobStatus> = new Set([
  'created',
  'pending',
  'running',
  'preparing',
  'waiting_for_resource',
]);

/** Pipeline statuses after which nothing changes by itself. */
export const FINISHED_PIPELINE_STATUSES: ReadonlySet<GitLabPipelineStatus> = new Set([
  'success',
  'failed',
  'canceled',
  'skipped',
]);

/** GitLab's job timeout in the simulated projects' settings (1h). */
export const JOB_TIMEOUT_MS = 3_600_000;

const STAGE_FAILURE_WEIGHT: Readonly<Record<string, number>> = {
  test: 5,
  build: 3,
  lint: 3,
  validate: 3,
  plan: 2,
};

function applies(template: JobTemplate, refKind: RefKind): boolean {
  switch (template.rule ?? 'always') {
    case 'always':
      return true;
    case 'default-branch':
      return refKind === 'default';
    case 'tags':
      return refKind === 'tag';
    case 'merge-requests':
      return refKind === 'merge-request';
    case 'release':
      return refKind === 'default' || refKind === 'tag';
  }
}

/** The jobs a project's CI config creates for a kind of ref (GitLab `rules:`), in stage order. */
export function templatesFor(project: SimProject, refKind: RefKind): JobTemplate[] {
  return TEMPLATES[project.kind].filter((t) => applies(t, refKind));
}

/** How many jobs a pipeline on this ref gets (0 for `[skip ci]` pipelines). */
export function jobCountFor(project: SimProject, refKind: RefKind, skipped: boolean): number {
  return skipped ? 0 : templatesFor(project, refKind).length;
}

/** A failure kind for a tool, by the catalog's weights. */
export function pickFailure(rng: Rng, template: JobTemplate): FailureKind {
  return rng.weighted(FAILURES[template.tool]);
}

/** What the job did on this commit before (or, in the seeded history, will do there later). */
function priorRunOf(
  pipeline: Pick<SimPipeline, 'priorRuns' | 'runsLater'>,
  template: JobTemplate,
): PriorRun | undefined {
  return (
    pipeline.priorRuns?.get(template.name) ??
    (pipeline.runsLater?.has(template.name) ? 'passed' : undefined)
  );
}

function codeFailureBefore(pipeline: Pick<SimPipeline, 'priorRuns'>, template: JobTemplate) {
  const prior = pipeline.priorRuns?.get(template.name);
  return prior !== undefined && prior !== 'passed' && prior !== 'ran';
}

/** How many parts a job's log is written in while it runs (live jobs pace them over their duration). */
export function stepsFor(durationMs: number): number {
  return Math.min(10, Math.max(2, Math.round(durationMs / 25_000)));
}

/** Per-project speed: some repos are just slower. */
function speedOf(project: SimProject): number {
  return 0.7 + (hashSeed('speed', project.id) % 700) / 1000;
}

/**
 * The deterministic job plan of a pipeline: names, stages, statuses, times and failures that follow
 * from its outcome. Finished historical pipelines are stored without jobs and re-planned from
 * their seed on demand, so this must only depend on fields fixed at creation.
 */
export function planJobs(
  project: SimProject,
  pipeline: Pick<
    SimPipeline,
    'seed' | 'outcome' | 'refKind' | 'createdAt' | 'firstJobId' | 'priorRuns' | 'runsLater'
  >,
): SimJob[] {
  if (pipeline.outcome === 'skipped') return [];
  const rng = rngFor(pipeline.seed, 'jobs');
  const templates = templatesFor(project, pipeline.refKind);
  const stages = [...new Set(templates.map((t) => t.stage))];
  const speed = speedOf(project);

  const runnable = (t: JobTemplate): boolean => !t.manual && !t.allowFailure;
  let failStage = -1;
  const failing = new Set<JobTemplate>();
  // A test scenario's pipeline fails in its test job, with a test failure (test-reports/).
  const forced = project.junit?.forced.get(pipeline.createdAt);
  const forcedTemplate = forced && templates.find((t) => t.name === forced.jobName);
  if (pipeline.outcome === 'failed' && forcedTemplate) {
    failStage = stages.indexOf(forcedTemplate.stage);
    failing.add(forcedTemplate);
  } else if (pipeline.outcome === 'failed') {
    const candidates = stages
      .map((stage, index) => [index, stage] as const)
      .filter(([, stage]) => templates.some((t) => t.stage === stage && runnable(t)));
    failStage = rng.weighted(
      candidates.map(([i, s]) => [i, STAGE_FAILURE_WEIGHT[s] ?? 1] as const),
    );
    const eligible = templates.filter((t) => t.stage === stages[failStage] && runnable(t));
    failing.add(rng.pick(eligible));
    if (eligible.length > 1 && rng.chance(0.2)) failing.add(rng.pick(eligible));
    // A commit that failed a job with a code failure before fails there again (the draws above
    // are still made, so the rest of the plan keeps its numbers).
    const again = templates.find((t) => runnable(t) && codeFailureBefore(pipeline, t));
    if (again) {
      failStage = stages.indexOf(again.stage);
      failing.clear();
      failing.add(again);
    }
  }
  let cancelStage = -1;
  if (pipeline.outcome === 'canceled') {
    cancelStage = rng.int(0, stages.length - 1);
  }

  const jobs: SimJob[] = [];
  let t = pipeline.createdAt + rng.int(800, 6_000);
  let stop: 'failed' | 'canceled' | 'blocked' | null = null;
  let cancelAt = 0;
  stages.forEach((stage, stageIndex) => {
    let stageEnd = t;
    const stageTemplates = templates.filter((tpl) => tpl.stage === stage);
    if (stageIndex === cancelStage) {
      cancelAt = t + rng.int(20_000, 200_000);
    }
    for (const template of stageTemplates) {
      const id = pipeline.firstJobId + jobs.length;
      const [min, max] = template.seconds;
      const drawn = rng.float(min, max);
      // A slowdown scenario's job runs steadily (±5 % around the middle of its range), `factor`×
      // as long from the slow commit on, so the change point is unambiguous.
      const slow = project.slowdown?.jobName === template.name ? project.slowdown : undefined;
      const seconds = slow
        ? ((min + max) / 2) *
          (0.95 + (0.1 * (drawn - min)) / Math.max(1, max - min)) *
          (pipeline.createdAt >= slow.fromCreatedAt ? slow.factor : 1)
        : drawn;
      const plannedMs = Math.round(seconds * speed * 1000);
      const queueMs = rng.chance(0.1) ? rng.int(30_000, 240_000) : rng.int(1_000, 25_000);
      const job: SimJob = {
        id,
        name: template.name,
        stage,
        stageIndex,
        template,
        status: 'created',
        allowFailure: template.allowFailure ?? false,
        manual: template.manual ?? false,
        createdAt: pipeline.createdAt,
        queuedAt: null,
        startedAt: null,
        finishedAt: null,
        failure: null,
        plannedStatus: 'success',
        plannedDurationMs: plannedMs,
        steps: stepsFor(plannedMs),
        stepsDone: 0,
        coverage: null,
      };
      jobs.push(job);
      if (stop === 'failed') {
        job.status = 'skipped';
        continue;
      }
      if (stop === 'canceled') {
        job.status = 'canceled';
        job.finishedAt = cancelAt;
        continue;
      }
      if (stop === 'blocked') continue; // stays `created` behind a blocking manual job
      // Blocking manual jobs on tags get played about half the time (someone clicked deploy).
      const played =
        job.manual && !job.allowFailure && pipeline.outcome === 'success' && rng.chance(0.5);
      if (job.manual && !played) {
        job.status = 'manual';
        continue;
      }
      job.queuedAt = played ? t + rng.int(60_000, 3_600_000) : t;
      job.startedAt = job.queuedAt + queueMs;
      let runMs = plannedMs;
      if (failing.has(template) || (job.allowFailure && rng.chance(0.12))) {
        job.plannedStatus = 'failed';
        job.failure = pickFailure(rng, template);
        // A planted test failure is the scenario's point (a flaky test fails on a commit it
        // passes on); any other failure follows what the job did on this commit before.
        if (template === forcedTemplate) job.failure = TEST_FAILURE[template.tool] ?? job.failure;
        else
          job.failure = failureOnSameCommit(
            job.failure,
            template,
            priorRunOf(pipeline, template),
            pipeline.seed,
          );
        if (job.failure === 'timeout') runMs = JOB_TIMEOUT_MS + rng.int(200, 4_000);
        else runMs = Math.round(plannedMs * rng.float(0.3, 1));
        job.plannedDurationMs = runMs;
        job.steps = job.failure === 'timeout' ? 10 : stepsFor(runMs);
      }
      job.finishedAt = job.startedAt + runMs;
      job.status = job.plannedStatus;
      if (stageIndex === cancelStage && job.finishedAt > cancelAt) {
        job.status = 'canceled';
        job.plannedStatus = 'success';
        job.failure = null;
        if (job.startedAt >= cancelAt) job.startedAt = null;
        job.finishedAt = cancelAt;
      }
      if (template.coverage && job.status === 'success') {
        job.coverage = Math.round(rng.float(61, 94) * 100) / 100;
      }
      stageEnd = Math.max(stageEnd, job.finishedAt);
    }
    if (stageIndex === failStage) stop = 'failed';
    else if (stageIndex === cancelStage) stop = 'canceled';
    else if (stageTemplates.some((tpl) => tpl.manual && !tpl.allowFailure) && stop === null) {
      const blocked = jobs.some(
        (j) => j.stageIndex === stageIndex && j.manual && !j.allowFailure && j.status === 'manual',
      );
      if (blocked) stop = 'blocked';
    }
    t = Math.max(stageEnd, t) + rng.int(500, 3_000);
  });
  return jobs;
}

/**
 * A trigger job's status. By default it succeeds as soon as its downstream pipeline is created
 * (doc/ci/yaml/_index.md `trigger:strategy`); with `strategy: depend` it stays pending until the
 * downstream pipeline finishes, then takes its outcome (gitlabhq app/models/ci/bridge.rb
 * `inherit_status_from_downstream!`: success → success, canceled → canceled, failed or skipped →
 * failed).
 */
export function bridgeStatusOf(
  bridge: Pick<SimBridge, 'strategy'>,
  downstream: GitLabPipelineStatus | undefined,
): GitLabJobStatus {
  if (downstream === undefined) return 'created';
  if (bridge.strategy !== 'depend') return 'success';
  if (downstream === 'success' || downstream === 'canceled') return downstream;
  if (downstream === 'failed' || downstream === 'skipped') return 'failed';
  return 'pending';
}

/**
 * A pipeline's `strategy: depend` trigger jobs as its status counts them: like jobs, so a failed
 * downstream pipeline fails it (`statusOf` gives a pipeline's status by id).
 */
export function dependentTriggers(
  pipeline: SimPipeline,
  statusOf: (pipelineId: number) => GitLabPipelineStatus | undefined,
): Pick<SimJob, 'status' | 'allowFailure'>[] {
  return pipeline.bridges
    .filter((b) => b.strategy === 'depend')
    .map((b) => ({
      status: bridgeStatusOf(b, b.downstream ? statusOf(b.downstream.pipelineId) : undefined),
      allowFailure: false,
    }));
}

/** GitLab's composite pipeline status of a set of jobs. */
export function pipelineStatusOf(
  jobs: readonly Pick<SimJob, 'status' | 'allowFailure'>[],
): GitLabPipelineStatus {
  if (jobs.length === 0) return 'skipped';
  let running = false;
  let pending = false;
  let created = false;
  let done = false;
  let failed = false;
  let canceled = false;
  let blocking = false;
  let allSkipped = true;
  for (const job of jobs) {
    if (job.status !== 'skipped') allSkipped = false;
    switch (job.status) {
      case 'running':
        running = true;
        break;
      case 'pending':
      case 'preparing':
      case 'waiting_for_resource':
        pending = true;
        break;
      case 'created':
        created = true;
        break;
      case 'manual':
        if (!job.allowFailure) blocking = true;
        break;
      case 'failed':
        done = true;
        if (!job.allowFailure) failed = true;
        break;
      case 'canceled':
        done = true;
        canceled = true;
        break;
      default:
        done = true;
    }
  }
  if (running) return 'running';
  if (pending) return done ? 'running' : 'pending';
  if (blocking) return 'manual';
  if (created) return done ? 'running' : 'created';
  if (failed) return 'failed';
  if (canceled) return 'canceled';
  if (allSkipped) return 'skipped';
  return 'success';
}

/**
 * Pipeline timing fields from its jobs, as GitLab computes them: duration is the union of the jobs'
 * running periods (integer seconds), not finished − started.
 */
export function pipelineTimesOf(
  createdAt: number,
  status: GitLabPipelineStatus,
  jobs: readonly SimJob[],
): {
  startedAt: number | null;
  finishedAt: number | null;
  duration: number | null;
  queuedDuration: number | null;
  coverage: string | null;
  lastEventAt: number;
} {
  const periods: [number, number][] = [];
  let startedAt: number | null = null;
  let lastEventAt = createdAt;
  let coverageSum = 0;
  let coverageCount = 0;
  for (const job of jobs) {
    if (job.startedAt !== null) {
      startedAt = startedAt === null ? job.startedAt : Math.min(startedAt, job.startedAt);
      lastEventAt = Math.max(lastEventAt, job.startedAt);
      if (job.finishedAt !== null) periods.push([job.startedAt, job.finishedAt]);
    }
    if (job.queuedAt !== null) lastEventAt = Math.max(lastEventAt, job.queuedAt);
    if (job.finishedAt !== null) lastEventAt = Math.max(lastEventAt, job.finishedAt);
    if (job.coverage !== null) {
      coverageSum += job.coverage;
      coverageCount++;
    }
  }
  periods.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let curStart = -1;
  let curEnd = -1;
  for (const [s, e] of periods) {
    if (s > curEnd) {
      if (curEnd > curStart) total += curEnd - curStart;
      curStart = s;
      curEnd = e;
    } else if (e > curEnd) {
      curEnd = e;
    }
  }
  if (curEnd > curStart) total += curEnd - curStart;
  const finished = FINISHED_PIPELINE_STATUSES.has(status);
  const settled = finished || status === 'manual';
  return {
    startedAt,
    finishedAt: finished ? lastEventAt : null,
    duration: settled && periods.length > 0 ? Math.round(total / 1000) : null,
    queuedDuration: startedAt === null ? null : Math.round(startedAt - createdAt) / 1000,
    coverage: coverageCount > 0 ? (coverageSum / coverageCount).toFixed(2) : null,
    lastEventAt,
  };
}
