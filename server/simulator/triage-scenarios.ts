import type { HealthScenarios } from './health-scenarios.ts';
import { TEST_FAILURE } from './test-reports/catalog.ts';
import { SCENARIO_TEST_INDEXES } from './test-reports/report.ts';
import type { TestScenarios } from './test-reports/scenarios.ts';
import type {
  FailureKind,
  SimJob,
  SimMergeRequest,
  SimPipeline,
  SimProject,
  SimUser,
} from './model.ts';

/**
 * Triage scenarios (issue 27), ground truth for triage tests: open merge requests of the token's
 * user whose latest pipeline fails on a job that is also red on the default branch, on a job that
 * flakes, and on a job that passes on the default branch; two more whose failing job fails on one
 * test only (its JUnit report says so): the test that fails on the default branch, and the test that
 * flaked; one registry outage failing jobs in three projects with the same error; and, in one of
 * them, that error fixed twice by a commit with a known title before it came back.
 */
export interface TriageScenarios {
  /** The user the simulator's first token belongs to (the author of the planted MRs). */
  tokenUserId: number;
  /** Open MRs of the token user, each with its newest (finished, failed) pipeline and failing job. */
  mergeRequests: {
    verdict: 'broken-on-default' | 'flaky' | 'new';
    projectId: number;
    iid: number;
    pipelineId: number;
    jobName: string;
    /** Judged by this failed test of the job's report (the test scenarios'), else by the job. */
    test: string | null;
  }[];
  /** Jobs failing with the registry outage, by project (oldest first in each). */
  registryOutage: { projectId: number; pipelineId: number; jobId: number }[];
  /** The outage on one project's default branch: failed, fixed, failed, fixed, failed again. */
  fixedTwice: {
    projectId: number;
    failedPipelineIds: number[];
    fixPipelineIds: number[];
    commitTitle: string;
  } | null;
}

/** What planting needs of the dataset. */
export interface TriageWorld {
  users: readonly SimUser[];
  materialise(pipeline: SimPipeline): SimJob[];
  settle(pipeline: SimPipeline, jobs: readonly SimJob[], historical: boolean): void;
}

const DAY_MS = 86_400_000;
/** Triage signs failed jobs of the last week: everything planted falls inside it. */
const WINDOW_MS = 6 * DAY_MS;
const FIX_TITLE = 'Pin the base image to registry mirror';

const finished = (p: SimPipeline) =>
  !p.deleted && (p.status === 'success' || p.status === 'failed') && p.finishedAt !== null;

/** Makes `job` (and nothing else) the pipeline's failure: later stages skipped, as GitLab does. */
function failOn(
  world: TriageWorld,
  pipeline: SimPipeline,
  jobName: string,
  kind: FailureKind | null,
) {
  const jobs = world.materialise(pipeline);
  const target = jobs.find((j) => j.name === jobName && j.startedAt !== null);
  if (!target) return null;
  for (const j of jobs) {
    if (j === target) {
      j.status = 'failed';
      j.plannedStatus = 'failed';
      if (kind) j.failure = kind;
      else j.failure ??= 'network';
    } else if (j.stageIndex > target.stageIndex && j.status !== 'manual') {
      j.status = 'skipped';
      j.failure = null;
      j.startedAt = null;
      j.finishedAt = null;
      j.queuedAt = null;
    } else if (j.status === 'failed' && !j.allowFailure) {
      j.status = 'success';
      j.plannedStatus = 'success';
      j.failure = null;
    }
  }
  world.settle(pipeline, jobs, true);
  return target;
}

/**
 * Open MRs of `project` whose latest pipeline finished this week, newest first. The latest is the
 * one triage reads (server/triage/my-merge-requests.ts): a merge-request pipeline, or a branch
 * pipeline at the MR's head commit, whichever came last. With `alone`, only those whose commit no
 * other pipeline built (another pipeline passing the job there would make it a flake).
 */
