import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { ManualClock } from '../platform/clock.ts';
import { AppError } from '../platform/errors.ts';
import { silentLogger } from '../platform/logger.ts';
import { SignatureRecorder, type JobLogSource } from './signature-recorder.ts';
import { signatureReport } from './signature-report.ts';
import { simulatedFailureLog } from './testing/simulated-log.ts';

const TSC =
  "compile_error: src<p>(#): error TS#: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.";
const ERESOLVE = 'dependency_network: npm error code ERESOLVE';

/** Three projects: `build` fails with the same TypeScript error in all three, `deps` once with ERESOLVE. */
function group() {
  const h = new HistoryBuilder().project(1, 'api').project(2, 'web').project(3, 'billing');
  const fail = (projectId: number, minutesAgo: number, name = 'build') =>
    h.pipeline({ projectId, status: 'failed', minutesAgo, jobs: [{ name, status: 'failed' }] });
  fail(1, 300);
  fail(2, 200);
  fail(3, 100);
  fail(1, 50);
  fail(2, 30, 'deps');
  // Still running: not signed until it finished.
  h.pipeline({
    projectId: 3,
    status: 'running',
    minutesAgo: 5,
    jobs: [{ name: 'build', status: 'failed' }],
  });
  // Older than the backfill (7 days): signed only when asked for.
  fail(3, 8 * 24 * 60);
  return h.build();
}

/** Job logs by job id, counting reads; `errors` answer with an error instead. */
function logs(snapshot: ReturnType<typeof group>, errors = new Map<number, Error>()) {
  const reads: number[] = [];
  const source: JobLogSource = {
    async getJobTrace(projectId, jobId) {
      reads.push(jobId);
      const error = errors.get(jobId);
      if (error) throw error;
      const job = [...snapshot.jobs.values()].flat().find((j) => j.jobId === jobId)!;
      const project = snapshot.projects.find((p) => p.id === projectId)!;
      return simulatedFailureLog({
        failure: job.name === 'deps' ? 'npm-eresolve' : 'tsc-error',
        tool: job.name === 'deps' ? 'npm-build' : 'tsc',
        kind: 'node-service',
        projectId,
        projectPath: project.path,
        jobId,
        seed: jobId,
        startedAt: job.startedAt!,
      });
    },
  };
  return { source, reads };
}

function recorder(
  snapshot: ReturnType<typeof group>,
  source: JobLogSource,
  store = HistoryStore.open(':memory:', silentLogger),
  perCycle = 2,
) {
  return new SignatureRecorder({
    history: { snapshot: () => snapshot },
    table: store.signatures,
    logs: source,
    clock: new ManualClock(FIXTURE_NOW),
    logger: silentLogger,
    perCycle,
    retentionDays: 90,
  });
}

