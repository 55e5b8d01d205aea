import type { Clock } from '../platform/clock.ts';
import {
  ARCHIVED_PROJECT,
  NAMED_PROJECTS,
  SIBLING_GROUPS,
  SUBGROUPS,
  USERS,
  generatedProject,
  type ProjectSpec,
} from './catalog.ts';
import { arrivalTimes } from './arrivals.ts';
import { resetJob, rewindToNow } from './job-state.ts';
import type {
  Outcome,
  PriorRun,
  SimGroup,
  SimJob,
  SimPipeline,
  SimProject,
  SimUser,
} from './model.ts';
import { draftPipeline, type PipelineDraft } from './pipeline-draft.ts';
import {
  dependentTriggers,
  jobCountFor,
  pipelineStatusOf,
  pipelineTimesOf,
  planJobs,
  templatesFor,
} from './plan.ts';
import { planScenarios, resolveScenarios, type HealthScenarios } from './health-scenarios.ts';
import {
  planTestScenarios,
  resolveTestScenarios,
  type TestScenarios,
} from './test-reports/scenarios.ts';
import { plantTriageScenarios, type TriageScenarios } from './triage-scenarios.ts';
import type { Rng } from './random.ts';
import { hashSeed, rngFor } from './random.ts';
import { jobsRunBy, laterRunsOf, priorRunsAfter } from './same-commit.ts';

/** What shapes a dataset. */
export interface DatasetOptions {
  seed: number;
  /** Active projects in the top group (the archived one and the sibling groups' come on top). */
  projects: number;
  pipelinesPerDay: number;
  days: number;
  groupPath: string;
  /** The dataset's "now" (ms). */
  now: number;
}

const DAY_MS = 86_400_000;
const GROUP_ID_BASE = 7_401_000;
const PROJECT_ID_BASE = 38_400_100;
const USER_ID_BASE = 1_000;
const PIPELINE_ID_BASE = 1_390_000_000;
const JOB_ID_BASE = 8_010_000_000;
const JOB_CACHE_SIZE = 2_000;

