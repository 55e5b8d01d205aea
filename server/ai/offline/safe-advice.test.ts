import { describe, expect, it } from 'vitest';
import { distillLog } from '../distill/log-distiller.ts';
import { unsafeAnswers } from '../testing/answer-audit.ts';
import { loadRealLogs } from '../testing/real-logs/index.ts';
import { skipWithoutRealLogs } from '../testing/real-logs/skip-without-corpus.ts';
import { answerOffline } from './follow-up.ts';
import { analyseOffline } from './report.ts';

// The demo's `apply-staging` job (issue 25): reproducing it must not apply to staging.
const TERRAFORM_APPLY = [
  '$ terraform apply -input=false plan.cache',
  '╷',
  '│ Error: Unsupported attribute',
  '│',
  '│   on modules/rds-module/main.tf line 152, in resource "aws_db_subnet_group" "this":',
  '│  152:   vpc_id = aws_vpc.main.idd',
  '│',
  '│ This object has no argument, nested block, or exported attribute named "idd". Did you mean "id"?',
  '╵',
  'ERROR: Job failed: exit code 1',
].join('\n');

describe('safe advice', () => {
  it('never proposes to run a deploy from a laptop', () => {
    const distilled = distillLog(TERRAFORM_APPLY);
    const analysis = analyseOffline(distilled);
    expect(analysis).toContain("don't run it from a laptop");
    expect(analysis).toContain('`terraform show plan.cache`');
    const repro = answerOffline({
      question: 'how do I reproduce this locally?',
      distilled,
      context: undefined,
      analysis,
    });
    expect(repro).toContain('terraform show plan.cache');
    expect(repro).not.toMatch(/terraform apply/);
    expect(unsafeAnswers([{ id: 'apply-staging', text: TERRAFORM_APPLY }])).toEqual([]);
  });

  it('proposes no command that changes remote state for any of the real corpus logs', () => {
    skipWithoutRealLogs();
    const logs = loadRealLogs();
    expect(logs.length).toBeGreaterThanOrEqual(583);
    expect(unsafeAnswers(logs)).toEqual([]);
  }, 120_000);
});
