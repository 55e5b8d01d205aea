import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { minimalContext, type JobContext } from '../job-context.ts';
import { distilledCase, JOB_AFTER_GREEN_RUN } from '../testing/offline-fixtures.ts';
import { answerOffline } from './follow-up.ts';
import { analyseOffline } from './report.ts';

describe('offline follow-ups on corpus logs', () => {
  it('answers follow-ups by intent, from the log', () => {
    const d = distilledCase('jest-assertion');
    const ask = (question: string) =>
      answerOffline({ question, distilled: d, context: JOB_AFTER_GREEN_RUN, analysis: 'previous' });
    expect(ask('How do I fix this?')).toMatch(/To fix this test failure:\n1\. /);
    expect(ask('Which file is it in?')).toContain('`src/cart/totals.test.ts:43:31`');
    expect(ask('What changed since the last green build?')).toContain('job #8990 in pipeline #290');
    expect(ask('Is this flaky?')).toMatch(/^Probably not/);
    expect(ask('Why did it fail?')).toContain('**test failure**');
    expect(ask('anything about discount?')).toContain('applies the percentage discount before tax');
    expect(ask('anything about kubernetes?')).toMatch(/The log does not mention “kubernetes”/);
  });

  it('calls network failures possibly flaky', () => {
    const answer = answerOffline({
      question: 'Should I just retry?',
      distilled: distilledCase('npm-registry-econnreset'),
      context: undefined,
      analysis: '',
    });
    expect(answer).toMatch(/^Possibly: a dependency or network problem is often transient/);
  });
});

describe('offline follow-ups', () => {
  const log = [
    'Using Docker executor with image node:22-bookworm ...',
    '$ npm ci',
    '$ npm test -- --ci',
    'FAIL src/cart/totals.test.ts',
    '  ● totals › applies the discount',
    '    Expected: 90.45',
    '    Received: 100.5',
    '      at Object.<anonymous> (src/cart/totals.test.ts:43:27)',
    'ERROR: Job failed: exit code 1',
  ].join('\n');
  const distilled = distillLog(log);
  const context: JobContext = {
    ...minimalContext({ projectId: 7, pipelineId: 300, jobId: 9001, jobName: 'test:unit' }),
    ref: 'main',
    commit: { sha: 'b'.repeat(40), shortId: 'bbbbbbbb', title: 'Apply discounts', author: 'Ada' },
    previousSuccess: {
      jobId: 8990,
      pipelineId: 290,
      finishedAt: null,
      durationSec: null,
      commit: { sha: 'a'.repeat(40), shortId: 'aaaaaaaa', title: 'Bump deps', author: 'Lin' },
    },
  };
  const ask = (question: string, c: JobContext | undefined = context) =>
    answerOffline({ question, distilled, context: c, analysis: analyseOffline(distilled, c) });

  it('says how to reproduce it locally: the failing command in the job image', () => {
    const answer = ask('How do I reproduce this locally?');
    expect(answer).toContain('node:22-bookworm');
    expect(answer).toContain("sh -c 'npm test -- --ci'");
    expect(answer).not.toMatch(/To fix this/);
  });

  it('takes the image from the stored job context when the excerpt no longer shows it', () => {
    const excerpt = distillLog(log.split('\n').slice(1).join('\n'));
    expect(excerpt.image).toBeUndefined();
    const answer = answerOffline({
      question: 'how can I run this on my machine? reproduce it',
      distilled: excerpt,
      context: { ...context, image: 'node:22-bookworm' },
      analysis: '',
    });
    expect(answer).toContain('docker run --rm -it -v "$PWD":/src -w /src node:22-bookworm');
  });

  it('names the file from the error', () => {
    expect(ask('Which file?')).toContain('`src/cart/totals.test.ts:43:27`');
  });

  it("answers 'is it flaky' from the job's history", () => {
    const answer = ask('Is this flaky?');
    expect(answer).toMatch(/^Probably not/);
    expect(answer).toContain('job #8990');
    expect(ask('Is this flaky?', { ...context, previousSuccess: null })).toContain(
      'No green run of this job was found',
    );
  });

  it('says plainly when only a configured model can answer', () => {
    expect(ask('Write a patch for the discount function')).toMatch(
      /^Only a configured AI model can answer that/,
    );
    expect(ask('anything about kubernetes?')).toMatch(/Only a configured AI model can answer/);
  });
});
