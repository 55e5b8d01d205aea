// The Rails project's failed RSpec and RuboCop jobs, read by the offline analyser: the failing
// example's file and line, RSpec's own rerun command for one example, RuboCop's offence location.
import { describe, expect, it } from 'vitest';
import { distillLog } from '../../ai/distill/log-distiller.ts';
import { contextFromJob } from '../../ai/job-context.ts';
import { analyseOffline } from '../../ai/offline/report.ts';
import { ManualClock } from '../../platform/clock.ts';
import { Dataset } from '../dataset.ts';
import type { FailureKind } from '../model.ts';
import { Views } from '../views.ts';
import { renderTrace } from './trace.ts';

const clock = new ManualClock(Date.parse('2026-11-28T12:00:00Z'));
// Fourteen projects: the fourteenth named one is the Rails storefront (catalog.ts).
const data = new Dataset(
  { seed: 42, projects: 14, pipelinesPerDay: 6, days: 14, groupPath: 'acme', now: clock.now() },
  clock,
);
const views = new Views(data, () => 'http://127.0.0.1:4100', 0);
const storefront = data.projects.find((p) => p.path === 'storefront')!;

function failedJob(name: string, kind: FailureKind) {
  for (const pipeline of storefront.pipelines) {
    const job = data.jobsOf(pipeline).find((j) => j.name === name && j.failure === kind);
    if (job?.status !== 'failed') continue;
    const log = renderTrace({ seed: 42, project: storefront, pipeline, job });
    const context = contextFromJob(views.job(job, pipeline), storefront.id, storefront.name);
    return { log, analysis: analyseOffline(distillLog(log), context) };
  }
  throw new Error(`the storefront has no failed ${name} job failing with ${kind}`);
}

describe('the Rails storefront’s failed jobs', () => {
  it('rspec: a test failure at the failing example’s line, with RSpec’s one-example rerun', () => {
    const { log, analysis } = failedJob('rspec', 'rspec-failure');
    const frame = /# (\.\/spec\/models\/\w+_spec\.rb:\d+):in `block/.exec(log)![1]!;
    expect(analysis).toContain('**Root cause category:** Test failure.');
    // The expectation that failed (the backtrace's frame) first, then the example's own line
    // (RSpec's rerun line); the advice starts at the expectation.
    const where = /\*\*Where:\*\* (.*)/.exec(analysis)![1]!;
    const rerun = /^rspec (\.\/spec\/models\/\w+_spec\.rb:\d+) # /m.exec(
      log.replaceAll('\x1b[31m', '').replaceAll('\x1b[36m', '').replaceAll('\x1b[0m', ''),
    )![1]!;
    expect(where.startsWith(`\`${frame}\`, \`${rerun}\``)).toBe(true);
    expect(analysis).toContain(`Start at \`${frame}\`.`);
    // RSpec's eq matcher prints the expected value and, under it, what it got: both are quoted.
    // eslint-disable-next-line no-control-regex -- the log's ANSI colours, removed to read the values
    const plain = log.replaceAll(/\x1b\[[\d;]*m/g, '');
    const [, expected, got] = /expected: (.+)\n\s*got: (.+)/.exec(plain)!;
    expect(analysis).toContain(`\nexpected: ${expected}\ngot: ${got}\n`);
    expect(analysis).toMatch(/^rspec \.\/spec\/models\/\w+_spec\.rb:\d+ # .+$/m);
    expect(analysis).toContain('Run only that example: `bundle exec rspec <file>:<line>`');
  });

  it('rubocop: a lint finding at the offence’s file and line', () => {
    const { log, analysis } = failedJob('rubocop', 'lint');
    const offence = /^(app\/models\/\w+\.rb:\d+):\d+: /m.exec(log)![1]!;
    expect(analysis).toContain('**Root cause category:** Compile, type-check or lint error.');
    expect(analysis).toMatch(new RegExp(`\\*\\*Where:\\*\\* \`${offence}:\\d+\``));
  });
});
