// What the built-in analyser's unit tests share: corpus logs and a job after a green run.
import { distillLog, type DistilledLog } from '../distill/log-distiller.ts';
import { minimalContext, type JobContext } from '../job-context.ts';
import { loadCorpus, type CorpusLog } from './corpus/load-corpus.ts';
import { loadRealLogs } from './real-logs/index.ts';
import { skipWithoutRealLogs } from './real-logs/skip-without-corpus.ts';

/** A development log of the real corpus, or lines [from, to) of it. */
export function realDevLog(id: string, from?: number, to?: number): string {
  skipWithoutRealLogs();
  const log = loadRealLogs('dev').find((l) => l.id === id);
  if (!log) throw new Error(`no development log ${id}`);
  return from === undefined ? log.text : log.text.split('\n').slice(from, to).join('\n');
}

let corpus: CorpusLog[] | undefined;

/** The synthetic corpus log of the named case, distilled. */
export function distilledCase(name: string): DistilledLog {
  corpus ??= loadCorpus();
  const found = corpus.find((c) => c.case.name === name);
  if (!found) throw new Error(`no corpus case ${name}`);
  return distillLog(found.raw);
}

/** A unit-test job at commit bbbbbbbb on `main`, whose last green run built aaaaaaaa. */
export const JOB_AFTER_GREEN_RUN: JobContext = {
  ...minimalContext({
    projectId: 7,
    pipelineId: 300,
    jobId: 9001,
    jobName: 'test:unit',
    stage: 'test',
  }),
  ref: 'main',
  commit: {
    sha: 'b'.repeat(40),
    shortId: 'bbbbbbbb',
    title: 'Apply discounts before tax',
    author: 'Ada',
  },
  previousSuccess: {
    jobId: 8990,
    pipelineId: 290,
    finishedAt: '2026-11-20T10:00:00Z',
    durationSec: 80,
    commit: { sha: 'a'.repeat(40), shortId: 'aaaaaaaa', title: 'Bump deps', author: 'Lin' },
  },
};
