import { describe, expect, it } from 'vitest';
import { parseSince } from './since.ts';
import { summarise } from './summarise.ts';
import { aPipeline, aProject } from './testing/factories.ts';
import type { PipelineRecord } from './model.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function run(pipelines: PipelineRecord[], windowMs = 7 * DAY, projects = [aProject({ id: 1 })]) {
  return summarise(projects, (id) => pipelines.filter((p) => p.projectId === id), NOW, windowMs);
}

describe('summarise', () => {
  it('counts only pipelines created inside the window (created_at >= now - since)', () => {
    const result = run([
      aPipeline({ createdAt: NOW - 7 * DAY }), // exactly on the edge: counted
      aPipeline({ createdAt: NOW - 7 * DAY - 1 }), // a millisecond older: not counted
      aPipeline({ createdAt: NOW - HOUR }),
    ]);
    expect(result.projects[0]!.total_pipelines).toBe(2);
    expect(result.summary.total_pipelines).toBe(2);
  });

  it('counts active statuses as running and others only in the total', () => {
    const statuses = [
      'created',
      'waiting_for_resource',
      'preparing',
      'pending',
      'running',
      'success',
      'success',
      'failed',
      'canceled',
      'skipped',
      'manual',
      'scheduled',
    ];
    const result = run(statuses.map((status) => aPipeline({ status })));
    expect(result.projects[0]).toMatchObject({
      total_pipelines: 12,
      successful: 2,
      failed: 1,
      running: 5,
    });
    expect(result.summary).toMatchObject({
      total_pipelines: 12,
      successful: 2,
      failed: 1,
      running: 5,
    });
  });

  it('computes success rate over finished pipelines with one decimal, 0 when nothing finished', () => {
    const twoOfThree = run([
      aPipeline({ status: 'success' }),
      aPipeline({ status: 'success' }),
      aPipeline({ status: 'failed' }),
      aPipeline({ status: 'canceled' }),
    ]);
    expect(twoOfThree.projects[0]!.success_rate).toBe(66.7);
    expect(twoOfThree.summary.overall_success_rate).toBe(66.7);
    const none = run([aPipeline({ status: 'running' }), aPipeline({ status: 'canceled' })]);
    expect(none.projects[0]!.success_rate).toBe(0);
    expect(none.summary.overall_success_rate).toBe(0);
    expect(run([]).summary.overall_success_rate).toBe(0);
  });

  it('sums durations per project and averages over pipelines that have one, rounded to integers', () => {
    const result = run([
      aPipeline({ duration: 100 }),
      aPipeline({ duration: 51 }),
      aPipeline({ duration: null, status: 'running' }),
    ]);
    expect(result.projects[0]!.total_duration).toBe(151);
    expect(result.summary.average_duration).toBe(76); // 75.5 rounds up
    expect(run([aPipeline({ duration: null })]).summary.average_duration).toBe(0);
  });

  it('averages over all projects, not the mean of project means', () => {
    const projects = [aProject({ id: 1 }), aProject({ id: 2 })];
    const result = run(
      [
        aPipeline({ projectId: 1, duration: 10 }),
        aPipeline({ projectId: 2, duration: 20 }),
        aPipeline({ projectId: 2, duration: 90 }),
      ],
      7 * DAY,
      projects,
    );
    expect(result.summary.average_duration).toBe(40);
  });

  it('lists the 10 newest pipelines newest first with the documented fields', () => {
    const pipelines = Array.from({ length: 12 }, (_, i) =>
      aPipeline({ id: 100 + i, createdAt: NOW - (12 - i) * HOUR }),
    );
    const recent = run(pipelines).projects[0]!.recent_pipelines;
    expect(recent.map((p) => p.pipeline_id)).toEqual([
      111, 110, 109, 108, 107, 106, 105, 104, 103, 102,
    ]);
    expect(Object.keys(recent[0]!).sort()).toEqual(
      [
        'created_at',
        'duration',
        'merge_request',
        'pipeline_id',
        'ref',
        'ref_label',
        'source',
        'status',
        'user',
        'web_url',
      ].sort(),
    );
    expect(recent[0]!.user).toEqual({
      username: 'ada',
      name: 'Ada Lovelace',
      avatar_url: 'https://gitlab.test/ada.png',
    });
    expect(recent[0]!.created_at).toBe(new Date(NOW - HOUR).toISOString());
  });

  it('orders projects by most recent pipeline activity, empty projects last', () => {
    const projects = [
      aProject({ id: 1, name: 'quiet' }),
      aProject({ id: 2, name: 'busy' }),
      aProject({ id: 3, name: 'empty' }),
    ];
    const result = run(
      [
        aPipeline({ projectId: 1, createdAt: NOW - 2 * DAY }),
        aPipeline({
          projectId: 2,
          createdAt: NOW - 3 * DAY,
          updatedAt: new Date(NOW - HOUR).toISOString(),
        }),
      ],
      7 * DAY,
      projects,
    );
    expect(result.projects.map((p) => p.project_name)).toEqual(['busy', 'quiet', 'empty']);
    expect(result.projects[2]).toMatchObject({
      total_pipelines: 0,
      success_rate: 0,
      recent_pipelines: [],
    });
  });

  it('orders projects updated within the same second by name, whichever API gave the times', () => {
    const projects = [aProject({ id: 1, name: 'reviews' }), aProject({ id: 2, name: 'imports' })];
    const at = (ms: string) => [
      aPipeline({ projectId: 1, createdAt: NOW - DAY, updatedAt: `2026-11-21T11:00:00.${ms}Z` }),
      aPipeline({ projectId: 2, createdAt: NOW - DAY, updatedAt: '2026-11-21T11:00:00.200Z' }),
    ];
    const names = (pipelines: PipelineRecord[]) =>
      run(pipelines, 7 * DAY, projects).projects.map((p) => p.project_name);
    // REST's milliseconds (reviews 0.4 s later) and GraphQL's whole seconds (gitlabhq
    // app/graphql/types/time_type.rb, `value.iso8601`) give one order.
    expect(names(at('600'))).toEqual(['imports', 'reviews']);
    expect(names(at('000'))).toEqual(['imports', 'reviews']);
  });

  it('applies a 30m window given by since', () => {
    const result = run(
      [aPipeline({ createdAt: NOW - 29 * 60_000 }), aPipeline({ createdAt: NOW - 31 * 60_000 })],
      parseSince('30m'),
    );
    expect(result.summary.total_pipelines).toBe(1);
  });
});