function titleCase(path: string): string {
  return path
    .split(/[-_]/)
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** The whole simulated GitLab instance: users, groups, projects, pipelines and their indexes. */
export class Dataset {
  readonly users: SimUser[] = [];
  readonly userById = new Map<number, SimUser>();
  readonly groups: SimGroup[] = [];
  readonly groupById = new Map<number, SimGroup>();
  readonly groupByPath = new Map<string, SimGroup>();
  readonly projects: SimProject[] = [];
  readonly projectById = new Map<number, SimProject>();
  readonly projectByPath = new Map<string, SimProject>();
  readonly pipelineById = new Map<number, SimPipeline>();
  /** Every pipeline in ascending `firstJobId` (and id) order, for job-id lookups. */
  readonly pipelinesByJobId: SimPipeline[] = [];
  /** Pipelines not yet settled (created/pending/running): what a live step moves. */
  readonly active = new Set<SimPipeline>();
  readonly topGroup: SimGroup;
  /** The health scenarios this dataset carries (ids of the pipelines they concern). */
  scenarios: HealthScenarios = { recovered: null, broken: null, flaky: null, slowdown: null };
  /** The test-report scenarios this dataset carries (server/simulator/test-reports/). */
  testScenarios: TestScenarios = { failing: null, flaky: null, expiring: null };
  /** The triage scenarios this dataset carries (server/simulator/triage-scenarios.ts). */
  triage: TriageScenarios = {
    tokenUserId: 0,
    mergeRequests: [],
    registryOutage: [],
    fixedTwice: null,
  };
  private nextPipelineId = PIPELINE_ID_BASE;
  private nextJobId = JOB_ID_BASE;
  private readonly idRng: Rng;
  private readonly jobCache = new Map<number, SimJob[]>();
  /** Jobs created after their pipeline (retries, bridges): id → pipeline, outside the id ranges. */
  private readonly laterJobs = new Map<number, SimPipeline>();

  constructor(
    readonly options: DatasetOptions,
    private readonly clock: Clock,
  ) {
    const { seed, now } = options;
    this.idRng = rngFor(seed, 'ids');
    const rng = rngFor(seed, 'catalog');

    USERS.forEach((u, i) => {
      const user: SimUser = {
        id: USER_ID_BASE + 1 + i * 3 + (hashSeed(seed, u.username) % 3),
        username: u.username,
        name: u.name,
        email: `${u.username.replace(/_/g, '.')}@acme.example`,
        bot: u.bot ?? false,
        createdAt: now - rng.int(200, 2_000) * DAY_MS,
      };
      this.users.push(user);
      this.userById.set(user.id, user);
    });

    // The top group (and any ancestors when groupPath is nested, e.g. `org/team`).
    const segments = options.groupPath.split('/').filter(Boolean);
    let parent: SimGroup | null = null;
    for (const segment of segments) {
      const isTop = parent === null && segments.length === 1;
      parent = this.addGroup(rng, {
        path: segment,
        parent,
        name: segment === 'acme' && isTop ? 'Acme Corp' : titleCase(segment),
        description: segment === 'acme' ? 'Everything Acme builds and runs.' : '',
        hasAvatar: true,
      });
    }
    if (!parent) throw new Error('groupPath must not be empty');
    this.topGroup = parent;
    for (const spec of SUBGROUPS) {
      const parentPath = spec.path.includes('/')
        ? `${this.topGroup.fullPath}/${spec.path.slice(0, spec.path.lastIndexOf('/'))}`
        : this.topGroup.fullPath;
      this.addGroup(rng, {
        path: spec.path.slice(spec.path.lastIndexOf('/') + 1),
        parent: this.groupByPath.get(parentPath) ?? this.topGroup,
        name: spec.name,
        description: spec.description,
        hasAvatar: false,
      });
    }
    const rootParent = this.groupById.get(this.topGroup.parentId ?? -1) ?? null;
    const siblingProjects: ProjectSpec[] = [];
    for (const sibling of SIBLING_GROUPS) {
      const siblingPath = rootParent ? `${rootParent.fullPath}/${sibling.path}` : sibling.path;
      if (this.groupByPath.has(siblingPath)) continue;
      const g = this.addGroup(rng, {
        path: sibling.path,
        parent: rootParent,
        name: sibling.name,
        description: sibling.description,
        hasAvatar: false,
      });
      this.addGroup(rng, {
        path: sibling.subgroup.path,
        parent: g,
        name: sibling.subgroup.name,
        description: sibling.subgroup.description,
        hasAvatar: false,
      });
      siblingProjects.push({ ...sibling.project, group: `${g.fullPath}/${sibling.project.group}` });
    }

    const specs: ProjectSpec[] = [];
    for (let i = 0; i < options.projects; i++) {
      specs.push(
        i < NAMED_PROJECTS.length
          ? NAMED_PROJECTS[i]!
          : generatedProject(i - NAMED_PROJECTS.length),
      );
    }
    const activity = new Map<SimProject, number>();
    for (const spec of specs) {
      const groupPath = spec.group
        ? `${this.topGroup.fullPath}/${spec.group}`
        : this.topGroup.fullPath;
      const p = this.addProject(rng, spec, groupPath, false);
      activity.set(p, rng.float(0.5, 1.5));
    }
    this.addProject(
      rng,
      ARCHIVED_PROJECT,
      `${this.topGroup.fullPath}/${ARCHIVED_PROJECT.group}`,
      true,
    );
    for (const spec of siblingProjects) {
      const p = this.addProject(rng, spec, spec.group, false);
      activity.set(p, 0.3);
    }

    this.generateHistory(activity);
  }

  private addGroup(
    rng: Rng,
    g: {
      path: string;
      parent: SimGroup | null;
      name: string;
      description: string;
      hasAvatar: boolean;
    },
  ): SimGroup {
    const group: SimGroup = {
      id: GROUP_ID_BASE + this.groups.length * 7 + rng.int(0, 6),
      name: g.name,
      path: g.path,
      fullPath: g.parent ? `${g.parent.fullPath}/${g.path}` : g.path,
      description: g.description,
      parentId: g.parent?.id ?? null,
      hasAvatar: g.hasAvatar,
      createdAt: this.options.now - rng.int(400, 2_500) * DAY_MS,
    };
    this.groups.push(group);
    this.groupById.set(group.id, group);
    this.groupByPath.set(group.fullPath, group);
    return group;
  }

  private addProject(
    rng: Rng,
    spec: ProjectSpec,
    groupPath: string,
    archived: boolean,
  ): SimProject {
    const group = this.groupByPath.get(groupPath);
    if (!group) throw new Error(`no group ${groupPath}`);
    const humans = this.users.filter((u) => !u.bot);
    const contributors = [...humans]
      .sort((a, b) => hashSeed(spec.path, a.id) - hashSeed(spec.path, b.id))
      .slice(0, rng.int(3, 6))
      .map((u) => u.id);
    const id = PROJECT_ID_BASE + this.projects.length * 13 + rng.int(0, 12);
    const project: SimProject = {
      id,
      name: spec.path,
      path: spec.path,
      fullPath: `${group.fullPath}/${spec.path}`,
      description: spec.description,
      group,
      kind: spec.kind,
      defaultBranch: 'main',
      archived,
      createdAt: this.options.now - rng.int(60, 1_600) * DAY_MS,
      contributors,
      maintainerId: contributors[0]!,
      pipelines: [],
      shaIndex: new Map(),
      mergeRequests: new Map(),
      gen: {
        branches: [],
        nextMrIid: rng.int(40, 900),
        minor: rng.int(0, 24),
        patch: rng.int(0, 6),
        lastDefaultSha: rng.hex(40),
        nextIid: rng.int(120, 3_400),
      },
    };
    this.projects.push(project);
    this.projectById.set(id, project);
    this.projectByPath.set(project.fullPath, project);
    return project;
  }

  private generateHistory(activity: Map<SimProject, number>): void {
    const { now, days, pipelinesPerDay, seed } = this.options;
    const start = now - days * DAY_MS;
    const drafts: PipelineDraft[] = [];
    for (const [project, factor] of activity) {
      const rng = rngFor(seed, 'history', project.id);
      for (const createdAt of arrivalTimes(rng, start, now, pipelinesPerDay * factor)) {
        drafts.push(this.draft(project, rng, createdAt, null));
      }
    }
    drafts.sort((a, b) => a.createdAt - b.createdAt || a.project.id - b.project.id);
    const top = this.topProjects().filter((p) => activity.has(p));
    const plan = planScenarios(top, drafts, now);
    const testPlan = planTestScenarios(top, drafts, plan, now);
    for (const [draft, jobs] of laterRunsOf(drafts, (d) =>
      jobsRunBy(templatesFor(d.project, d.refKind), d.outcome),
    ))
      draft.runsLater = jobs;
    const committed = new Map<PipelineDraft, SimPipeline>();
    for (const draft of drafts) committed.set(draft, this.commit(draft, true));
    this.scenarios = resolveScenarios(plan, (d) => committed.get(d as PipelineDraft)!);
    this.testScenarios = resolveTestScenarios(
      testPlan,
      (d) => committed.get(d as PipelineDraft)!,
      (p) => ['success', 'failed', 'canceled', 'skipped'].includes(p.status),
    );
    for (const id of this.scenarios.flaky?.pipelineIds ?? [])
      this.addFlakyRetry(this.pipelineById.get(id)!, this.scenarios.flaky!.jobName);
    const testProjectIds = [this.testScenarios.failing, this.testScenarios.flaky].flatMap((t) =>
      t ? [t.projectId] : [],
    );
    this.triage = plantTriageScenarios(
      this,
      top,
      this.scenarios,
      this.testScenarios,
      now,
      testProjectIds,
    );
  }

  /**
   * Makes `jobName` of a finished pipeline fail once and pass on retry, the way GitLab records a
   * retried job: the failed attempt keeps its id (listed only with include_retried=true) and the
   * passing attempt gets a new, higher id, created when the first one failed.
   */
  private addFlakyRetry(pipeline: SimPipeline, jobName: string): void {
    const jobs = this.materialise(pipeline);
    const index = jobs.findIndex((j) => j.name === jobName && j.status === 'success');
    const passed = jobs[index];
    if (!passed || passed.startedAt === null || passed.finishedAt === null) return;
    const runMs = passed.finishedAt - passed.startedAt;
    const failedAt = passed.startedAt + Math.round(runMs * 0.6);
    pipeline.retriedJobs.push({
      ...passed,
      status: 'failed',
      plannedStatus: 'failed',
      // A failure a retry cures: the network hiccupped.
      failure: 'network',
      finishedAt: failedAt,
      plannedDurationMs: failedAt - passed.startedAt,
      coverage: null,
    });
    jobs[index] = {
      ...passed,
      id: this.allocateJobId(pipeline),
      createdAt: failedAt + 1_000,
      queuedAt: failedAt + 1_000,
      startedAt: failedAt + 6_000,
      finishedAt: failedAt + 6_000 + runMs,
    };
    this.settle(pipeline, jobs, true);
  }

  /** Fresh branch/MR/tag/sha for a new pipeline of `project`, advancing the project's refs. */
  draft(project: SimProject, rng: Rng, createdAt: number, forced: Outcome | null): PipelineDraft {
    return draftPipeline(
      { users: this.users, userById: this.userById, now: this.options.now },
      project,
      rng,
      createdAt,
      forced,
    );
  }

  /**
   * Gives a draft its ids and stores it. Historical pipelines get their planned end state (or,
   * when still in flight at `now`, the state they have at `now`); live ones start as `created`.
   */
  commit(draft: PipelineDraft, historical: boolean): SimPipeline {
    const { project } = draft;
    const jobCount = jobCountFor(project, draft.refKind, draft.outcome === 'skipped');
    const id = this.nextPipelineId + this.idRng.int(1, 40);
    this.nextPipelineId = id;
    const firstJobId = this.nextJobId + this.idRng.int(1, 400);
    this.nextJobId = firstJobId + jobCount;
    const pipeline: SimPipeline = {
      id,
      iid: draft.iid,
      projectId: project.id,
      sha: draft.sha,
      beforeSha: draft.beforeSha,
      ref: draft.ref,
      refKind: draft.refKind,
      branch: draft.branch,
      tag: draft.refKind === 'tag',
      source: draft.source,
      name: draft.name,
      userId: draft.userId,
      seed: draft.seed,
      outcome: draft.outcome,
      status: 'created',
      createdAt: draft.createdAt,
      updatedAt: draft.createdAt,
      startedAt: null,
      finishedAt: null,
      duration: null,
      queuedDuration: null,
      coverage: null,
      firstJobId,
      jobCount,
      jobs: null,
      liveSteps: 0,
      cancelAtStep: null,
      retriedJobs: [],
      bridges: [],
      deleted: false,
    };
    if (draft.runsLater) pipeline.runsLater = draft.runsLater;
    if (draft.rebuild) {
      const before = this.priorRunsOf(project, draft.sha);
      if (before) pipeline.priorRuns = before;
    }
    const jobs = planJobs(project, pipeline);
    if (historical) {
      const now = this.options.now;
      const plannedEnd = Math.max(draft.createdAt, ...jobs.map((j) => j.finishedAt ?? 0));
      if (plannedEnd >= now && jobs.length > 0) {
        rewindToNow(jobs, now);
        pipeline.jobs = jobs;
        if (draft.outcome === 'canceled') pipeline.cancelAtStep = 2 + (draft.seed % 5);
      }
      this.settle(pipeline, jobs, historical);
    } else {
      for (const job of jobs) resetJob(job);
      if (draft.outcome === 'canceled') {
        const total = jobs.reduce((sum, j) => sum + j.steps, 0);
        pipeline.cancelAtStep = 2 + (draft.seed % Math.max(1, Math.floor(total / 2)));
      }
      pipeline.jobs = jobs;
      this.settle(pipeline, jobs, false);
    }
    project.pipelines.push(pipeline);
    if (!project.shaIndex.has(pipeline.sha)) project.shaIndex.set(pipeline.sha, pipeline);
    this.pipelineById.set(pipeline.id, pipeline);
    this.pipelinesByJobId.push(pipeline);
    return pipeline;
  }

  /**
   * What the jobs of the project's pipelines on `sha` did so far (the newest such pipeline's own
   * memory plus its jobs), or undefined when no pipeline built it yet. Pipelines are committed in
   * creation order, so the newest is found a few steps from the end of the list.
   */
  private priorRunsOf(project: SimProject, sha: string): ReadonlyMap<string, PriorRun> | undefined {
    const previous = project.pipelines.findLast((p) => p.sha === sha);
    return previous && priorRunsAfter(previous.priorRuns, this.jobsOf(previous));
  }

  /** Recomputes a pipeline's status and times from its jobs and files it as active or not. */
  settle(pipeline: SimPipeline, jobs: readonly SimJob[], historical: boolean): void {
    // A configuration error fails the pipeline as it is created, before any job exists (gitlabhq
    // lib/gitlab/ci/pipeline/chain/helpers.rb: `error(message, config_error: true)` sets
    // `yaml_errors` and `drop!(:config_error)`).
    const triggers = dependentTriggers(pipeline, (id) => this.pipelineById.get(id)?.status);
    pipeline.status = pipeline.yamlErrors ? 'failed' : pipelineStatusOf([...jobs, ...triggers]);
    const times = pipelineTimesOf(pipeline.createdAt, pipeline.status, jobs);
    pipeline.startedAt = times.startedAt;
    pipeline.finishedAt = times.finishedAt;
    pipeline.duration = times.duration;
    pipeline.queuedDuration = times.queuedDuration;
    pipeline.coverage = times.coverage;
    if (historical) {
      // GitLab touches updated_at a moment after the last transition.
      const updated = times.lastEventAt + (pipeline.seed % 900) + 5;
      pipeline.updatedAt = Math.min(updated, Math.max(this.options.now - 1, times.lastEventAt));
    }
    const active = pipeline.status !== 'manual' && pipeline.finishedAt === null && jobs.length > 0;
    if (active) this.active.add(pipeline);
    else this.active.delete(pipeline);
  }

  /** The current time of the simulated world. */
  now(): number {
    return this.clock.now();
  }

  /** Jobs of a pipeline: its materialised list, or a re-derived plan (cached). */
  jobsOf(pipeline: SimPipeline): SimJob[] {
    if (pipeline.jobs) return pipeline.jobs;
    const cached = this.jobCache.get(pipeline.id);
    if (cached) {
      this.jobCache.delete(pipeline.id);
      this.jobCache.set(pipeline.id, cached);
      return cached;
    }
    const project = this.projectById.get(pipeline.projectId);
    if (!project) return [];
    const jobs = planJobs(project, pipeline);
    this.cacheJobs(pipeline.id, jobs);
    return jobs;
  }

  /** Makes a pipeline's jobs mutable state of their own (for live changes and test helpers). */
  materialise(pipeline: SimPipeline): SimJob[] {
    if (!pipeline.jobs) {
      pipeline.jobs = this.jobsOf(pipeline).map((j) => ({ ...j }));
      this.jobCache.delete(pipeline.id);
    }
    return pipeline.jobs;
  }

  private cacheJobs(pipelineId: number, jobs: SimJob[]): void {
    this.jobCache.set(pipelineId, jobs);
    if (this.jobCache.size > JOB_CACHE_SIZE) {
      const oldest = this.jobCache.keys().next().value;
      if (oldest !== undefined) this.jobCache.delete(oldest);
    }
  }

  /** A fresh job id for a job created after its pipeline (a retry, a bridge). */
  allocateJobId(pipeline: SimPipeline): number {
    const id = this.nextJobId++;
    this.laterJobs.set(id, pipeline);
    return id;
  }

  /** Removes a pipeline as GitLab's delete (or its retention cleanup) does. */
  delete(pipeline: SimPipeline): void {
    pipeline.deleted = true;
    const project = this.projectById.get(pipeline.projectId);
    if (project) {
      project.pipelines = project.pipelines.filter((p) => p !== pipeline);
      if (project.shaIndex.get(pipeline.sha) === pipeline) project.shaIndex.delete(pipeline.sha);
    }
    this.pipelineById.delete(pipeline.id);
    this.active.delete(pipeline);
  }

  /** The pipeline and job for a job id, if any. */
  findJob(jobId: number): { pipeline: SimPipeline; job: SimJob } | null {
    const later = this.laterJobs.get(jobId);
    if (later) {
      const job = [...this.jobsOf(later), ...later.retriedJobs].find((j) => j.id === jobId);
      return job && !later.deleted ? { pipeline: later, job } : null;
    }
    const list = this.pipelinesByJobId;
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.firstJobId <= jobId) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const pipeline = found >= 0 ? list[found] : undefined;
    if (!pipeline || pipeline.deleted || jobId >= pipeline.firstJobId + pipeline.jobCount)
      return null;
    const job =
      [...this.jobsOf(pipeline), ...pipeline.retriedJobs].find((j) => j.id === jobId) ?? null;
    return job ? { pipeline, job } : null;
  }

  /** Active (non-archived) projects in the top group, in creation order. */
  topProjects(): SimProject[] {
    const prefix = `${this.topGroup.fullPath}/`;
    return this.projects.filter((p) => !p.archived && p.fullPath.startsWith(prefix));
  }

  /** Total counts, for the dev entry and the report. */
  counts(): { groups: number; projects: number; pipelines: number; jobs: number; users: number } {
    let jobs = 0;
    for (const p of this.pipelineById.values()) jobs += p.jobCount;
    return {
      groups: this.groups.length,
      projects: this.projects.length,
      pipelines: this.pipelineById.size,
      jobs,
      users: this.users.length,
    };
  }
}
