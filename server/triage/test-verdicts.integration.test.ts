import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyMergeRequestsResponse } from '../contract.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';
import { agoInWords } from './past-fixes.ts';

// Every verdict of GET /api/triage/mine on the simulator's planted merge requests
// (server/simulator/triage-scenarios.ts), with its evidence sentence checked word for word against
// what GitLab itself answers about the pipelines: the list of a project's pipelines
// (https://docs.gitlab.com/api/pipelines/#list-project-pipelines), their jobs with retried attempts
// (https://docs.gitlab.com/api/jobs/#list-pipeline-jobs, `include_retried`, and `artifacts` naming
// the `junit` report a job uploaded) — and the ground truth of the planted scenarios.
let h: Harness;
let mine: MyMergeRequestsResponse;
beforeAll(async () => {
  h = await startHarness({ simulator: { projects: 12, days: 8 } });
  await h.service.groupHealth.idle();
  await h.service.groupHealth.history.loadAll();
  mine = (await h.api('/api/triage/mine')).body as MyMergeRequestsResponse;
}, 120_000);
afterAll(async () => {
  await h.close();
});

const DAY_MS = 86_400_000;

interface GitLabJobRow {
  name: string;
  status: string;
  retried?: boolean;
  artifacts?: { file_type: string }[];
  commit: { title: string; author_name: string };
}
interface Run {
  id: number;
  sha: string;
  ref: string;
  status: string;
  createdAt: number;
  jobs: GitLabJobRow[];
}

async function gitlab<T>(path: string): Promise<T> {
  const res = await fetch(`${h.simulator.url}/api/v4${path}`, {
    headers: { 'PRIVATE-TOKEN': h.simulator.token },
  });
  return (await res.json()) as T;
}

/** Every pipeline of a project, oldest first, with all its job attempts. */
async function runsOf(projectId: number): Promise<Run[]> {
  const out: Run[] = [];
  for (let page = 1; ; page++) {
    const list = await gitlab<
      { id: number; sha: string; ref: string; status: string; created_at: string }[]
    >(`/projects/${projectId}/pipelines?per_page=100&page=${page}`);
    for (const p of list)
      out.push({
        id: p.id,
        sha: p.sha,
        ref: p.ref,
        status: p.status,
        createdAt: Date.parse(p.created_at),
        jobs: await gitlab(
          `/projects/${projectId}/pipelines/${p.id}/jobs?per_page=100&include_retried=true`,
        ),
      });
    if (list.length < 100) break;
  }
  return out.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}

/** The latest attempt of a job in a run (GitLab lists retried attempts with `retried: true`). */
const latest = (run: Run, name: string) => run.jobs.find((j) => j.name === name && !j.retried);
const finished = (run: Run) => run.status === 'success' || run.status === 'failed';
/** "#id (a1b2c3d4 'title' by author, 3 hours ago)", as the evidence names a pipeline. */
function inWords(run: Run, now: number) {
  const { title, author_name } = run.jobs[0]!.commit;
  return `#${run.id} (${run.sha.slice(0, 8)} '${title}' by ${author_name}, ${agoInWords(now - run.createdAt)})`;
}

function failureOf(projectId: number, iid: number) {
  const mr = mine.merge_requests.find((m) => m.project_id === projectId && m.iid === iid)!;
  expect(mr.failures).toHaveLength(1);
  return { mr, failure: mr.failures[0]! };
}

