import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  GitLabJob,
  GitLabPipelineListItem,
  GitLabTestReport,
  GitLabTestReportSummary,
} from '../../gitlab/wire.ts';
import { ManualClock } from '../../platform/clock.ts';
import { Dataset } from '../dataset.ts';
import { startSimulator, type GitLabSimulator } from '../index.ts';

// Shapes follow GitLab: doc/api/pipelines.md "Get a test report for a pipeline" and "Get a test
// report summary for a pipeline" (gitlabhq), the entities app/serializers/test_report_entity.rb,
// test_suite_entity.rb (suite_error and test_cases only with details), test_case_entity.rb
// (status, name, classname, file, execution_time, system_output, stack_trace, recent_failures,
// attachment_url only with an attachment) and test_suite_summary_entity.rb (build_ids). The report
// is built from `Ci::Pipeline#latest_test_report_builds` (`builds.latest.with_artifacts(...)`):
// retried attempts are not in it, nor are expired artifacts; the summary comes from
// `latest_builds_report_results`, kept per job, so it outlives the artifacts.
const NOW = Date.parse('2026-11-25T15:00:00Z');
const DAY = 86_400_000;

let sim: GitLabSimulator;
const get = async <T = GitLabTestReportSummary>(
  path: string,
): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${sim.url}/api/v4/${path}`, { headers: { 'PRIVATE-TOKEN': sim.token } });
  return { status: res.status, body: (await res.json()) as T };
};

beforeAll(async () => {
  sim = await startSimulator({ live: false, clock: new ManualClock(NOW), seed: 42 });
});
afterAll(() => sim.close());

describe('simulated JUnit test reports', () => {
  it('serves the report and its summary in GitLab shapes, failed cases first', async () => {
    const failing = sim.testScenarios.failing!;
    const pipelineId = failing.pipelineIds[0]!;
    const summary = await get(
      `projects/${failing.projectId}/pipelines/${pipelineId}/test_report_summary`,
    );
    const report = await get<GitLabTestReport>(
      `projects/${failing.projectId}/pipelines/${pipelineId}/test_report`,
    );
    expect(summary.status).toBe(200);
    expect(Object.keys(summary.body.total)).toEqual([
      'time',
      'count',
      'success',
      'failed',
      'skipped',
      'error',
      'suite_error',
    ]);
    const suite = summary.body.test_suites.find((s) => s.name === failing.suite)!;
    expect(suite.failed_count).toBe(1);
    expect(suite.error_count).toBe(0);
    expect(suite.success_count + suite.failed_count + suite.skipped_count).toBe(suite.total_count);
    const jobs = (
      await get<GitLabJob[]>(`projects/${failing.projectId}/pipelines/${pipelineId}/jobs`)
    ).body;
    const job = jobs.find((j) => j.name === failing.jobName)!;
    expect(suite.build_ids).toEqual([job.id]);
    expect(job.artifacts).toEqual([
      {
        file_type: 'junit',
        size: expect.any(Number),
        filename: 'junit.xml.gz',
        file_format: 'gzip',
      },
    ]);
    expect(Date.parse(job.artifacts_expire_at!) - Date.parse(job.finished_at!)).toBe(30 * DAY);

    const full = report.body.test_suites.find((s) => s.name === failing.suite)!;
    expect(full.total_count).toBe(suite.total_count);
    const first = full.test_cases[0]!;
    expect(Object.keys(first)).toEqual([
      'status',
      'name',
      'classname',
      'file',
      'execution_time',
      'system_output',
      'stack_trace',
      'recent_failures',
    ]);
    expect(first).toMatchObject({
      status: 'failed',
      name: failing.name,
      classname: failing.classname,
      file: failing.file,
    });
    expect(first.stack_trace).toMatch(/AssertionError: assert \d+ == \d+/);
    expect(full.test_cases.filter((c) => c.status === 'failed')).toHaveLength(1);
  });

  it('empties the report once artifacts expire; the summary stays', async () => {
    const { projectId, expireDays } = sim.testScenarios.expiring!;
    const list = (
      await get<GitLabPipelineListItem[]>(`projects/${projectId}/pipelines?per_page=100`)
    ).body;
    const old = list.find(
      (p) => p.status === 'success' && Date.parse(p.created_at) < NOW - (expireDays + 1) * DAY,
    );
    const recent = list.find(
      (p) => p.status === 'success' && Date.parse(p.created_at) > NOW - (expireDays - 1) * DAY,
    );
    const oldReport = await get<GitLabTestReport>(
      `projects/${projectId}/pipelines/${old!.id}/test_report`,
    );
    expect(oldReport.body).toEqual({
      total_time: 0,
      total_count: 0,
      success_count: 0,
      failed_count: 0,
      skipped_count: 0,
      error_count: 0,
      test_suites: [],
    });
    const oldSummary = await get(`projects/${projectId}/pipelines/${old!.id}/test_report_summary`);
    expect(oldSummary.body.total.count).toBeGreaterThan(20);
    const oldJobs = (await get<GitLabJob[]>(`projects/${projectId}/pipelines/${old!.id}/jobs`))
      .body;
    const tested = oldJobs.find((j) => j.artifacts_expire_at !== null);
    expect(tested!.artifacts).toEqual([]);
    const recentReport = await get<GitLabTestReport>(
      `projects/${projectId}/pipelines/${recent!.id}/test_report`,
    );
    expect(recentReport.body.total_count).toBe(
      (await get(`projects/${projectId}/pipelines/${recent!.id}/test_report_summary`)).body.total
        .count,
    );
  });

  it('reports only the latest attempt after a Retry', async () => {
    const failing = sim.testScenarios.failing!;
    const pipelineId = failing.pipelineIds.at(-1)!;
    const before = await get(
      `projects/${failing.projectId}/pipelines/${pipelineId}/test_report_summary`,
    );
    sim.retryPipeline(failing.projectId, pipelineId);
    sim.finishPipeline(failing.projectId, pipelineId, 'success');
    const after = await get(
      `projects/${failing.projectId}/pipelines/${pipelineId}/test_report_summary`,
    );
    const suiteOf = (body: GitLabTestReportSummary) =>
      body.test_suites.find((s) => s.name === failing.suite)!;
    expect(suiteOf(before.body).failed_count).toBe(1);
    expect(suiteOf(after.body).failed_count).toBe(0);
    expect(suiteOf(after.body).build_ids).not.toEqual(suiteOf(before.body).build_ids);
  });

  it('answers 404 for a pipeline of another project', async () => {
    const failing = sim.testScenarios.failing!;
    const other = sim.projectIds().find((id) => id !== failing.projectId)!;
    const res = await get<unknown>(
      `projects/${other}/pipelines/${failing.pipelineIds[0]}/test_report`,
    );
    expect(res.status).toBe(404);
  });
});

describe('test scenarios at any hour', () => {
  it('are planted over a week of start times, the flaky test on shared commits', () => {
    const missing: string[] = [];
    const start = Date.parse('2026-11-16T00:00:00Z');
    for (let hour = 0; hour < 7 * 24; hour += 7) {
      const now = start + hour * 3_600_000;
      const data = new Dataset(
        { seed: 42, projects: 12, pipelinesPerDay: 6, days: 14, groupPath: 'acme', now },
        new ManualClock(now),
      );
      const { failing, flaky, expiring } = data.testScenarios;
      const at = new Date(now).toISOString();
      if (!failing || failing.pipelineIds.length < 2) missing.push(`failing at ${at}`);
      if (!flaky || flaky.passedPipelineIds.length === 0) missing.push(`flaky at ${at}`);
      if (!expiring) missing.push(`expiring at ${at}`);
      if (flaky) {
        const failedShas = flaky.failedPipelineIds.map((id) => data.pipelineById.get(id)!.sha);
        for (const id of flaky.passedPipelineIds)
          if (!failedShas.includes(data.pipelineById.get(id)!.sha)) missing.push(`sha at ${at}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("writes a failed test job's log naming the tests its report marks failed, in the runner's words", async () => {
    // Each runner's own failure lines (see server/simulator/logs/test-run-text.ts for the sources).
    const header: Record<
      string,
      (c: GitLabTestReport['test_suites'][number]['test_cases'][number]) => string
    > = {
      jest: (c) => `● ${c.classname} › ${c.name.slice(c.classname.length + 1)}`,
      pytest: (c) =>
        `${c.status === 'error' ? 'ERROR' : 'FAILED'}\x1b[0m ${c.file}::${c.classname.split('.').pop()}::${c.name} - `,
      surefire: (c) => `[ERROR] ${c.classname}.${c.name.replace(/\(\)$/, '')} -- Time elapsed: `,
      go: (c) => `--- FAIL: ${c.name} (`,
    };
    const formatOf = (c: { file: string | null; classname: string }) =>
      c.file?.endsWith('.test.ts')
        ? 'jest'
        : c.file?.endsWith('.py')
          ? 'pytest'
          : c.classname.startsWith('com.acme.')
            ? 'surefire'
            : c.classname.startsWith('gitlab.example.com/')
              ? 'go'
              : 'other';
    const seen = new Map<string, number>();
    for (const projectId of sim.projectIds()) {
      const { body: pipelines } = await get<GitLabPipelineListItem[]>(
        `projects/${projectId}/pipelines?status=failed&per_page=20`,
      );
      for (const p of pipelines) {
        const { body: report } = await get<GitLabTestReport>(
          `projects/${projectId}/pipelines/${p.id}/test_report`,
        );
        // The full report's suites name no jobs; the summary's do (build_ids).
        const { body: summary } = await get(
          `projects/${projectId}/pipelines/${p.id}/test_report_summary`,
        );
        for (const suite of report.test_suites) {
          const buildIds = summary.test_suites.find((t) => t.name === suite.name)?.build_ids ?? [];
          const failed = suite.test_cases.filter(
            (c) => c.status === 'failed' || c.status === 'error',
          );
          if (failed.length === 0 || buildIds.length !== 1) continue;
          const format = formatOf(failed[0]!);
          if (!(format in header)) continue;
          const res = await fetch(
            `${sim.url}/api/v4/projects/${projectId}/jobs/${buildIds[0]}/trace`,
            { headers: { 'PRIVATE-TOKEN': sim.token } },
          );
          const log = await res.text();
          for (const c of failed) expect(log, `${format} ${c.name}`).toContain(header[format]!(c));
          // No other failed test: one failure header per failed case.
          const headers = log
            .split('\n')
            .filter((l) =>
              format === 'jest'
                ? l.includes('● ')
                : format === 'pytest'
                  ? l.startsWith('\x1b[31mFAILED\x1b[0m ') || l.startsWith('\x1b[31mERROR\x1b[0m ')
                  : format === 'surefire'
                    ? / -- Time elapsed: .* <<< FAILURE!$/.test(l)
                    : l.startsWith('--- FAIL: '),
            );
          expect(headers.length, `${format} pipeline ${p.id}`).toBe(failed.length);
          seen.set(format, (seen.get(format) ?? 0) + 1);
        }
      }
    }
    expect([...seen.keys()].sort()).toEqual(['go', 'jest', 'pytest', 'surefire']);
  });
});

