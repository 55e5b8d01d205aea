import { describe, expect, it } from 'vitest';
import type { GitLabJob, GitLabPipeline } from '../gitlab/wire.ts';
import { distillLog } from './distill/log-distiller.ts';
import type { JobFinding } from './findings.ts';
import { contextFromJob } from './job-context.ts';
import { diagnose } from './offline/diagnosis.ts';
import { groupFindings, pipelineMessages, pipelineOfflineReport } from './pipeline-analysis.ts';
import { loadCorpus } from './testing/corpus/load-corpus.ts';
import { makeJob } from './testing/failed-pipeline-scenario.ts';

const corpus = loadCorpus();
const log = (name: string) => corpus.find((c) => c.case.name === name)!.raw;

function finding(job: GitLabJob, raw: string): JobFinding {
  const distilled = distillLog(raw);
  const context = contextFromJob(job, 7, 'shop-web');
  return { job, context, distilled, diagnosis: diagnose(distilled, context) };
}

const pipeline = { id: 300, ref: 'main', sha: 'b'.repeat(40), source: 'push', status: 'failed' };

// The demo's pipeline (issue 25): visual-regression is allowed to fail and failed first; the
// build's test job is what failed the pipeline.
const visual = makeJob({
  id: 501,
  pipelineId: 300,
  name: 'visual-regression',
  stage: 'test',
  allow_failure: true,
  finished_at: '2026-11-21T11:01:00.000Z',
});
const unit = makeJob({
  id: 502,
  pipelineId: 300,
  name: 'test:unit',
  stage: 'test',
  finished_at: '2026-11-21T11:03:00.000Z',
});
const lint = makeJob({
  id: 500,
  pipelineId: 300,
  name: 'lint',
  stage: 'verify',
  finished_at: '2026-11-21T11:00:30.000Z',
});

describe('pipeline analysis ranks what blocks the pipeline', () => {
  it('puts jobs allowed to fail last and labels them, in the report and the prompt', () => {
    const groups = groupFindings(
      [finding(visual, log('eslint-errors')), finding(unit, log('jest-assertion'))],
      ['build', 'test'],
    );
    expect(groups.map((g) => g.jobs[0]!.job.name)).toEqual(['test:unit', 'visual-regression']);
    const report = pipelineOfflineReport(pipeline as GitLabPipeline, groups, 0);
    expect(report).toMatch(/### 1\. .*`test:unit`.* — this is what failed the pipeline/);
    expect(report).toMatch(
      /### 2\. .*`visual-regression` \(#501, stage `test`, allowed to fail\) — allowed to fail: it does not block the pipeline/,
    );
    const prompt = pipelineMessages(pipeline as GitLabPipeline, 'shop-web', groups)[0]!.content;
    expect(prompt).toMatch(/## Problem 1: .*test:unit.*this is what failed the pipeline/);
    expect(prompt).toMatch(/## Problem 2: .*visual-regression.*allowed to fail/);
    expect(prompt).toContain('jobs allowed to fail (`allow_failure: true`) come last');
  });

  it('puts the earliest failed stage first, then the failure that finished first', () => {
    // lint (stage verify) finished first, but the stage order says test runs before verify.
    const byStage = groupFindings(
      [finding(lint, log('eslint-errors')), finding(unit, log('jest-assertion'))],
      ['test', 'verify'],
    );
    expect(byStage.map((g) => g.jobs[0]!.job.name)).toEqual(['test:unit', 'lint']);
    // Without a stage order, what finished first failed the pipeline first.
    const byTime = groupFindings([
      finding(unit, log('jest-assertion')),
      finding(lint, log('eslint-errors')),
    ]);
    expect(byTime.map((g) => g.jobs[0]!.job.name)).toEqual(['lint', 'test:unit']);
  });

  it('keeps a problem blocking when one of its jobs is not allowed to fail', () => {
    const other = makeJob({
      ...visual,
      pipelineId: 300,
      id: 503,
      name: 'e2e',
      finished_at: unit.finished_at,
    });
    const groups = groupFindings([
      finding(visual, log('jest-assertion')),
      finding(unit, log('jest-assertion')),
      finding(lint, log('eslint-errors')),
      finding(other, log('eslint-errors')),
    ]);
    // The jest group has test:unit, which blocks; both groups block, and lint finished first.
    expect(groups.map((g) => g.jobs.map((j) => j.job.name))).toEqual([
      ['lint', 'e2e'],
      ['visual-regression', 'test:unit'],
    ]);
    const report = pipelineOfflineReport(pipeline as GitLabPipeline, groups, 0);
    expect(report).not.toContain('does not block');
    expect(report).toContain('`e2e` (#503, stage `test`, allowed to fail)');
  });
});
