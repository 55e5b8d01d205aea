import { templatesFor } from './plan.ts';
import type { JobTemplate, Outcome, RefKind, SimPipeline, SimProject } from './model.ts';

/**
 * Health scenarios the dataset carries on purpose, so group health has something true to find and
 * tests can assert each detection exactly: a default branch that broke and was fixed, one that is
 * still broken, a job that fails and passes on retry, and a job that got twice as slow at a known
 * commit. Chosen by position among the named projects, so every seed has them.
 */
export interface HealthScenarios {
  /** Broke (two failed default-branch pipelines) and was fixed by the next one, ~3 days ago. */
  recovered: { projectId: number; breakingPipelineId: number; fixingPipelineId: number } | null;
  /** Its newest two default-branch pipelines failed; the one before passed. */
  broken: { projectId: number; breakingPipelineId: number } | null;
  /** `jobName` failed and passed on retry in exactly these pipelines (one retry each). */
  flaky: { projectId: number; jobName: string; pipelineIds: number[] } | null;
  /** `jobName` takes `factor`× as long from `fromPipelineId` (created at `fromCreatedAt`) on. */
  slowdown: {
    projectId: number;
    jobName: string;
    fromPipelineId: number;
    fromCreatedAt: number;
    factor: number;
  } | null;
}

/** The fields of a pipeline draft the scenarios read and steer. */
export interface ScenarioDraft {
  project: SimProject;
  createdAt: number;
  sha: string;
  refKind: RefKind;
  source: string;
  outcome: Outcome;
}

/** How a project's job is slowed (read by planJobs). */
export interface Slowdown {
  jobName: string;
  fromCreatedAt: number;
  factor: number;
}

const DAY_MS = 86_400_000;
/** The summary's default window: scenarios fall inside it. */
const WINDOW_MS = 7 * DAY_MS;
/** Slow runs after the change: enough for the last-10 median, few enough to stay a regression. */
const SLOW_RUNS = 12;
const SLOW_FACTOR = 2;
/** A pipeline created this long ago has finished (the simulator's pipelines run well under an hour). */
const SETTLED_MS = 3 * 3_600_000;

const onDefaultBranch = (d: ScenarioDraft) => d.refKind === 'default';

function steadyJob(project: SimProject, stage: string): JobTemplate | undefined {
  return templatesFor(project, 'default').find(
    (t) => t.stage === stage && (t.rule ?? 'always') === 'always' && !t.manual && !t.allowFailure,
  );
}

/** What `plan` decided before pipelines got ids; `resolve` turns it into HealthScenarios. */
export interface ScenarioPlan {
  recovered: { project: SimProject; breaking: ScenarioDraft; fixing: ScenarioDraft } | null;
  broken: { project: SimProject; breaking: ScenarioDraft } | null;
  flaky: { project: SimProject; jobName: string; drafts: ScenarioDraft[] } | null;
  slowdown: { project: SimProject; jobName: string; from: ScenarioDraft } | null;
}

/**
 * Steers the drafts (sorted oldest first) of the named projects before they are committed:
 * forced outcomes on default branches, all-green runs where the flaky and slow jobs are measured,
 * and the slowdown registered on its project for planJobs.
 */
