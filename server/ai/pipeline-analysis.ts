import type { GitLabPipeline } from '../gitlab/wire.ts';
import type { ChatMessage } from './analysis-task.ts';
import { CATEGORY_LABELS, type JobFinding, type ProblemGroup } from './findings.ts';
import { fence } from './markdown.ts';
import { describeJob, describeLog } from './prompt.ts';
import { describeFailedTests } from './test-failures.ts';

/**
 * Groups findings whose main error is the same, then ranks them by what blocks the pipeline: first
 * the problem of the earliest failed stage (then the earliest finished job), and problems of jobs
 * allowed to fail last. `stages` is the pipeline's stage order, when known.
 */
export function groupFindings(
  findings: JobFinding[],
  stages: readonly string[] = [],
): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  for (const f of findings) {
    const g = groups.get(f.diagnosis.signature);
    if (g) g.jobs.push(f);
    else groups.set(f.diagnosis.signature, { diagnosis: f.diagnosis, jobs: [f] });
  }
  return rankGroups([...groups.values()], stages);
}

/** Whether every job of the group may fail without failing the pipeline. */
export const allowedToFail = (g: ProblemGroup): boolean => g.jobs.every((j) => j.job.allow_failure);

// A job that stops the pipeline when it fails; an allowed failure only counts when none does.
function rankGroups(groups: ProblemGroup[], stages: readonly string[]): ProblemGroup[] {
  const stageIndex = (stage: string) => {
    const i = stages.indexOf(stage);
    return i < 0 ? stages.length : i;
  };
  const key = (g: ProblemGroup) => {
    const blocking = g.jobs.filter((j) => !j.job.allow_failure);
    const jobs = blocking.length > 0 ? blocking : g.jobs;
    return {
      allowed: blocking.length === 0 ? 1 : 0,
      // A failed stage stops the later ones (without `needs:`): its failure is what failed the
      // pipeline. Within a stage, or with `needs:`, the failure that finished first.
      finished: Math.min(...jobs.map((j) => Date.parse(j.job.finished_at ?? '') || Infinity)),
      stage: Math.min(...jobs.map((j) => stageIndex(j.job.stage))),
      id: Math.min(...jobs.map((j) => j.job.id)),
    };
  };
  const keys = new Map(groups.map((g) => [g, key(g)]));
  return groups.sort((a, b) => {
    const x = keys.get(a)!;
    const y = keys.get(b)!;
    return x.allowed - y.allowed || x.stage - y.stage || cmp(x.finished, y.finished) || x.id - y.id;
  });
}

const cmp = (a: number, b: number) => (a === b ? 0 : a < b ? -1 : 1);

const jobList = (g: ProblemGroup) =>
  g.jobs
    .map(
      (j) =>
        `\`${j.job.name}\` (#${j.job.id}, stage \`${j.job.stage}\`${j.job.allow_failure ? ', allowed to fail' : ''})`,
    )
    .join(', ');

// What a problem means for the pipeline, after its heading.
function blockingNote(g: ProblemGroup, first: boolean): string {
  if (allowedToFail(g)) return ' — allowed to fail: it does not block the pipeline';
  return first ? ' — this is what failed the pipeline' : '';
}

function pipelineFacts(pipeline: GitLabPipeline, projectName: string, failed: number): string {
  return [
    `- Pipeline #${pipeline.id}${projectName ? ` of ${projectName}` : ''} on \`${pipeline.ref}\` (source: ${pipeline.source}), status ${pipeline.status}`,
    `- Commit: ${pipeline.sha.slice(0, 8)}`,
    `- Failed jobs: ${failed}`,
  ].join('\n');
}

/** The offline analyser's answer for a whole pipeline: one section per distinct problem. */
export function pipelineOfflineReport(
  pipeline: GitLabPipeline,
  groups: ProblemGroup[],
  skipped: number,
): string {
  const failed = groups.reduce((n, g) => n + g.jobs.length, 0);
  if (failed === 0) return `Pipeline #${pipeline.id} has no failed jobs to analyse.`;
  const lines = [
    `**Pipeline #${pipeline.id}** on \`${pipeline.ref}\`: ${failed} failed job${failed === 1 ? '' : 's'}, ${groups.length} distinct problem${groups.length === 1 ? '' : 's'}${skipped > 0 ? ` (${skipped} more failed jobs not analysed)` : ''}.`,
  ];
  groups.forEach((g, i) => {
    const d = g.diagnosis;
    lines.push(
      '',
      `### ${i + 1}. ${CATEGORY_LABELS[d.category]} in ${jobList(g)}${blockingNote(g, i === 0)}`,
      `**Failing step:** ${d.failingStep}.`,
      '',
      fence(
        d.evidence
          .slice(0, 6)
          .map((e) => e.text)
          .join('\n'),
      ),
      '',
      '**Next steps:**',
      ...d.nextSteps.slice(0, 3).map((s, k) => `${k + 1}. ${s}`),
    );
    if (g.jobs.length > 1) {
      lines.push(
        '',
        `_The same error appears in ${g.jobs.length} jobs; fixing it once should fix them all._`,
      );
    }
  });
  lines.push('', '_Built-in offline analysis of every failed job, with duplicate errors merged._');
  return lines.join('\n');
}

/** The prompt for a whole-pipeline analysis: one excerpt per distinct problem. */
export function pipelineMessages(
  pipeline: GitLabPipeline,
  projectName: string,
  groups: ProblemGroup[],
): ChatMessage[] {
  const failed = groups.reduce((n, g) => n + g.jobs.length, 0);
  const parts = [
    'Analyse this failed GitLab CI pipeline. Explain each distinct problem once (jobs that fail with the same error are grouped), say which jobs it affects and how to fix it, and say which problem to fix first.',
    'The problems are ranked by what blocks the pipeline: the first is the one that failed it; jobs allowed to fail (`allow_failure: true`) come last and do not block it.',
    '',
    '## Pipeline',
    pipelineFacts(pipeline, projectName, failed),
  ];
  groups.forEach((g, i) => {
    const first = g.jobs[0]!;
    parts.push(
      '',
      `## Problem ${i + 1}: ${CATEGORY_LABELS[g.diagnosis.category]} (${g.jobs.length} job${g.jobs.length === 1 ? '' : 's'}: ${jobList(g)})${blockingNote(g, i === 0)}`,
      describeJob(first.context, first.distilled),
      '',
    );
    // Every job of the problem: parallel jobs of one suite each name their own failed tests.
    const tests = describeFailedTests(
      g.jobs.flatMap((j) => j.context.failedTests ?? []),
      g.jobs.length === 1 ? 'this job' : 'these jobs',
    );
    if (tests) parts.push('### Failed tests (JUnit report)', tests, '');
    parts.push(describeLog(first.distilled));
  });
  return [{ role: 'user', content: parts.join('\n') }];
}