function openMergeRequests(project: SimProject, now: number, alone = true) {
  const out: { mr: SimMergeRequest; pipeline: SimPipeline }[] = [];
  for (const branch of [...project.gen.branches].reverse()) {
    const mr = project.mergeRequests.get(branch.mrIid);
    const ref = `refs/merge-requests/${branch.mrIid}/head`;
    const newest = project.pipelines.findLast(
      (p) => !p.deleted && (p.ref === ref || (p.ref === branch.name && p.sha === branch.lastSha)),
    );
    if (!mr || !newest || !finished(newest) || newest.createdAt < now - WINDOW_MS) continue;
    if (newest.retriedJobs.length > 0 || branch.lastSha !== newest.sha) continue;
    if (alone && project.pipelines.some((p) => p !== newest && p.sha === newest.sha)) continue;
    out.push({ mr, pipeline: newest });
  }
  return out;
}

/** The first of `mrs` whose pipeline ran `jobName` (it is made to fail there), or null. */
function failFirst(
  world: TriageWorld,
  mrs: { mr: SimMergeRequest; pipeline: SimPipeline }[],
  jobName: (pipeline: SimPipeline) => string | undefined,
  kind: FailureKind | null,
) {
  for (const candidate of mrs) {
    const name = jobName(candidate.pipeline);
    if (name && failOn(world, candidate.pipeline, name, kind))
      return { ...candidate, jobName: name };
  }
  return null;
}

/** Names of the jobs that failed and passed on one commit of `project` in the last 8 days (a margin over triage's week). */
function flakedJobs(world: TriageWorld, project: SimProject, now: number): Set<string> {
  const seen = new Map<string, Set<string>>();
  for (const p of project.pipelines) {
    if (!finished(p) || p.createdAt < now - 8 * DAY_MS) continue;
    for (const j of [...world.materialise(p), ...p.retriedJobs]) {
      if (j.status !== 'failed' && j.status !== 'success') continue;
      const key = `${p.sha} ${j.name}`;
      const statuses = seen.get(key) ?? new Set<string>();
      statuses.add(j.status);
      seen.set(key, statuses);
    }
  }
  const out = new Set<string>();
  for (const [key, statuses] of seen)
    if (statuses.size === 2) out.add(key.slice(key.indexOf(' ') + 1));
  return out;
}

/**
 * Where five consecutive default pipelines F G F G F of the week can be planted, the G ones already
 * green and on a new commit (green again on the failed commit is a flake, not a fix): the index of
 * the newest such run, or -1.
 */
function fixWindowOf(main: readonly SimPipeline[]): number {
  const fix = (i: number) => main[i]!.status === 'success' && main[i]!.sha !== main[i - 1]!.sha;
  let k = main.length - 5;
  while (k >= 0 && !(fix(k + 1) && fix(k + 3))) k--;
  return k;
}

/**
 * Plants the scenarios into committed history (after the health scenarios). The projects of the
 * test-report scenarios (`testProjectIds`) keep their planted failures: the outage passes them by.
 */
