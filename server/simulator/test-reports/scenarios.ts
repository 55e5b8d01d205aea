import type { ScenarioDraft, ScenarioPlan } from '../health-scenarios.ts';
import type { JobTemplate, SimPipeline, SimProject } from '../model.ts';
import { templatesFor } from '../plan.ts';
import { JUNIT_FORMAT, suiteTests, TEST_FAILURE } from './catalog.ts';
import { DEFAULT_EXPIRE_DAYS, SCENARIO_TEST_INDEXES, suiteNameOf, suiteSize } from './report.ts';

/** A test named as GitLab's report names it. */
export interface ScenarioTest {
  projectId: number;
  jobName: string;
  suite: string;
  classname: string;
  name: string;
  file: string | null;
}

/**
 * Test-level scenarios the dataset carries on purpose (ground truth for the test-report tests):
 * a test failing on the default branch since a known pipeline, a test that failed and then passed
 * on the same commit, and a project whose reports expire after a few days.
 */
export interface TestScenarios {
  /** Fails in every finished default-branch (and tag) pipeline from `sincePipelineId` on. */
  failing: (ScenarioTest & { sincePipelineId: number; pipelineIds: number[] }) | null;
  /** Failed in `failedPipelineIds` and passed in `passedPipelineIds`, on the same commits. */
  flaky: (ScenarioTest & { failedPipelineIds: number[]; passedPipelineIds: number[] }) | null;
  /** Its test jobs' artifacts expire after `expireDays`. */
  expiring: { projectId: number; expireDays: number } | null;
}

/** What `planTestScenarios` decided before pipelines got ids. */
export interface TestScenarioPlan {
  failing: { test: ScenarioTest; streak: ScenarioDraft[] } | null;
  flaky: { test: ScenarioTest; failed: ScenarioDraft[]; passed: ScenarioDraft[] } | null;
  expiring: { projectId: number; expireDays: number } | null;
}

const DAY_MS = 86_400_000;
const WINDOW_MS = 7 * DAY_MS;
const SETTLED_MS = 3 * 3_600_000;
const EXPIRING_DAYS = 3;

function testJob(project: SimProject): JobTemplate | undefined {
  return templatesFor(project, 'default').find(
    (t) =>
      TEST_FAILURE[t.tool] !== undefined &&
      (t.rule ?? 'always') === 'always' &&
      !t.manual &&
      !t.allowFailure,
  );
}

function scenarioTest(project: SimProject, job: JobTemplate, index: number): ScenarioTest {
  const tests = suiteTests(
    JUNIT_FORMAT[job.tool]!,
    project.path,
    job.name,
    suiteSize(project, job.name),
  );
  const test = tests[index]!;
  return {
    projectId: project.id,
    jobName: job.name,
    suite: suiteNameOf(job.name),
    classname: test.classname,
    name: test.name,
    file: test.file,
  };
}

const hasJob = (project: SimProject, d: ScenarioDraft, jobName: string) =>
  templatesFor(project, d.refKind).some((t) => t.name === jobName);

/**
 * Gives every project its JUnit settings and steers drafts (oldest first) of named projects the
 * health scenarios left alone: one default branch whose test starts failing about two days ago
 * (at a push, so no earlier run of that commit passed it), one project whose test fails once and
 * passes in another pipeline of the same commit, and one whose reports expire after three days.
 */
export function planTestScenarios(
  projects: readonly SimProject[],
  drafts: readonly ScenarioDraft[],
  health: ScenarioPlan,
  now: number,
): TestScenarioPlan {
  for (const p of projects) p.junit ??= { expireDays: DEFAULT_EXPIRE_DAYS, forced: new Map() };
  const taken = new Set<SimProject | undefined>([
    health.flaky?.project,
    health.recovered?.project,
    health.broken?.project,
    health.slowdown?.project,
  ]);
  const candidates = projects.filter((p) => !taken.has(p) && testJob(p));
  const plan: TestScenarioPlan = { failing: null, flaky: null, expiring: null };
  const settled = (p: SimProject) =>
    drafts.filter(
      (d) => d.project === p && d.createdAt >= now - WINDOW_MS && d.createdAt <= now - SETTLED_MS,
    );

  const [failingProject, flakyProject, expiringProject] = candidates;
  if (failingProject) {
    const job = testJob(failingProject)!;
    const mine = settled(failingProject).filter((d) => d.refKind === 'default');
    let k = mine.findIndex((d) => d.source === 'push' && d.createdAt >= now - 2 * DAY_MS);
    if (k < 0 || mine.length - k < 2)
      k = mine.findLastIndex((d, i) => d.source === 'push' && mine.length - i >= 2);
    if (k >= 0) {
      const from = mine[k]!.createdAt;
      const streak = drafts.filter(
        (d) =>
          d.project === failingProject &&
          d.createdAt >= from &&
          (d.refKind === 'default' || d.refKind === 'tag') &&
          hasJob(failingProject, d, job.name),
      );
      for (const d of streak) {
        d.outcome = 'failed';
        failingProject.junit!.forced.set(d.createdAt, {
          jobName: job.name,
          testIndex: SCENARIO_TEST_INDEXES.failing,
        });
      }
      plan.failing = {
        test: scenarioTest(failingProject, job, SCENARIO_TEST_INDEXES.failing),
        streak,
      };
    }
  }
  if (flakyProject) {
    const job = testJob(flakyProject)!;
    const bySha = new Map<string, ScenarioDraft[]>();
    for (const d of settled(flakyProject)) {
      if (d.refKind === 'tag' || !hasJob(flakyProject, d, job.name)) continue;
      bySha.set(d.sha, [...(bySha.get(d.sha) ?? []), d]);
    }
    const failed: ScenarioDraft[] = [];
    const passed: ScenarioDraft[] = [];
    for (const group of bySha.values()) {
      if (group.length < 2 || failed.length === 3) continue;
      const [first, ...rest] = group;
      first!.outcome = 'failed';
      flakyProject.junit!.forced.set(first!.createdAt, {
        jobName: job.name,
        testIndex: SCENARIO_TEST_INDEXES.flaky,
      });
      for (const d of rest) d.outcome = 'success';
      failed.push(first!);
      passed.push(...rest);
    }
    if (failed.length > 0)
      plan.flaky = {
        test: scenarioTest(flakyProject, job, SCENARIO_TEST_INDEXES.flaky),
        failed,
        passed,
      };
  }
  if (expiringProject) {
    expiringProject.junit!.expireDays = EXPIRING_DAYS;
    plan.expiring = { projectId: expiringProject.id, expireDays: EXPIRING_DAYS };
  }
  return plan;
}

/** The scenarios with pipeline ids (finished pipelines only: a running one has no report yet). */
export function resolveTestScenarios(
  plan: TestScenarioPlan,
  pipelineOf: (draft: ScenarioDraft) => SimPipeline,
  finished: (pipeline: SimPipeline) => boolean,
): TestScenarios {
  const ids = (drafts: readonly ScenarioDraft[]) =>
    drafts
      .map(pipelineOf)
      .filter(finished)
      .map((p) => p.id);
  return {
    failing: plan.failing && {
      ...plan.failing.test,
      sincePipelineId: pipelineOf(plan.failing.streak[0]!).id,
      pipelineIds: ids(plan.failing.streak),
    },
    flaky: plan.flaky && {
      ...plan.flaky.test,
      failedPipelineIds: ids(plan.flaky.failed),
      passedPipelineIds: ids(plan.flaky.passed),
    },
    expiring: plan.expiring,
  };
}
