// Test-level history against the GitLab simulator, through the composition root. Every number is
// asserted exactly against the scenarios the simulator plants (server/simulator/test-reports/
// scenarios.ts) and against GitLab's own answers. GitLab's shapes: doc/api/pipelines.md "Get a
// test report for a pipeline" / "Get a test report summary for a pipeline" (gitlabhq); the report
// holds the latest builds only (app/models/ci/pipeline.rb `latest_test_report_builds`:
// `builds.latest.with_artifacts(...)`), so a failed attempt is read before its Retry or never — the
// GraphQL `Pipeline.testSuite(buildIds:)` resolver also looks among `pipeline.latest_builds` only
// (app/graphql/resolvers/ci/test_suite_resolver.rb). Jobs list a `junit` artifact until it
// expires (doc/api/jobs.md `artifacts`, `artifacts_expire_at`).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GitLabClient } from '../gitlab/client.ts';
import type { GitLabPipelineListItem } from '../gitlab/wire.ts';
import { ManualClock } from '../platform/clock.ts';
import { graphqlSwitchedOff } from '../simulator/faults.ts';
import { silentLogger } from '../platform/logger.ts';
import { startHarness, type Harness } from '../testing/service-harness.ts';
import type { FailingTestsResponse, FlakyTestsResponse, TestHistoryResponse } from './contract.ts';

const DAY = 86_400_000;
let h: Harness;
let gitlab: GitLabClient;
let startedAt: number;

beforeAll(async () => {
  // One clock for GitLab and the service: the window's edge is the same for both.
  const clock = new ManualClock(Date.parse('2026-11-25T15:00:00Z'));
  startedAt = clock.now();
  h = await startHarness({ simulator: { clock }, edges: { clock } });
  gitlab = new GitLabClient({
    baseUrl: h.simulator.url,
    token: h.simulator.token,
    logger: silentLogger,
  });
}, 120_000);
afterAll(() => h.close());

/** The history keeps pipeline times at whole seconds (the GraphQL list's precision). */
/**
 * The failing test's failures: the default-branch streak, and the merge request pipeline triage's
 * scenarios fail on that same test (server/simulator/triage-scenarios.ts).
 */
function failingTestPipelines(): number[] {
  const s = h.simulator.testScenarios.failing!;
  const mine = h.simulator.triage.mergeRequests
    .filter((m) => m.projectId === s.projectId && m.test === s.name)
    .map((m) => m.pipelineId);
  return [...s.pipelineIds, ...mine];
}

const sec = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();
const finished = (p: GitLabPipelineListItem) =>
  ['success', 'failed', 'canceled', 'skipped'].includes(p.status);

/** Finished pipelines of the project the service read (created in the window) that ran `suite`. */
async function pipelinesRunning(projectId: number, suite: string) {
  const createdFrom = startedAt - 7 * DAY;
  const list = await gitlab.listPipelines(projectId, {
    updatedAfter: new Date(startedAt - 7 * DAY).toISOString(),
  });
  const ran: GitLabPipelineListItem[] = [];
  for (const p of list.filter(finished)) {
    if (Date.parse(p.created_at) < createdFrom) continue;
    const summary = await gitlab.getTestReportSummary(projectId, p.id);
    if (summary.test_suites.some((s) => s.name === suite)) ran.push(p);
  }
  return ran;
}