describe('RSpec reports (the Rails project)', () => {
  // rspec_junit_formatter (sj26/rspec_junit_formatter, lib/rspec_junit_formatter.rb): classname is
  // the spec file without its extension, dots for slashes; name the full description; file the
  // spec file as RSpec names it. RSpec's progress formatter ends a failed run with `Failed
  // examples:` lines `rspec ./spec/…_spec.rb:LINE # full description` (rspec-core,
  // lib/rspec/core/formatters/base_text_formatter.rb).
  it('serves RSpec-shaped cases, and the rspec job log names exactly the failed examples', async () => {
    const rails = await startSimulator({ live: false, clock: new ManualClock(NOW), projects: 14 });
    try {
      const req = async <T>(path: string) =>
        (await (
          await fetch(`${rails.url}/api/v4/${path}`, { headers: { 'PRIVATE-TOKEN': rails.token } })
        ).json()) as T;
      const project = (
        await req<{ id: number; path: string }[]>(
          `groups/${encodeURIComponent(rails.groupPath)}/projects?include_subgroups=true&per_page=100`,
        )
      ).find((p) => p.path === 'storefront')!;
      expect(project).toBeDefined();
      const pipelines = await req<GitLabPipelineListItem[]>(
        `projects/${project.id}/pipelines?status=failed&per_page=100`,
      );
      let checked = 0;
      for (const p of pipelines) {
        const report = await req<GitLabTestReport>(
          `projects/${project.id}/pipelines/${p.id}/test_report`,
        );
        const summary = await req<GitLabTestReportSummary>(
          `projects/${project.id}/pipelines/${p.id}/test_report_summary`,
        );
        const suite = report.test_suites.find((s) => s.name === 'rspec');
        const buildIds = summary.test_suites.find((s) => s.name === 'rspec')?.build_ids ?? [];
        const failed = suite?.test_cases.filter((c) => c.status === 'failed') ?? [];
        if (failed.length === 0 || buildIds.length !== 1) continue;
        for (const c of failed) {
          expect(c.classname).toMatch(/^spec\.models\.\w+_spec$/);
          expect(c.file).toBe(`./${c.classname.replace(/\./g, '/')}.rb`);
          expect(
            c.name.startsWith(
              c.classname
                .split('.')
                .pop()!
                .replace(/_spec$/, '')
                .split('_')
                .map((w) => w[0]!.toUpperCase() + w.slice(1))
                .join(''),
            ),
          ).toBe(true);
          expect(c.stack_trace).toMatch(
            /^expected: \d+\n {5}got: \d+\n\n\(compared using ==\)\n\n\.\/spec\/models\/\w+_spec\.rb:\d+:in `block \(2 levels\) in <top \(required\)>'$/,
          );
        }
        const log = await (
          await fetch(`${rails.url}/api/v4/projects/${project.id}/jobs/${buildIds[0]}/trace`, {
            headers: { 'PRIVATE-TOKEN': rails.token },
          })
        ).text();
        const listed = log
          .split('\n')
          .filter((l) => l.startsWith('\x1b[31mrspec ./spec/'))
          .map((l) => l.slice(l.indexOf('# ') + 2, -'\x1b[0m'.length));
        expect(listed.sort()).toEqual(failed.map((c) => c.name).sort());
        expect(log).toContain(`${suite!.test_cases.length} examples, ${failed.length} failure`);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    } finally {
      await rails.close();
    }
  });
});
