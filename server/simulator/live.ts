import type { Clock } from '../platform/clock.ts';
import type { Dataset } from './dataset.ts';
import type { FailureKind, SimJob, SimPipeline, SimProject } from './model.ts';
import { ACTIVE_JOB_STATUSES, pickFailure } from './plan.ts';
import { rngFor, type Rng } from './random.ts';

/** Chance per step that a new pipeline starts somewhere (when under the concurrency cap). */
const START_CHANCE = 0.3;

/**
 * Moves the simulated world forward: starts pipelines, walks jobs pending → running → done stage
 * by stage, and offers the test helpers that force a pipeline's outcome. Times come from `clock`.
 */
/** Who pushes a started pipeline and where (default: a random contributor, a random ref). */
export interface StartOptions {
  userId?: number;
  ref?: string;
  /** The CI configuration is invalid: the pipeline is created failed, without jobs. */
  yamlErrors?: string;
}

/** Which job of a pipeline a test fails, and with what (the log it ends with). */
export interface FailureChoice {
  /** The job's name; by default the first running stage's job that may not fail. */
  job?: string;
  /** How it fails; by default what its tool usually fails with. */
  failure?: FailureKind;
}

export class LiveWorld {
  private readonly rng: Rng;
  private readonly candidates: SimProject[];

  constructor(
    private readonly data: Dataset,
    private readonly clock: Clock,
    seed: number,
  ) {
    this.rng = rngFor(seed, 'live');
    this.candidates = data.topProjects();
  }

  /** One tick: advance every unsettled pipeline, then maybe start a new one. */
  step(): void {
    const now = this.clock.now();
    for (const pipeline of [...this.data.active]) this.advance(pipeline, now);
    // Pipelines run for minutes, as their history did: half the projects may be busy at once.
    const cap = Math.max(4, Math.ceil(this.candidates.length / 2));
    if (
      this.candidates.length > 0 &&
      this.data.active.size < cap &&
      this.rng.chance(START_CHANCE)
    ) {
      this.start();
    }
  }

  /** Starts a `created` pipeline in `projectId` (or a random active project of the top group). */
  start(projectId?: number, options: StartOptions = {}): SimPipeline {
    const project =
      projectId === undefined
        ? this.rng.pick(this.candidates)
        : this.data.projectById.get(projectId);
    if (!project) throw new Error(`The simulator has no project ${projectId}`);
    if (project.archived) throw new Error(`Project ${project.fullPath} is archived`);
    const outcome = this.rng.weighted([
      ['success', 78],
      ['failed', 17],
      ['canceled', 5],
    ] as const);
    const draft = this.data.draft(project, this.rng, this.clock.now(), outcome);
    // A test's own push: this user, this ref (the failure notifications need "mine" on demand).
    if (options.userId !== undefined) draft.userId = options.userId;
    if (options.ref !== undefined) {
      draft.ref = draft.branch = options.ref;
      draft.refKind = options.ref === project.defaultBranch ? 'default' : 'branch';
      draft.source = 'push';
      draft.name = null;
    }
    const pipeline = this.data.commit(draft, false);
    if (options.yamlErrors !== undefined) {
      pipeline.yamlErrors = options.yamlErrors;
      pipeline.jobs = [];
      this.data.settle(pipeline, pipeline.jobs, false);
    }
    return pipeline;
  }