describe('test reports against the simulator', () => {
  it('reads one summary per pipeline with a report (in bulk over GraphQL), and the full report only where it decides', async () => {
    const recorder = h.service.groupHealth.testReports.recorder;
    const stats = h.simulator.stats.byKind;
    // Summaries come over GraphQL, up to 30 a request: none over REST.
    expect(recorder.requests.summaries).toBe(0);
    expect(stats['test-report-summary'] ?? 0).toBe(0);
    expect(recorder.mode.note).toBeNull();
    expect(stats['test-report']).toBe(recorder.requests.reports);
    // Every finished pipeline of a watched project whose jobs list a junit artifact, once.
    let withReports = 0;
    for (const projectId of h.simulator.projectIds()) {
      const list = await gitlab.listPipelines(projectId, {
        updatedAfter: new Date(startedAt - 7 * DAY).toISOString(),
      });
      // The summary window's pipelines: created in the last 7 days (the poller's list).
      for (const p of list.filter(finished)) {
        if (Date.parse(p.created_at) < startedAt - 7 * DAY) continue;
        const jobs = await gitlab.listPipelineJobs(projectId, p.id, undefined, {
          includeRetried: true,
        });
        if (jobs.some((j) => j.artifacts?.some((a) => a.file_type === 'junit'))) withReports++;
      }
    }
    expect(recorder.requests.summarised).toBe(withReports);
    expect(recorder.requests.summaryQueries).toBeGreaterThanOrEqual(Math.ceil(withReports / 30));
    expect(recorder.requests.summaryQueries).toBeLessThan(withReports / 3);
    expect(recorder.requests.reports).toBeLessThan(withReports);
    expect(recorder.requests.reports).toBeGreaterThan(0);
  });

  it('lists the test failing on the default branch since its breaking pipeline', async () => {
    const s = h.simulator.testScenarios.failing!;
    const since = await gitlab.getPipeline(s.projectId, s.sincePipelineId);
    const failed = await Promise.all(
      failingTestPipelines().map((id) => gitlab.getPipeline(s.projectId, id)),
    );
    const last = failed.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0]!;
    const runs = await pipelinesRunning(s.projectId, s.suite);
    const { status, body } = await h.api(`/api/tests/failing?since=7d&projectId=${s.projectId}`);
    expect(status).toBe(200);
    const res = body as FailingTestsResponse;
    expect(res.window.since).toBe('7d');
    const test = res.tests.find(
      (t) => t.project_id === s.projectId && t.classname === s.classname && t.name === s.name,
    )!;
    const jobs = await gitlab.listPipelineJobs(s.projectId, last.id);
    const job = jobs.find((j) => j.name === s.jobName)!;
    expect(test).toEqual({
      project_id: s.projectId,
      project_name: expect.any(String),
      suite: s.suite,
      classname: s.classname,
      name: s.name,
      file: s.file,
      failures: failingTestPipelines().length,
      runs: runs.length,
      failing_on_default_branch: true,
      first_failure: {
        pipeline_id: since.id,
        sha: since.sha,
        ref: since.ref,
        at: sec(since.created_at),
      },
      last_failure: {
        pipeline_id: last.id,
        job_id: job.id,
        sha: last.sha,
        ref: last.ref,
        at: sec(last.created_at),
        web_url: job.web_url,
      },
      flaky: false,
    });
    // Most failures first.
    const counts = res.tests.map((t) => t.failures);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("adds the report's counts and failed tests to the pipeline details", async () => {
    const s = h.simulator.testScenarios.failing!;
    const pipelineId = s.pipelineIds.at(-1)!;
    const since = await gitlab.getPipeline(s.projectId, s.sincePipelineId);
    const summary = await gitlab.getTestReportSummary(s.projectId, pipelineId);
    const report = await gitlab.getTestReport(s.projectId, pipelineId);
    const gitlabCase = report.test_suites
      .find((x) => x.name === s.suite)!
      .test_cases.find((c) => c.name === s.name)!;
    const { body } = await h.api(`/api/pipelines/${s.projectId}/details/${pipelineId}`);
    expect(body.tests).toEqual({
      total: summary.total.count,
      success: summary.total.success,
      failed: summary.total.failed,
      skipped: summary.total.skipped,
      error: summary.total.error,
    });
    expect(body.tests.failed).toBe(1);
    const jobId = summary.test_suites.find((x) => x.name === s.suite)!.build_ids[0];
    expect(body.failed_tests).toEqual([
      {
        suite: s.suite,
        classname: s.classname,
        name: s.name,
        file: s.file,
        job_id: jobId,
        job_name: s.jobName,
        status: 'failed',
        stack_trace: gitlabCase.stack_trace,
        known_failing_since: sec(since.created_at),
        flaky: false,
      },
    ]);
    // A pipeline without a report (no test job ran tests) says so with null.
    const green = h.simulator.scenarios.slowdown!;
    const plain = await gitlab.listPipelines(green.projectId, { limit: 5 });
    const withoutReport = plain.find((p) => finished(p))!;
    const jobs = await gitlab.listPipelineJobs(green.projectId, withoutReport.id);
    if (!jobs.some((j) => j.artifacts?.some((a) => a.file_type === 'junit'))) {
      const other = await h.api(`/api/pipelines/${green.projectId}/details/${withoutReport.id}`);
      expect(other.body.tests).toBeNull();
      expect(other.body.failed_tests).toEqual([]);
    }
  });

  it('finds the test that failed and passed on the same commit', async () => {
    const s = h.simulator.testScenarios.flaky!;
    const runs = await pipelinesRunning(s.projectId, s.suite);
    const failed = await gitlab.getPipeline(s.projectId, s.failedPipelineIds.at(-1)!);
    const jobs = await gitlab.listPipelineJobs(s.projectId, failed.id);
    const job = jobs.find((j) => j.name === s.jobName)!;
    const { body } = await h.api('/api/health/flaky-tests?since=7d');
    const res = body as FlakyTestsResponse;
    const test = res.tests.find(
      (t) => t.project_id === s.projectId && t.classname === s.classname && t.name === s.name,
    )!;
    const flakes = s.failedPipelineIds.length;
    expect(test).toEqual({
      project_id: s.projectId,
      project_name: expect.any(String),
      suite: s.suite,
      classname: s.classname,
      name: s.name,
      flakes,
      runs: runs.length,
      flake_rate: Math.round((flakes / runs.length) * 1000) / 10,
      last_flake: {
        pipeline_id: failed.id,
        sha: failed.sha,
        at: sec(failed.created_at),
        web_url: job.web_url,
      },
    });
    // The flaky job that test ran in is explained by it.
    const flakyJobs = (await h.api('/api/health/flaky-jobs?since=7d')).body;
    const flakyJob = flakyJobs.jobs.find(
      (j: { job_name: string; projects: { project_id: number }[] }) =>
        j.job_name === s.jobName && j.projects.some((p) => p.project_id === s.projectId),
    );
    expect(flakyJob.flaky_tests).toContain(`${s.classname} ${s.name}`);
    // The consistently failing test never passed on a commit it failed on.
    const failing = h.simulator.testScenarios.failing!;
    expect(
      res.tests.some((t) => t.name === failing.name && t.project_id === failing.projectId),
    ).toBe(false);
  });

  it("answers a test's history newest first, with its rates", async () => {
    const s = h.simulator.testScenarios.failing!;
    const runs = await pipelinesRunning(s.projectId, s.suite);
    const q = new URLSearchParams({
      projectId: String(s.projectId),
      classname: s.classname,
      name: s.name,
    });
    const { status, body } = await h.api(`/api/tests/history?${q}`);
    expect(status).toBe(200);
    const res = body as TestHistoryResponse;
    expect(res.runs).toBe(runs.length);
    const failed = failingTestPipelines();
    expect(res.failures).toBe(failed.length);
    expect(res.flakes).toBe(0);
    expect(res.failure_rate).toBe(Math.round((failed.length / runs.length) * 1000) / 10);
    expect(res.results.map((r) => r.pipeline_id)).toEqual(
      runs.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)).map((p) => p.id),
    );
    // Failed in the streak (and the triage scenario's MR); every other run of its suite did not.
    for (const r of res.results)
      expect([r.pipeline_id, r.status]).toEqual([
        r.pipeline_id,
        failed.includes(r.pipeline_id)
          ? 'failed'
          : // Read in full where it had failed on the same ref: GitLab's `success`.
            expect.stringMatching(/^(success|not_failed)$/),
      ]);
    const unknown = await h.api(`/api/tests/history?projectId=${s.projectId}&classname=x&name=y`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/No failure of test 'x' 'y' is stored/);
    const bad = await h.api(`/api/tests/history?projectId=${s.projectId}&classname=x`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/name/);
  });

  it('tells the offline analysis which tests failed, where, and that they fail on the default branch', async () => {
    const s = h.simulator.testScenarios.failing!;
    const pipelineId = s.pipelineIds.at(-1)!;
    const jobs = await gitlab.listPipelineJobs(s.projectId, pipelineId);
    const job = jobs.find((j) => j.name === s.jobName)!;
    const since = await gitlab.getPipeline(s.projectId, s.sincePipelineId);
    const { status, body } = await h.api('/api/ai/analyse', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: s.projectId, pipelineId, jobId: job.id }),
    });
    expect(status).toBe(200);
    const analysis = body.analysis as string;
    expect(analysis).toContain("**Failed tests** (GitLab's JUnit report, 1):");
    expect(analysis).toContain(`- \`${s.name}\` (${s.classname})`);
    const at = sec(since.created_at).slice(0, 16).replace('T', ' ');
    expect(analysis).toContain(`failing on the default branch since ${at} UTC`);
    expect(analysis).toContain('These tests already fail on the default branch');
  });

  it('keeps both attempts when a failed pipeline is retried and passes', async () => {
    const s = h.simulator.testScenarios.failing!;
    const pipelineId = s.pipelineIds.at(-1)!;
    const before = await gitlab.getPipeline(s.projectId, pipelineId);
    h.simulator.retryPipeline(s.projectId, pipelineId);
    h.simulator.finishPipeline(s.projectId, pipelineId, 'success');
    const recorder = h.service.groupHealth.testReports.recorder;
    const summarised = recorder.requests.summarised;
    const reports = h.simulator.stats.byKind['test-report'];
    await h.service.poller.cycleOnce();
    await h.service.poller.detailsSettled();
    await h.service.groupHealth.idle();
    // Its summary (over GraphQL), and the full report: the test failed on this commit, so its
    // pass decides.
    expect(recorder.requests.summarised - summarised).toBe(1);
    expect(h.simulator.stats.byKind['test-report'] - reports).toBe(1);
    const q = new URLSearchParams({
      projectId: String(s.projectId),
      classname: s.classname,
      name: s.name,
    });
    const history = (await h.api(`/api/tests/history?${q}`)).body as TestHistoryResponse;
    const attempts = history.results.filter((r) => r.pipeline_id === pipelineId);
    expect(attempts.map((r) => [r.status, r.sha])).toEqual([
      ['success', before.sha],
      ['failed', before.sha],
    ]);
    expect(attempts[0]!.job_id).not.toBe(attempts[1]!.job_id);
    expect(history.flakes).toBe(1);
    const flaky = (await h.api('/api/health/flaky-tests?since=7d')).body as FlakyTestsResponse;
    expect(
      flaky.tests.find((t) => t.project_id === s.projectId && t.name === s.name),
    ).toMatchObject({
      flakes: 1,
      last_flake: { pipeline_id: pipelineId, sha: before.sha },
    });
    const failing = (await h.api(`/api/tests/failing?projectId=${s.projectId}`))
      .body as FailingTestsResponse;
    expect(failing.tests.find((t) => t.name === s.name)).toMatchObject({
      failures: failingTestPipelines().length,
      failing_on_default_branch: false,
      flaky: true,
    });
    const details = await h.api(`/api/pipelines/${s.projectId}/details/${pipelineId}`);
    expect(details.body.tests.failed).toBe(0);
    expect(details.body.failed_tests).toEqual([]);
  });

  it("shows a retried pipeline's report without the retried suite while it runs again", async () => {
    // GitLab's report holds the latest builds only (app/models/ci/pipeline.rb
    // `latest_test_report_builds`: `builds.latest`), and its Tests tab shows a running pipeline's
    // reports as they come (gitlab#369944): the retried job's suite is gone until it uploads anew.
    const s = h.simulator.testScenarios.failing!;
    const pipelineId = s.pipelineIds.at(-3)!;
    const before = await h.api(`/api/pipelines/${s.projectId}/details/${pipelineId}`);
    const failed = before.body.failed_tests as { suite: string; name: string }[];
    expect(failed.filter((t) => t.suite === s.suite).map((t) => t.name)).toContain(s.name);
    const summary = await gitlab.getTestReportSummary(s.projectId, pipelineId);
    const suite = summary.test_suites.find((t) => t.name === s.suite)!;
    h.simulator.retryPipeline(s.projectId, pipelineId);
    await h.service.poller.cycleOnce();
    const during = await h.api(`/api/pipelines/${s.projectId}/details/${pipelineId}`);
    expect(during.body.status).toBe('running');
    // Its one suite was the retried job's: nothing of the report is current until it uploads.
    expect(summary.test_suites.map((t) => t.name)).toEqual([s.suite]);
    expect(suite.failed_count).toBe(1);
    expect(during.body.tests).toBeNull();
    expect(during.body.failed_tests).toEqual([]);
    // The failed attempt stays in the test's history.
    const q = new URLSearchParams({
      projectId: String(s.projectId),
      classname: s.classname,
      name: s.name,
    });
    const history = (await h.api(`/api/tests/history?${q}`)).body as TestHistoryResponse;
    expect(
      history.results.filter((r) => r.pipeline_id === pipelineId).map((r) => r.status),
    ).toEqual(['failed']);
  });

  it('reads after a restart the report that was still unread when the service stopped', async () => {
    const s = h.simulator.testScenarios.failing!;
    const pipelineId = s.pipelineIds.at(-2)!;
    const q = new URLSearchParams({
      projectId: String(s.projectId),
      classname: s.classname,
      name: s.name,
    });
    const attemptsOf = async (service: Harness) =>
      ((await service.api(`/api/tests/history?${q}`)).body as TestHistoryResponse).results.filter(
        (r) => r.pipeline_id === pipelineId,
      );
    expect((await attemptsOf(h)).map((r) => r.status)).toEqual(['failed']);
    h.simulator.retryPipeline(s.projectId, pipelineId);
    h.simulator.finishPipeline(s.projectId, pipelineId, 'success');
    // The summary request hangs: the service stops with the jobs stored and the report unread.
    // Faults match paths, not GraphQL bodies: with /api/graphql off (404) the summary goes over
    // REST, where it can hang alone; after the restart GraphQL is back and reads it.
    const graphqlOff = h.simulator.faults.add(graphqlSwitchedOff());
    const hang = h.simulator.faults.add({
      kind: 'delay',
      ms: 30_000,
      match: new RegExp(`/pipelines/${pipelineId}/test_report_summary`),
    });
    const recorder = h.service.groupHealth.testReports.recorder;
    const asked = recorder.requests.summaries;
    const arrived = h.simulator.stats.byKind['test-report-summary'] ?? 0;
    await h.service.poller.cycleOnce();
    await h.service.poller.detailsSettled();
    await vi.waitFor(() => expect(recorder.requests.summaries).toBe(asked + 1), {
      timeout: 10_000,
    });
    // The recorder counts a request as it sends it; wait until the simulator has it too, or the
    // counts below could see this hung request arrive after they were taken.
    // (Counted, not looked up among recent requests: pipeline details read this pipeline's
    // summary over REST in an earlier test.)
    await vi.waitFor(
      () => expect(h.simulator.stats.byKind['test-report-summary']).toBe(arrived + 1),
      { timeout: 10_000 },
    );
    // The service's status says summaries went over REST, and why (the dashboard shows it).
    expect(h.service.poller.status).toMatchObject({
      test_reports_api: 'rest',
      test_reports_api_note: expect.stringMatching(
        /reading test report summaries over REST \(one request per pipeline\) until the service restarts/,
      ),
    });
    hang.remove();
    graphqlOff.remove();
    const summaries = h.simulator.stats.byKind['test-report-summary'] ?? 0;
    const jobLists = h.simulator.stats.byKind['jobs'];
    const oldSummaries = recorder.requests.summaries;
    h = await h.restart();
    expect(recorder.requests.summaries, 'a summary read after the stop').toBe(oldSummaries);
    expect(h.service.poller.status).toMatchObject({
      test_reports_api: 'graphql',
      test_reports_api_note: null,
    });
    // Not its jobs again (stored before the stop): the queue on disk is what brings it back.
    await vi.waitFor(
      async () => expect((await attemptsOf(h)).map((r) => r.status)).toEqual(['success', 'failed']),
      { timeout: 10_000 },
    );
    expect(h.simulator.stats.byKind['jobs'] - jobLists).toBe(0);
    // Read once more, in the background over GraphQL or, when the restarted poller's pipeline
    // details asked first, over REST (CI saw both orders); the simulator agrees with the count.
    const restarted = h.service.groupHealth.testReports.recorder;
    expect(restarted.requests.summarised).toBe(1);
    expect((h.simulator.stats.byKind['test-report-summary'] ?? 0) - summaries).toBe(
      restarted.requests.summaries,
    );
  });

  it('refuses a bad window or project with the error shape', async () => {
    const bad = await h.api('/api/tests/failing?since=yesterday');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['error', 'statusCode', 'timestamp']);
    const unknown = await h.api('/api/tests/failing?projectId=1');
    expect(unknown.status).toBe(404);
  });
});