describe('SignatureRecorder', () => {
  it('signs the failed jobs of finished pipelines of the last week, newest first, a few per cycle', async () => {
    const snapshot = group();
    const { source, reads } = logs(snapshot);
    const r = recorder(snapshot, source);
    const jobIds = [...snapshot.jobs.values()].flat().map((j) => j.jobId);
    expect(r.pending().map((j) => j.jobId)).toEqual([
      jobIds[4],
      jobIds[3],
      jobIds[2],
      jobIds[1],
      jobIds[0],
    ]);
    expect(await r.cycle()).toBe(2);
    expect(reads).toEqual([jobIds[4], jobIds[3]]);
    expect(await r.cycle()).toBe(2);
    expect(await r.cycle()).toBe(1);
    expect(await r.cycle()).toBe(0);
    expect(reads).toHaveLength(5);
    expect(r.logsRead).toBe(5);
    expect(r.known(jobIds[4]!)?.signature).toBe(ERESOLVE);
    expect(r.known(jobIds[0]!)?.signature).toBe(TSC);
  });

  it('reads requested jobs in the background ahead of the backfill, within the per-cycle budget', async () => {
    const snapshot = group();
    const { source, reads } = logs(snapshot);
    const signed: number[][] = [];
    const r = new SignatureRecorder({
      history: { snapshot: () => snapshot },
      table: HistoryStore.open(':memory:', silentLogger).signatures,
      logs: source,
      clock: new ManualClock(FIXTURE_NOW),
      logger: silentLogger,
      perCycle: 2,
      retentionDays: 90,
      onSigned: (rows) => signed.push(rows.map((row) => row.jobId)),
    });
    const all = [...snapshot.jobs.entries()].flatMap(([pipelineId, jobs]) =>
      jobs.map((j) => ({
        projectId: snapshot.pipelines.find((p) => p.pipelineId === pipelineId)!.projectId,
        pipelineId,
        jobId: j.jobId,
        jobName: j.name,
        failedAt: j.finishedAt ?? j.createdAt,
      })),
    );
    // The oldest (past the week's backfill) and the first two: three asked, two read at once.
    const asked = [all[6]!, all[0]!, all[1]!];
    r.request(asked);
    r.request(asked);
    await r.settled();
    expect(reads).toEqual([all[6]!.jobId, all[0]!.jobId]);
    expect(signed).toEqual([[all[6]!.jobId, all[0]!.jobId]]);
    // The next cycle reads the third asked one first, then the backfill's newest.
    expect(await r.cycle()).toBe(2);
    expect(reads.slice(2)).toEqual([all[1]!.jobId, all[4]!.jobId]);
    expect(signed.at(-1)).toEqual([all[1]!.jobId, all[4]!.jobId]);
    // Asking for known jobs reads nothing.
    r.request(asked);
    await r.settled();
    expect(reads).toHaveLength(4);
  });

  it('reads a log once however many ask at the same time, and keeps signatures across restarts', async () => {
    const snapshot = group();
    const { source, reads } = logs(snapshot);
    const store = HistoryStore.open(':memory:', silentLogger);
    const r = recorder(snapshot, source, store);
    const [job] = r.pending();
    const [a, b] = await Promise.all([r.signatureOf(job!), r.signatureOf(job!)]);
    expect(a).toBe(b);
    expect(reads).toEqual([job!.jobId]);
    // A new recorder on the same database knows it without reading.
    const again = recorder(snapshot, source, store);
    expect(again.known(job!.jobId)?.signature).toBe(ERESOLVE);
    expect(again.pending()).toHaveLength(4);
    expect(reads).toHaveLength(1);
  });

  it('remembers a log that is gone and tries a failed read again, three times at most', async () => {
    const snapshot = group();
    const jobIds = [...snapshot.jobs.values()].flat().map((j) => j.jobId);
    const errors = new Map<number, Error>([
      [jobIds[4]!, new AppError('not_found', 'gone')],
      [jobIds[3]!, new AppError('upstream_unavailable', '503')],
    ]);
    const { source, reads } = logs(snapshot, errors);
    const r = recorder(snapshot, source, undefined, 1);
    await r.cycle();
    expect(r.known(jobIds[4]!)).toMatchObject({ signature: null, sampleLine: null });
    for (let i = 0; i < 3; i++) await r.cycle();
    expect(reads.filter((id) => id === jobIds[3])).toHaveLength(3);
    expect(r.known(jobIds[3]!)).toBeUndefined();
    expect(r.pending().map((j) => j.jobId)).not.toContain(jobIds[3]);
  });
});

describe('signatureReport', () => {
  it('lists each signature with its projects and jobs, the most widespread first', async () => {
    const snapshot = group();
    const { source } = logs(snapshot);
    const r = recorder(snapshot, source, undefined, 10);
    await r.cycle();
    const names = new Map(snapshot.projects.map((p) => [p.id, p.name]));
    const window = {
      since: '7d',
      from: new Date(FIXTURE_NOW - 7 * 86_400_000).toISOString(),
      to: new Date(FIXTURE_NOW).toISOString(),
    };
    const report = signatureReport(r.all(), window, (id) => names.get(id));
    const failedAt = (pipelineIndex: number) => {
      const p = snapshot.pipelines.filter((x) => x.status === 'failed')[pipelineIndex]!;
      const job = snapshot.jobs.get(p.pipelineId)![0]!;
      return { p, job, at: new Date(job.finishedAt!).toISOString() };
    };
    // Pipelines oldest first: [8 days ago (3), 300 (1), 200 (2), 100 (3), 50 (1), 30 (2, deps)].
    const [, a, b, c, d, e] = [0, 1, 2, 3, 4, 5].map(failedAt);
    expect(report.window).toEqual(window);
    expect(report.signatures).toEqual([
      {
        signature: TSC,
        sample_line: expect.stringMatching(/error TS2345: Argument of type/),
        category: 'compile_error',
        occurrences: 4,
        projects: [
          { project_id: 1, project_name: 'api', occurrences: 2 },
          { project_id: 3, project_name: 'billing', occurrences: 1 },
          { project_id: 2, project_name: 'web', occurrences: 1 },
        ],
        first_seen: a!.at,
        last_seen: d!.at,
        jobs: [d, c, b, a].map((x) => ({
          project_id: x!.p.projectId,
          pipeline_id: x!.p.pipelineId,
          job_id: x!.job.jobId,
          job_name: 'build',
          at: x!.at,
        })),
      },
      {
        signature: ERESOLVE,
        sample_line: 'npm error code ERESOLVE',
        category: 'dependency_network',
        occurrences: 1,
        projects: [{ project_id: 2, project_name: 'web', occurrences: 1 }],
        first_seen: e!.at,
        last_seen: e!.at,
        jobs: [
          {
            project_id: 2,
            pipeline_id: e!.p.pipelineId,
            job_id: e!.job.jobId,
            job_name: 'deps',
            at: e!.at,
          },
        ],
      },
    ]);
    // A project no longer watched drops out.
    const without = signatureReport(r.all(), window, (id) =>
      id === 3 ? undefined : names.get(id),
    );
    expect(without.signatures[0]!.projects.map((p) => p.project_id)).toEqual([1, 2]);
  });
});