export function plantTriageScenarios(
  world: TriageWorld,
  projects: readonly SimProject[],
  health: HealthScenarios,
  tests: TestScenarios,
  now: number,
  testProjectIds: readonly number[] = [],
): TriageScenarios {
  const humans = world.users.filter((u) => !u.bot);
  const me = humans[0]!;
  const out: TriageScenarios = {
    tokenUserId: me.id,
    mergeRequests: [],
    registryOutage: [],
    fixedTwice: null,
  };
  // Only the planted merge requests are the token user's (others go to a colleague).
  for (const p of projects)
    for (const mr of p.mergeRequests.values())
      if (mr.authorId === me.id) mr.authorId = humans[1]!.id;

  const byId = new Map(projects.map((p) => [p.id, p]));
  const defaults = (p: SimProject) =>
    p.pipelines.filter(
      (x) => x.refKind === 'default' && finished(x) && x.createdAt >= now - WINDOW_MS,
    );

  // broken-on-default: a project whose newest default pipeline failed (the broken scenario's first)
  // and that has an open MR to fail the same job.
  const candidates = [
    ...(health.broken ? [byId.get(health.broken.projectId)!] : []),
    ...projects.filter(
      (p) =>
        p.id !== health.broken?.projectId &&
        p.id !== health.flaky?.projectId &&
        p.id !== health.recovered?.projectId &&
        p.id !== health.slowdown?.projectId &&
        defaults(p).at(-1)?.status === 'failed',
    ),
  ];
  for (const broken of candidates) {
    const brokenMain = defaults(broken).at(-1);
    const brokenJob =
      brokenMain && world.materialise(brokenMain).find((j) => j.status === 'failed');
    const brokenMr =
      brokenJob && failFirst(world, openMergeRequests(broken, now), () => brokenJob.name, null);
    if (!brokenJob || !brokenMr) continue;
    brokenMr.mr.authorId = me.id;
    out.mergeRequests.push({
      verdict: 'broken-on-default',
      projectId: broken.id,
      iid: brokenMr.mr.iid,
      pipelineId: brokenMr.pipeline.id,
      jobName: brokenJob.name,
      test: null,
    });
    break;
  }
  // flaky: the flaky job's project; the MR fails that job.
  const flakyProject = health.flaky && byId.get(health.flaky.projectId);
  // One alone on its commit first: another pipeline passing the job there would add a same-commit
  // flake to the retries group health names; when none is, any open MR will do.
  const flakyCandidates = flakyProject
    ? [...openMergeRequests(flakyProject, now), ...openMergeRequests(flakyProject, now, false)]
    : [];
  const flakyMr =
    flakyProject &&
    failFirst(
      world,
      flakyCandidates.filter((c, i) => flakyCandidates.findIndex((x) => x.mr === c.mr) === i),
      () => health.flaky!.jobName,
      'network',
    );
  if (flakyProject && flakyMr) {
    flakyMr.mr.authorId = me.id;
    out.mergeRequests.push({
      verdict: 'flaky',
      projectId: flakyProject.id,
      iid: flakyMr.mr.iid,
      pipelineId: flakyMr.pipeline.id,
      jobName: health.flaky!.jobName,
      test: null,
    });
  }
  // new: the recovered project (green at the end), else another quiet one; the MR fails a job its
  // last default run passed and that did not flake in the project this week (that would read as a
  // flake, not as new).
  const spoken = new Set([
    ...out.mergeRequests.map((m) => m.projectId),
    health.broken?.projectId,
    health.flaky?.projectId,
    health.slowdown?.projectId,
  ]);
  const newCandidates = [
    ...(health.recovered ? [byId.get(health.recovered.projectId)!] : []),
    ...projects.filter(
      (p) => !spoken.has(p.id) && p.id !== health.recovered?.projectId && !p.archived,
    ),
  ];
  for (const project of newCandidates) {
    const main = defaults(project).at(-1);
    if (!main) continue;
    const flaked = flakedJobs(world, project, now);
    const passed = new Set(
      world
        .materialise(main)
        .filter((j) => j.status === 'success' && !j.allowFailure && !flaked.has(j.name))
        .map((j) => j.name),
    );
    const newMr = failFirst(
      world,
      openMergeRequests(project, now),
      (pipeline) =>
        world.materialise(pipeline).find((m) => passed.has(m.name) && m.startedAt !== null)?.name,
      'tsc-error',
    );
    if (!newMr) continue;
    newMr.mr.authorId = me.id;
    out.mergeRequests.push({
      verdict: 'new',
      projectId: project.id,
      iid: newMr.mr.iid,
      pipelineId: newMr.pipeline.id,
      jobName: newMr.jobName,
      test: null,
    });
    break;
  }

  plantTestLevelMergeRequests(world, projects, tests, me, out, now);

  // The registry outage: three other projects; in the first, failed/fixed/failed/fixed/failed.
  const used = new Set([
    tests.failing?.projectId,
    tests.flaky?.projectId,
    ...out.mergeRequests.map((m) => m.projectId),
    health.broken?.projectId,
    health.flaky?.projectId,
    health.recovered?.projectId,
    health.slowdown?.projectId,
    ...testProjectIds,
  ]);
  // The project that can carry the twice-fixed error goes first, so that three projects suffice.
  const others = projects
    .filter((p) => !used.has(p.id) && !p.archived)
    .sort((a, b) => Number(fixWindowOf(defaults(b)) >= 0) - Number(fixWindowOf(defaults(a)) >= 0));
  for (const project of others) {
    if (out.registryOutage.some((o) => o.projectId === project.id)) continue;
    if (new Set(out.registryOutage.map((o) => o.projectId)).size === 3) break;
    const main = defaults(project);
    if (!out.fixedTwice) {
      const k = fixWindowOf(main);
      const w = main.slice(Math.max(0, k), Math.max(0, k) + 5);
      if (k >= 0) {
        const failed: number[] = [];
        for (const p of [w[0]!, w[2]!, w[4]!]) {
          const jobs = world
            .materialise(p)
            .filter((j) => j.startedAt !== null && !j.allowFailure && !j.manual);
          const job = jobs[0] && failOn(world, p, jobs[0].name, 'registry-outage');
          if (!job) break;
          failed.push(p.id);
          out.registryOutage.push({ projectId: project.id, pipelineId: p.id, jobId: job.id });
        }
        if (failed.length === 3) {
          project.commitTitles ??= new Map();
          project.commitTitles.set(w[1]!.sha, FIX_TITLE);
          project.commitTitles.set(w[3]!.sha, FIX_TITLE);
          out.fixedTwice = {
            projectId: project.id,
            failedPipelineIds: failed,
            fixPipelineIds: [w[1]!.id, w[3]!.id],
            commitTitle: FIX_TITLE,
          };
        }
        continue;
      }
    }
    // Elsewhere: an already failed pipeline of the week fails with the outage instead.
    const failedOne = project.pipelines.findLast(
      (p) =>
        finished(p) && p.status === 'failed' && p.createdAt >= now - WINDOW_MS && !p.yamlErrors,
    );
    const job =
      failedOne &&
      world.materialise(failedOne).find((j) => j.status === 'failed' && !j.allowFailure);
    if (failedOne && job && failOn(world, failedOne, job.name, 'registry-outage'))
      out.registryOutage.push({ projectId: project.id, pipelineId: failedOne.id, jobId: job.id });
  }
  return out;
}