describe('GET /api/triage/mine on the planted merge requests', () => {
  it('lists the token user as the author of exactly the five planted merge requests, failing first', () => {
    const t = h.simulator.triage;
    expect(mine.user.id).toBe(t.tokenUserId);
    expect(
      mine.merge_requests
        .filter((m) => m.failures.length > 0)
        .map((m) => [
          m.project_id,
          m.iid,
          m.pipeline?.pipeline_id,
          m.failures.map((f) => f.job_name),
        ])
        .sort(),
    ).toEqual(t.mergeRequests.map((m) => [m.projectId, m.iid, m.pipelineId, [m.jobName]]).sort());
    expect(t.mergeRequests.map((m) => `${m.verdict}${m.test ? ' by test' : ''}`)).toEqual([
      'broken-on-default',
      'flaky',
      'new',
      'broken-on-default by test',
      'flaky by test',
    ]);
  });

  it('says a job red on the default branch too fails there since the first run of its streak', async () => {
    const planted = h.simulator.triage.mergeRequests[0]!;
    const { mr, failure } = failureOf(planted.projectId, planted.iid);
    const onMain = (await runsOf(planted.projectId))
      .filter((r) => r.ref === mr.target_branch && finished(r))
      .reverse();
    const ran = onMain.filter((r) => {
      const s = latest(r, planted.jobName)?.status;
      return s === 'success' || s === 'failed';
    });
    const streak = ran.findIndex((r) => latest(r, planted.jobName)!.status === 'success');
    const since = ran[(streak < 0 ? ran.length : streak) - 1]!;
    expect(failure.verdict).toBe('broken-on-default');
    expect(failure.evidence.text).toBe(
      `\`${planted.jobName}\` fails on \`${mr.target_branch}\` too, since ${inWords(since, Date.now())}: not this change's doing`,
    );
    expect(failure.evidence.since?.pipeline_id).toBe(since.id);
  });

  it('says a flaky job failed and passed on retry, counting its runs this week', async () => {
    const planted = h.simulator.triage.mergeRequests[1]!;
    const health = h.simulator.scenarios.flaky!;
    const { failure } = failureOf(planted.projectId, planted.iid);
    const runs = await runsOf(planted.projectId);
    const week = runs.filter(
      (r) => r.createdAt >= Date.now() - 7 * DAY_MS && latest(r, planted.jobName) && finished(r),
    );
    const mrRun = runs.find((r) => r.id === planted.pipelineId)!;
    const sameCommit = runs.some(
      (r) => r !== mrRun && r.sha === mrRun.sha && latest(r, planted.jobName)?.status === 'success',
    );
    const retries = health.pipelineIds.length;
    const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
    const summary = `failed and passed on retry ${times(retries)}${sameCommit ? ', and failed and passed on the same commit once' : ''} this week (${week.length} runs)`;
    expect(failure.verdict).toBe('flaky');
    expect(failure.evidence.text).toBe(
      sameCommit
        ? `\`${planted.jobName}\` failed and passed on this very commit; it ${summary}`
        : `\`${planted.jobName}\` ${summary}`,
    );
  });

  it('says a job passing on the default branch in its latest run is new, naming that run', async () => {
    const planted = h.simulator.triage.mergeRequests[2]!;
    const { mr, failure } = failureOf(planted.projectId, planted.iid);
    const passed = (await runsOf(planted.projectId))
      .filter((r) => r.ref === mr.target_branch && finished(r))
      .reverse()
      .find((r) => ['success', 'failed'].includes(latest(r, planted.jobName)?.status ?? ''))!;
    expect(latest(passed, planted.jobName)!.status).toBe('success');
    expect(failure.verdict).toBe('new');
    expect(failure.evidence.text).toBe(
      `\`${planted.jobName}\` passed on \`${mr.target_branch}\` in ${inWords(passed, Date.now())} and fails here`,
    );
  });

  it('judges a job failing on the test red on the default branch by that test', async () => {
    const planted = h.simulator.triage.mergeRequests[3]!;
    const failing = h.simulator.testScenarios.failing!;
    const { mr, failure } = failureOf(planted.projectId, planted.iid);
    const since = (await runsOf(planted.projectId)).find((r) => r.id === failing.pipelineIds[0])!;
    expect(planted.test).toBe(failing.name);
    expect(failure.verdict).toBe('broken-on-default');
    // The history keeps GitLab's GraphQL times, to the second.
    const sinceAt = new Date(Math.floor(since.createdAt / 1000) * 1000).toISOString();
    expect(failure.evidence.text).toBe(
      `\`${failing.name}\` fails on \`${mr.target_branch}\` too, since ${sinceAt}: not this change's doing`,
    );
  });

  it('judges a job failing on a test that flaked by that test, with its flakes and runs', async () => {
    const planted = h.simulator.triage.mergeRequests[4]!;
    const flaky = h.simulator.testScenarios.flaky!;
    const { failure } = failureOf(planted.projectId, planted.iid);
    // Its runs: every report of the job's suite (a passing run, or one failing on tests) of the
    // finished pipelines the history loaded (the summary's 7 days; a running one's is not final).
    // A canceled pipeline counts: its test job may have finished, and GitLab serves its report.
    const reported = (await runsOf(planted.projectId)).filter(
      (r) =>
        (finished(r) || r.status === 'canceled') &&
        r.createdAt >= Date.now() - 7 * DAY_MS &&
        latest(r, planted.jobName)?.artifacts?.some((a) => a.file_type === 'junit'),
    );
    const flakes = flaky.failedPipelineIds.length;
    expect(planted.test).toBe(flaky.name);
    expect(failure.verdict).toBe('flaky');
    expect(failure.evidence.text).toBe(
      `\`${flaky.name}\` failed and passed on one commit ${flakes} time${flakes === 1 ? '' : 's'} in ${reported.length} runs: a flaky test, not this change`,
    );
    expect(failure.evidence.flakes).toEqual({
      flakes,
      runs: reported.length,
      flake_rate: Math.round((flakes / reported.length) * 1000) / 10,
    });
  });
});