  /** Ends a pipeline now: every job finishes as `status` implies (test helper). */
  finish(
    projectId: number,
    pipelineId: number,
    status: 'success' | 'failed',
    choice: FailureChoice = {},
  ): void {
    const pipeline = this.data.pipelineById.get(pipelineId);
    if (!pipeline || pipeline.projectId !== projectId) {
      throw new Error(`The simulator has no pipeline ${pipelineId} in project ${projectId}`);
    }
    const now = this.clock.now();
    const jobs = this.data.materialise(pipeline);
    pipeline.cancelAtStep = null;
    if (status === 'success') {
      for (const job of jobs) {
        if (
          job.status === 'success' ||
          (job.manual && job.allowFailure && job.status === 'manual')
        ) {
          continue;
        }
        completeJob(job, 'success', now);
      }
    } else {
      const runnable = (j: SimJob): boolean => !j.allowFailure && !j.manual;
      const firstActive = jobs.find((j) => ACTIVE_JOB_STATUSES.has(j.status));
      let victim: SimJob | undefined;
      if (choice.job !== undefined) {
        victim = jobs.find((j) => j.name === choice.job);
        if (!victim) {
          throw new Error(
            `Pipeline ${pipelineId} has no job ${choice.job} (it has ${jobs.map((j) => j.name).join(', ')})`,
          );
        }
      } else if (firstActive) {
        victim = jobs.find((j) => j.stageIndex === firstActive.stageIndex && runnable(j));
      }
      victim ??= [...jobs].reverse().find(runnable);
      if (!victim) throw new Error(`Pipeline ${pipelineId} has no job that can fail`);
      const stage = victim.stageIndex;
      for (const job of jobs) {
        if (job === victim) {
          if (choice.failure !== undefined) job.failure = choice.failure;
          job.failure ??= pickFailure(rngFor(job.id, 'forced-failure'), job.template);
          completeJob(job, 'failed', now);
        } else if (job.stageIndex <= stage) {
          if (ACTIVE_JOB_STATUSES.has(job.status)) completeJob(job, 'success', now);
        } else {
          job.status = 'skipped';
          job.queuedAt = null;
          job.startedAt = null;
          job.finishedAt = null;
          job.coverage = null;
        }
      }
    }
    this.data.settle(pipeline, jobs, false);
    this.touch(pipeline, now);
  }