export function planScenarios(
  projects: readonly SimProject[],
  drafts: readonly ScenarioDraft[],
  now: number,
): ScenarioPlan {
  const plan: ScenarioPlan = { recovered: null, broken: null, flaky: null, slowdown: null };
  const recent = (p: SimProject) =>
    drafts.filter((d) => d.project === p && d.createdAt >= now - WINDOW_MS + DAY_MS / 2);

  const [flakyProject, recoveredProject, brokenProject, ...rest] = projects;
  if (flakyProject) {
    const job = steadyJob(flakyProject, 'test');
    // Finished by now: group health reads finished pipelines, and a retry still running is none.
    const mine = recent(flakyProject).filter(
      (d) => d.refKind !== 'tag' && d.createdAt <= now - SETTLED_MS,
    );
    if (job && mine.length >= 8) {
      // Every sixth run, each on its own commit: health counts one flake per commit and job, so
      // two retried pipelines of one commit (a web and an API run on an unchanged main) are one.
      const chosen: ScenarioDraft[] = [];
      const shas = new Set<string>();
      for (let i = 3; i < mine.length; i += 6) {
        const draft = mine.slice(i, i + 6).find((d) => !shas.has(d.sha));
        if (!draft) continue;
        chosen.push(draft);
        shas.add(draft.sha);
      }
      // Green otherwise, so the only flakes are these retries: a failed push pipeline and a green
      // merge-request pipeline on the same commit would add a same-commit flake the plan never made.
      // Tag pipelines and the window's edge too (a day past it, for a slow test run).
      for (const d of drafts)
        if (d.project === flakyProject && d.createdAt >= now - WINDOW_MS - DAY_MS)
          d.outcome = 'success';
      plan.flaky = { project: flakyProject, jobName: job.name, drafts: chosen };
    }
  }
  if (recoveredProject) {
    const defaults = recent(recoveredProject).filter(onDefaultBranch);
    // The streak starts in the last three days when enough runs fall there; on a quiet weekend the
    // window's data may hold fewer, and the streak moves back so the dataset always carries it.
    const inLastDays = defaults.findIndex((d) => d.createdAt >= now - 3 * DAY_MS);
    const k =
      inLastDays >= 1 && inLastDays + 2 < defaults.length ? inLastDays : defaults.length - 3;
    if (k >= 1) {
      // Green all along but for this one streak, so its time to fix is the window's only one.
      for (const d of drafts)
        if (d.project === recoveredProject && onDefaultBranch(d)) d.outcome = 'success';
      defaults[k]!.outcome = 'failed';
      defaults[k + 1]!.outcome = 'failed';
      for (const d of defaults.slice(k + 2)) d.outcome = 'success';
      plan.recovered = {
        project: recoveredProject,
        breaking: defaults[k]!,
        fixing: defaults[k + 2]!,
      };
    }
  }
  if (brokenProject) {
    const defaults = recent(brokenProject).filter(onDefaultBranch);
    if (defaults.length >= 3) {
      const n = defaults.length;
      defaults[n - 3]!.outcome = 'success';
      defaults[n - 2]!.outcome = 'failed';
      defaults[n - 1]!.outcome = 'failed';
      plan.broken = { project: brokenProject, breaking: defaults[n - 2]! };
    }
  }
  // The busiest remaining project, so the window holds a baseline and the slow runs.
  const candidates = rest
    .map((p) => ({ p, mine: recent(p).filter((d) => d.refKind !== 'tag') }))
    .filter(({ p, mine }) => mine.length >= SLOW_RUNS + 15 && steadyJob(p, 'build'))
    .sort((a, b) => b.mine.length - a.mine.length);
  const slow = candidates[0];
  if (slow) {
    for (const d of slow.mine) d.outcome = 'success';
    const from = slow.mine[slow.mine.length - SLOW_RUNS]!;
    const jobName = steadyJob(slow.p, 'build')!.name;
    slow.p.slowdown = { jobName, fromCreatedAt: from.createdAt, factor: SLOW_FACTOR };
    plan.slowdown = { project: slow.p, jobName, from };
  }
  return plan;
}

/** The scenarios with pipeline ids, once the drafts were committed (`pipelineOf` maps a draft). */
export function resolveScenarios(
  plan: ScenarioPlan,
  pipelineOf: (draft: ScenarioDraft) => SimPipeline,
): HealthScenarios {
  return {
    recovered: plan.recovered && {
      projectId: plan.recovered.project.id,
      breakingPipelineId: pipelineOf(plan.recovered.breaking).id,
      fixingPipelineId: pipelineOf(plan.recovered.fixing).id,
    },
    broken: plan.broken && {
      projectId: plan.broken.project.id,
      breakingPipelineId: pipelineOf(plan.broken.breaking).id,
    },
    flaky: plan.flaky && {
      projectId: plan.flaky.project.id,
      jobName: plan.flaky.jobName,
      pipelineIds: plan.flaky.drafts.map((d) => pipelineOf(d).id),
    },
    slowdown: plan.slowdown && {
      projectId: plan.slowdown.project.id,
      jobName: plan.slowdown.jobName,
      fromPipelineId: pipelineOf(plan.slowdown.from).id,
      fromCreatedAt: plan.slowdown.from.createdAt,
      factor: SLOW_FACTOR,
    },
  };
}