/**
 * The test-level verdicts: in the project whose test fails on the default branch, an open MR whose
 * test job fails on that test alone; in the project whose test flaked, one failing on that test.
 * The job fails the way a test runner does (with its JUnit report) and the report's failed test is
 * forced, as the test scenarios force theirs (keyed by the pipeline's creation).
 */
function plantTestLevelMergeRequests(
  world: TriageWorld,
  projects: readonly SimProject[],
  tests: TestScenarios,
  me: SimUser,
  out: TriageScenarios,
  now: number,
): void {
  const plans = [
    {
      verdict: 'broken-on-default' as const,
      test: tests.failing,
      index: SCENARIO_TEST_INDEXES.failing,
    },
    { verdict: 'flaky' as const, test: tests.flaky, index: SCENARIO_TEST_INDEXES.flaky },
  ];
  for (const { verdict, test, index } of plans) {
    const project = test && projects.find((p) => p.id === test.projectId);
    if (!test || !project?.junit) continue;
    // Not an MR already planted, and alone on its commit: a green run of the job there would be a
    // job flake group health would list besides its own scenario's.
    const mrs = openMergeRequests(project, now).filter((c) => c.mr.authorId !== me.id);
    for (const { mr, pipeline } of mrs) {
      const job = world.materialise(pipeline).find((j) => j.name === test.jobName);
      const kind = job && TEST_FAILURE[job.template.tool];
      if (!kind || !failOn(world, pipeline, test.jobName, kind)) continue;
      project.junit.forced.set(pipeline.createdAt, { jobName: test.jobName, testIndex: index });
      mr.authorId = me.id;
      out.mergeRequests.push({
        verdict,
        projectId: project.id,
        iid: mr.iid,
        pipelineId: pipeline.id,
        jobName: test.jobName,
        test: test.name,
      });
      break;
    }
  }
}
