import { describe, expect, it } from 'vitest';
import type { JobHistoryRecord } from './model.ts';
import { eachAttemptOf, JobListsOverlay, PackedJobLists } from './packed-jobs.ts';

const URL = 'https://gitlab.example/acme/api';
const job = (over: Partial<JobHistoryRecord>): JobHistoryRecord => ({
  projectId: 1,
  pipelineId: 10,
  jobId: 9_000_000_001,
  name: 'test',
  stage: 'test',
  status: 'success',
  retried: false,
  allowFailure: false,
  failureReason: null,
  createdAt: 1_763_726_400_000,
  startedAt: 1_763_726_405_000,
  finishedAt: 1_763_726_525_500,
  duration: 120.5,
  queuedDuration: 4.25,
  webUrl: `${URL}/-/jobs/9000000001`,
  ...over,
});

describe('packed job lists', () => {
  it('names the successful attempts with a duration without building records, packed or not', () => {
    const lists = new PackedJobLists((id) => (id === 1 ? URL : undefined));
    const attempts = [
      job({ name: 'build' }),
      job({ jobId: 9_000_000_002, name: 'test', duration: null }),
      job({ jobId: 9_000_000_003, name: 'lint', status: 'failed' }),
      job({ jobId: 9_000_000_004, name: 'test' }),
    ];
    lists.set(10, attempts);
    // Two projects in one list do not pack: kept as given, answered the same way.
    lists.set(11, [job({ pipelineId: 11, name: 'deploy' }), job({ projectId: 2, name: 'e2e' })]);
    const names = (
      source: { eachSuccessfulRun(id: number, fn: (n: string) => void): void },
      id: number,
    ) => {
      const out: string[] = [];
      source.eachSuccessfulRun(id, (n) => out.push(n));
      return out;
    };
    expect(names(lists, 10)).toEqual(['build', 'test']);
    expect(names(lists, 11)).toEqual(['deploy', 'e2e']);
    expect(names(lists, 12)).toEqual([]);
    const read = new Map([[10, [job({ name: 'read-from-store' })]]]);
    const overlay = new JobListsOverlay(lists, new Map([[10, read]]));
    expect(names(overlay, 10)).toEqual(['read-from-store']);
    expect(names(overlay, 11)).toEqual(['deploy', 'e2e']);
  });

  it('gives back every field as written: nulls, flags, fractions, its own and other URLs', () => {
    const lists = new PackedJobLists((id) => (id === 1 ? URL : undefined));
    const attempts = [
      job({}),
      job({
        jobId: 9_000_000_002,
        status: 'failed',
        retried: true,
        allowFailure: true,
        failureReason: 'script_failure',
        startedAt: null,
        finishedAt: null,
        duration: null,
        queuedDuration: null,
        webUrl: 'https://mirror.example/jobs/2',
      }),
      job({ jobId: 9_000_000_003, webUrl: '' }),
    ];
    lists.set(10, attempts);
    // A URL under the project's is a getter (not an own field): read it like every reader does.
    const plain = (list: readonly JobHistoryRecord[] | undefined) =>
      list?.map((j) => ({ ...j, webUrl: j.webUrl }));
    expect(plain(lists.get(10))).toEqual(attempts);
    expect(JSON.parse(JSON.stringify(lists.get(10)))).toEqual(attempts);
    expect(lists.get(10)).not.toBe(lists.get(10));
    expect(lists.get(11)).toBeUndefined();
    expect([lists.size, lists.has(10), [...lists.keys()]]).toEqual([1, true, [10]]);
    expect([...lists.values()].map(plain)).toEqual([attempts]);
    lists.delete(10);
    expect(lists.size).toBe(0);
  });

  it('shares the words of attempts between lists, each attempt keeping its own', () => {
    const lists = new PackedJobLists(() => URL);
    // Words that a joined key could confuse: a missing failure reason and one spelled like it.
    const a = [
      job({ name: 'test', stage: 'test', status: 'failed', failureReason: null }),
      job({ jobId: 9_000_000_002, status: 'failed', failureReason: '\u0001' }),
    ];
    const b = [job({ pipelineId: 11, jobId: 9_000_000_003, name: 'test\u0000test', stage: '' })];
    lists.set(10, a);
    lists.set(11, b);
    lists.set(
      12,
      a.map((j) => ({ ...j, pipelineId: 12 })),
    );
    const plain = (list: readonly JobHistoryRecord[] | undefined) =>
      list?.map((j) => ({ ...j, webUrl: j.webUrl }));
    expect(plain(lists.get(10))).toEqual(a);
    expect(plain(lists.get(11))).toEqual(b);
    expect(plain(lists.get(12))!.map((j) => j.failureReason)).toEqual([null, '\u0001']);
  });

  it('visits each attempt’s name, status, retry flag and id in any list, building no records', () => {
    const lists = new PackedJobLists(() => URL);
    lists.set(10, [
      job({ name: 'test', status: 'failed', retried: true }),
      job({ jobId: 9_000_000_002, name: 'test' }),
    ]);
    lists.set(11, [job({ pipelineId: 11, name: 'deploy' }), job({ projectId: 2, jobId: 7 })]);
    const seen = (map: ReadonlyMap<number, readonly JobHistoryRecord[]>, id: number) => {
      const out: unknown[] = [];
      const held = eachAttemptOf(map, id, (...attempt) => out.push(attempt));
      return held ? out : null;
    };
    expect(seen(lists, 10)).toEqual([
      ['test', 'failed', true, 9_000_000_001],
      ['test', 'success', false, 9_000_000_002],
    ]);
    expect(seen(lists, 11)).toEqual([
      ['deploy', 'success', false, 9_000_000_001],
      ['test', 'success', false, 7],
    ]);
    expect(seen(lists, 12)).toBeNull();
    const read = new Map([[10, [job({ name: 'from-store', jobId: 5 })]]]);
    const overlay = new JobListsOverlay(lists, new Map([[10, read]]));
    expect(seen(overlay, 10)).toEqual([['from-store', 'success', false, 5]]);
    expect(seen(overlay, 11)).toHaveLength(2);
    expect(seen(new Map([[3, [job({ jobId: 3 })]]]), 3)).toEqual([['test', 'success', false, 3]]);
  });

  it('keeps a list of several projects as given, and an empty one', () => {
    const lists = new PackedJobLists(() => URL);
    const mixed = [job({}), job({ projectId: 2, jobId: 7 })];
    lists.set(10, mixed);
    lists.set(12, []);
    expect(lists.get(10)).toEqual(mixed);
    expect(lists.get(12)).toEqual([]);
  });

  it('lays read attempts over memory’s without copying them', () => {
    const memory = new PackedJobLists(() => URL);
    memory.set(10, [job({})]);
    const read = new Map([[20, [job({ pipelineId: 20, jobId: 5, webUrl: 'x' })]]]);
    const view = new JobListsOverlay(memory, new Map([[20, read]]));
    expect([...view.keys()].sort()).toEqual([10, 20]);
    expect(view.size).toBe(2);
    expect(view.get(20)![0]!.webUrl).toBe('x');
    expect(view.get(10)![0]!.jobId).toBe(9_000_000_001);
    expect(() => view.set()).toThrow(TypeError);
  });
});