  /**
   * Retries a finished pipeline as GitLab's "Retry" does (doc/api/pipelines.md, "Retry jobs in a
   * pipeline"): failed and canceled jobs get new attempts with new ids (the old ones stay, listed
   * only with `include_retried=true`), the jobs they had skipped are created again, and the
   * pipeline is running again with a new `updated_at`.
   */
  retry(projectId: number, pipelineId: number): void {
    const pipeline = this.pipelineOf(projectId, pipelineId);
    const jobs = this.data.materialise(pipeline);
    const now = this.clock.now();
    const retried = jobs.filter((j) => j.status === 'failed' || j.status === 'canceled');
    if (retried.length === 0) throw new Error(`Pipeline ${pipelineId} has nothing to retry`);
    const firstStage = Math.min(...retried.map((j) => j.stageIndex));
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i]!;
      if (job.status === 'failed' || job.status === 'canceled') {
        pipeline.retriedJobs.push(job);
        jobs[i] = {
          ...job,
          id: this.data.allocateJobId(pipeline),
          status: 'created',
          createdAt: now,
          queuedAt: null,
          startedAt: null,
          finishedAt: null,
          stepsDone: 0,
          coverage: null,
        };
      } else if (job.status === 'skipped' && job.stageIndex > firstStage) {
        job.status = 'created';
      }
    }
    for (const job of jobs)
      if (job.stageIndex === firstStage && job.status === 'created') activate(job, now);
    pipeline.cancelAtStep = null;
    this.data.settle(pipeline, jobs, false);
    this.touch(pipeline, now);
  }

  /** Deletes a pipeline (doc/api/pipelines.md, "Delete a pipeline"). */
  delete(projectId: number, pipelineId: number): void {
    this.data.delete(this.pipelineOf(projectId, pipelineId));
  }

  /**
   * Adds a trigger job to a pipeline and starts its downstream pipeline in `downstreamProjectId`
   * (doc/ci/pipelines/downstream_pipelines.md); with `strategy: 'depend'` the trigger job, and so
   * the pipeline, take the downstream pipeline's outcome (see bridgeStatusOf).
   */
  addBridge(
    projectId: number,
    pipelineId: number,
    bridge: { name: string; stage: string; downstreamProjectId: number; strategy?: 'depend' },
  ): { bridgeId: number; downstreamPipelineId: number } {
    const pipeline = this.pipelineOf(projectId, pipelineId);
    const downstream = this.start(bridge.downstreamProjectId);
    downstream.source = bridge.downstreamProjectId === projectId ? 'parent_pipeline' : 'pipeline';
    downstream.upstream = { pipelineId };
    const id = this.data.allocateJobId(pipeline);
    pipeline.bridges.push({
      id,
      name: bridge.name,
      stage: bridge.stage,
      createdAt: this.clock.now(),
      downstream: { projectId: bridge.downstreamProjectId, pipelineId: downstream.id },
      ...(bridge.strategy ? { strategy: bridge.strategy } : {}),
    });
    // Waiting on its downstream pipeline: the pipeline runs again until that one finishes.
    if (bridge.strategy === 'depend')
      this.data.settle(pipeline, this.data.materialise(pipeline), false);
    this.touch(pipeline, this.clock.now());
    return { bridgeId: id, downstreamPipelineId: downstream.id };
  }

  /**
   * A pipeline changed at `now`: its `updated_at` moves, and the pipeline that triggered it with
   * `strategy: depend` is settled again (its trigger job follows this one), up the chain.
   */
  private touch(pipeline: SimPipeline, now: number): void {
    pipeline.updatedAt = now;
    const parent = pipeline.upstream && this.data.pipelineById.get(pipeline.upstream.pipelineId);
    if (!parent || parent.deleted) return;
    if (
      !parent.bridges.some(
        (b) => b.strategy === 'depend' && b.downstream?.pipelineId === pipeline.id,
      )
    )
      return;
    const before = parent.status;
    this.data.settle(parent, this.data.materialise(parent), false);
    if (parent.status !== before) this.touch(parent, now);
  }

  private pipelineOf(projectId: number, pipelineId: number): SimPipeline {
    const pipeline = this.data.pipelineById.get(pipelineId);
    if (!pipeline || pipeline.projectId !== projectId) {
      throw new Error(`The simulator has no pipeline ${pipelineId} in project ${projectId}`);
    }
    return pipeline;
  }

  private advance(pipeline: SimPipeline, now: number): void {
    const jobs = this.data.materialise(pipeline);
    pipeline.liveSteps++;
    let changed = false;
    if (
      pipeline.cancelAtStep !== null &&
      pipeline.liveSteps >= pipeline.cancelAtStep &&
      pipeline.status !== 'created'
    ) {
      for (const job of jobs) {
        if (!ACTIVE_JOB_STATUSES.has(job.status)) continue;
        job.status = 'canceled';
        job.finishedAt = now;
        if (job.startedAt === null) job.queuedAt = null;
      }
      changed = true;
    } else {
      const current = jobs.find((j) => ACTIVE_JOB_STATUSES.has(j.status));
      if (current) {
        const stage = current.stageIndex;
        for (const job of jobs) {
          if (job.stageIndex !== stage) continue;
          if (job.status === 'created') {
            activate(job, now);
            changed = true;
          } else if (job.status === 'pending') {
            job.status = 'running';
            job.startedAt = now;
            changed = true;
          } else if (job.status === 'running') {
            // A live job runs for its planned duration, drawn as the seeded history's jobs are
            // (plan.ts), so today's durations keep each job's own distribution; the steps only
            // pace its log.
            const elapsed = now - (job.startedAt ?? now);
            if (elapsed >= job.plannedDurationMs) {
              completeJob(job, job.plannedStatus, now);
              changed = true;
            } else {
              const paced = Math.floor((elapsed / job.plannedDurationMs) * job.steps);
              job.stepsDone = Math.min(job.steps - 1, Math.max(job.stepsDone, paced));
            }
          }
        }
        if (changed) this.afterStage(jobs, stage, now);
      }
    }
    if (changed) {
      this.data.settle(pipeline, jobs, false);
      this.touch(pipeline, now);
    }
  }

  /** When a stage has settled: skip the rest after a failure, else start the next stage(s). */
  private afterStage(jobs: SimJob[], stage: number, now: number): void {
    let index = stage;
    for (;;) {
      const inStage = jobs.filter((j) => j.stageIndex === index);
      if (inStage.some((j) => ACTIVE_JOB_STATUSES.has(j.status))) return;
      if (inStage.some((j) => j.status === 'failed' && !j.allowFailure)) {
        for (const job of jobs) if (job.stageIndex > index) job.status = 'skipped';
        return;
      }
      if (inStage.some((j) => j.status === 'manual' && !j.allowFailure)) return; // blocked
      const next = jobs.find((j) => j.stageIndex > index);
      if (!next) return;
      index = next.stageIndex;
      for (const job of jobs)
        if (job.stageIndex === index && job.status === 'created') activate(job, now);
    }
  }
}

function activate(job: SimJob, now: number): void {
  if (job.manual) {
    job.status = 'manual';
    return;
  }
  job.status = 'pending';
  job.queuedAt = now;
}

function completeJob(job: SimJob, status: 'success' | 'failed', now: number): void {
  job.status = status;
  job.plannedStatus = status;
  if (status === 'success') job.failure = null;
  job.queuedAt ??= now;
  job.startedAt ??= now;
  job.finishedAt = now;
  job.stepsDone = job.steps;
  job.coverage =
    status === 'success' && job.template.coverage
      ? Math.round(rngFor(job.id, 'coverage').float(61, 94) * 100) / 100
      : null;
}