describe('parseSince', () => {
  it('accepts a positive integer and m/h/d/w', () => {
    expect(parseSince('30m')).toBe(30 * 60_000);
    expect(parseSince('12h')).toBe(12 * HOUR);
    expect(parseSince('7d')).toBe(7 * DAY);
    expect(parseSince('2w')).toBe(14 * DAY);
  });
  it.each(['', '7', 'd', '0d', '-1d', '1.5h', '7D', ' 7d', '7d ', '7days', '1y', '999999w', '07d'])(
    'rejects %j with a clear message',
    (bad) => {
      expect(() => parseSince(bad)).toThrow(
        /use a positive whole number followed by m, h, d or w|longest window/,
      );
    },
  );
});

describe('summarise: numbers the clients render as sent', () => {
  it("gives each project its average duration over the pipelines that have one, like the overall's", () => {
    const result = run([
      aPipeline({ id: 1, createdAt: NOW - HOUR, duration: 300 }),
      aPipeline({ id: 2, createdAt: NOW - 2 * HOUR, duration: 100 }),
      aPipeline({ id: 3, createdAt: NOW - 3 * HOUR, status: 'running', duration: null }),
    ]);
    // Dividing by all three pipelines (the dashboard's old rule) would say 133.
    expect(result.projects[0]!.average_duration).toBe(200);
    expect(result.summary.average_duration).toBe(200);
    expect(run([aPipeline({ duration: null })]).projects[0]!.average_duration).toBe(0);
  });

  it('puts the failing job and commit title on failed recent pipelines once they are known', () => {
    const result = run([
      aPipeline({
        id: 1,
        status: 'failed',
        createdAt: NOW - HOUR,
        failure: { jobId: 77, commitTitle: 'Bump the parser' },
      }),
      aPipeline({ id: 2, status: 'failed', createdAt: NOW - 2 * HOUR }),
      aPipeline({ id: 3, status: 'success', createdAt: NOW - 3 * HOUR }),
    ]);
    const [known, unknown, passed] = result.projects[0]!.recent_pipelines;
    expect(known).toMatchObject({ failing_job_id: 77, commit_title: 'Bump the parser' });
    expect(unknown).not.toHaveProperty('failing_job_id');
    expect(passed).not.toHaveProperty('commit_title');
  });

  it('names the failing job of a failed pipeline (issue 30, item 2)', () => {
    const result = run([
      aPipeline({
        status: 'failed',
        createdAt: NOW - HOUR,
        failure: {
          jobId: 77,
          commitTitle: 'Bump the parser',
          job: { name: 'unit-tests', stage: 'test', failureReason: 'script_failure' },
        },
      }),
      // Warm-start data from before the job was remembered: the id is known, the name is not.
      aPipeline({
        status: 'failed',
        createdAt: NOW - 2 * HOUR,
        failure: { jobId: 78, commitTitle: null },
      }),
    ]);
    const [named, older] = result.projects[0]!.recent_pipelines;
    expect(named).toMatchObject({ failing_job_id: 77, failing_job_name: 'unit-tests' });
    expect(older).toMatchObject({ failing_job_id: 78, failing_job_name: null });
  });

  it('labels merge-request refs `!iid` with the title the lookup knows (issue 30, item 1)', () => {
    const projects = [aProject({ id: 1, webUrl: 'https://gitlab.test/acme/search' })];
    const pipelines = [
      aPipeline({ id: 1, ref: 'refs/merge-requests/406/head', createdAt: NOW - HOUR }),
      aPipeline({ id: 2, ref: 'refs/merge-requests/537/head', createdAt: NOW - 2 * HOUR }),
      aPipeline({ id: 3, ref: 'main', createdAt: NOW - 3 * HOUR }),
    ];
    const result = summarise(
      projects,
      () => pipelines,
      NOW,
      7 * DAY,
      (projectId, iid) =>
        projectId === 1 && iid === 406
          ? { title: 'Fix the search index', webUrl: 'https://gitlab.test/mr/406' }
          : undefined,
    );
    const [titled, untitled, branch] = result.projects[0]!.recent_pipelines;
    expect(titled).toMatchObject({
      ref: 'refs/merge-requests/406/head',
      ref_label: '!406',
      merge_request: {
        iid: 406,
        title: 'Fix the search index',
        web_url: 'https://gitlab.test/mr/406',
      },
    });
    // Not looked up yet: the label and a link to the MR, the title when GitLab answered.
    expect(untitled).toMatchObject({
      ref_label: '!537',
      merge_request: {
        iid: 537,
        title: null,
        web_url: 'https://gitlab.test/acme/search/-/merge_requests/537',
      },
    });
    expect(branch).toMatchObject({ ref_label: 'main', merge_request: null });
  });
});
