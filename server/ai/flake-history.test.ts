import { describe, expect, it } from 'vitest';
import { distillLog } from './distill/log-distiller.ts';
import { minimalContext } from './job-context.ts';
import { answerOffline } from './offline/follow-up.ts';
import { analyseOffline } from './offline/report.ts';
import { describeJob } from './prompt.ts';

// Group health hands the AI a job's flake history (server/group-health/flaky-jobs.ts flakeHistory).
const log = [
  '$ go test ./...',
  '--- FAIL: TestCheckout (0.52s)',
  '    checkout_test.go:41: dial tcp 10.0.0.7:5432: connect: connection refused',
  'FAIL',
  'ERROR: Job failed: exit code 1',
].join('\n');
const id = { projectId: 1, pipelineId: 2, jobId: 3, jobName: 'go-test', stage: 'test' };

describe('flake history in the analysis', () => {
  it('reaches the prompt, the offline analysis and its flakiness answer', () => {
    const context = {
      ...minimalContext(id, 'api'),
      flakeHistory: 'failed and passed on retry 4 times this week (31 runs)',
    };
    const distilled = distillLog(log, { budgetChars: 4000 });
    expect(describeJob(context, distilled)).toContain(
      '- Flakiness: this job failed and passed on retry 4 times this week (31 runs)',
    );
    expect(analyseOffline(distilled, context)).toContain(
      '**Flaky:** this job failed and passed on retry 4 times this week (31 runs)',
    );
    const answer = answerOffline({
      question: 'Is this flaky?',
      distilled,
      context,
      analysis: '',
    });
    expect(answer).toContain(
      'Group history: this job failed and passed on retry 4 times this week',
    );
  });

  it('says nothing of flakiness when the history has none', () => {
    const context = {
      ...minimalContext(id, 'api'),
      flakeHistory: 'had no flake in 9 runs this week',
    };
    const distilled = distillLog(log, { budgetChars: 4000 });
    expect(analyseOffline(distilled, context)).not.toContain('**Flaky:**');
    expect(describeJob(minimalContext(id, 'api'), distilled)).not.toContain('Flakiness');
  });
});
