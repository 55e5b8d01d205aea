import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../history/history-store.ts';
import type { HistorySnapshot } from '../history/model.ts';
import { FIXTURE_NOW, HistoryBuilder } from '../history/testing/history-fixtures.ts';
import { ManualClock } from '../platform/clock.ts';
import { silentLogger } from '../platform/logger.ts';
import { SignatureRecorder } from './signature-recorder.ts';
import { simulatedFailureLog } from './testing/simulated-log.ts';
import { TriageService } from './triage-service.ts';

/** `build` fails with one TypeScript error twice on main, fixed each time by a known commit. */
function history() {
  const h = new HistoryBuilder().project(1, 'api');
  const failed = (minutesAgo: number, sha: string) =>
    h.pipeline({
      projectId: 1,
      status: 'failed',
      minutesAgo,
      sha,
      jobs: [{ name: 'build', status: 'failed' }],
    });
  const green = (minutesAgo: number, sha: string, commitTitle: string) =>
    h.pipeline({
      projectId: 1,
      status: 'success',
      minutesAgo,
      sha,
      commitTitle,
      commitAuthor: 'Dana Reyes',
      jobs: [{ name: 'build', status: 'success' }],
    });
  const ids = {
    first: failed(3000, 'a1'),
    firstFix: green(2900, 'b1', 'pin node to 20.11'),
    second: failed(2000, 'c1'),
    secondFix: green(1900, 'd1', 'Narrow the option type again'),
    now: failed(60, 'e1'),
  };
  return { ids, snapshot: h.build() };
}

function service(snapshot: HistorySnapshot, perCycle = 2) {
  const reads: number[] = [];
  const signed: number[][] = [];
  const clock = new ManualClock(FIXTURE_NOW);
  const store = HistoryStore.open(':memory:', silentLogger);
  const jobs = [...snapshot.jobs.values()].flat();
  const recorder = new SignatureRecorder({
    history: { snapshot: () => snapshot },
    table: store.signatures,
    logs: {
      async getJobTrace(projectId, jobId) {
        reads.push(jobId);
        const job = jobs.find((j) => j.jobId === jobId)!;
        return simulatedFailureLog({
          failure: 'tsc-error',
          tool: 'tsc',
          kind: 'node-service',
          projectId,
          projectPath: 'acme/api',
          jobId,
          seed: jobId,
          startedAt: job.startedAt!,
        });
      },
    },
    clock,
    logger: silentLogger,
    perCycle,
    retentionDays: 90,
    onSigned: (rows) => signed.push(rows.map((r) => r.jobId)),
  });
  const triage = new TriageService({
    history: {
      withPast: () => snapshot,
      version: 1,
      loadAll: async () => {},
      watchedProjects: () => [...snapshot.projects],
      jobsOf: (id) => snapshot.jobs.get(id) ?? [],
    },
    recorder,
    clock,
    since: () => '7d',
    mergeRequests: () => undefined,
  });
  return { triage, recorder, reads, jobs, signed };
}

describe('TriageService', () => {
  it('names both earlier fixes of the error once the cycles signed the failures', async () => {
    const { ids, snapshot } = history();
    const { triage, recorder, reads, jobs } = service(snapshot);
    // The cycle signs the two newest failed jobs: the asked one and the second failure.
    await recorder.cycle();
    await recorder.cycle();
    expect(reads).toHaveLength(3);
    const nowJob = jobs.find((j) => j.pipelineId === ids.now)!;
    const fixes = await triage.fixedBefore(1, ids.now, [
      { id: nowJob.jobId, name: 'build', failedAt: nowJob.finishedAt! },
    ]);
    expect(
      fixes.get(nowJob.jobId)!.map((f) => [f.pipeline_id, f.commit_title, f.failed_pipeline_id]),
    ).toEqual([
      [ids.secondFix, 'Narrow the option type again', ids.second],
      [ids.firstFix, 'pin node to 20.11', ids.first],
    ]);
    expect(reads).toHaveLength(3);
    expect(await triage.fixedBeforeInWords(1, ids.now, nowJob.jobId, 'build')).toBe(
      "This error was fixed before by d1 'Narrow the option type again' by Dana Reyes 31 hours ago (pipeline #" +
        `${ids.secondFix}, after the same error in #${ids.second}); and fixed before by b1 'pin node to 20.11' by Dana Reyes 2 days ago (pipeline #${ids.firstFix}, after the same error in #${ids.first}).`,
    );
  });

  it('answers details without the unsigned job, reads its log in the background and announces it', async () => {
    const { ids, snapshot } = history();
    const { triage, recorder, reads, jobs, signed } = service(snapshot);
    await recorder.cycle();
    // The cycle read the two newest failures; the third (the first ever) is still unsigned.
    const first = jobs.find((j) => j.pipelineId === ids.first)!;
    expect(reads).not.toContain(first.jobId);
    expect(signed).toHaveLength(1);
    const asked = [{ id: first.jobId, name: 'build', failedAt: first.finishedAt! }];
    const answer = triage.jobSignatures(1, ids.first, asked);
    // Answered from memory: nothing known yet, its read queued (the cycle left no budget).
    expect(answer.size).toBe(0);
    await recorder.settled();
    expect(reads).toHaveLength(2);
    // The next cycle reads the requested job before the backfill, and announces it alone.
    await recorder.cycle();
    expect(reads.at(-1)).toBe(first.jobId);
    expect(signed.at(-1)).toEqual([first.jobId]);
    expect(triage.jobSignatures(1, ids.first, asked).get(first.jobId)?.signature).toMatch(
      /^compile_error: /,
    );
    expect(await triage.fixedBefore(1, ids.first, asked)).toEqual(new Map([[first.jobId, []]]));
  });

  it('reads a requested job at once while the cycle budget lasts, once however often asked', async () => {
    const { ids, snapshot } = history();
    const { triage, recorder, reads, jobs, signed } = service(snapshot, 4);
    const first = jobs.find((j) => j.pipelineId === ids.first)!;
    const asked = [{ id: first.jobId, name: 'build', failedAt: first.finishedAt! }];
    expect((await triage.fixedBefore(1, ids.first, asked)).get(first.jobId)).toEqual([]);
    triage.jobSignatures(1, ids.first, asked);
    await recorder.settled();
    expect(reads).toEqual([first.jobId]);
    expect(signed).toEqual([[first.jobId]]);
    // The cycle reads the two failures left; the requested one is not read again.
    expect(await recorder.cycle()).toBe(2);
    expect(await triage.fixedBeforeInWords(1, ids.first, first.jobId, 'build')).toBeUndefined();
    expect(reads).toHaveLength(3);
  });
});
