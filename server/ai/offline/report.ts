// The built-in analyser's answer to "why did this job fail", as the Markdown a reader sees.
import type { DistilledLog } from '../distill/log-distiller.ts';
import { CATEGORY_LABELS } from '../findings.ts';
import { greenOnSameCommit, type JobContext } from '../job-context.ts';
import { quote } from '../markdown.ts';
import { diagnose } from './diagnosis.ts';
import { pastFixesLines } from './past-fixes.ts';

/** Describes the previous green run and the commits since, in one line, or undefined. */
export function describeWhatChanged(context: JobContext | undefined): string | undefined {
  if (!context) return undefined;
  const prev = context.previousSuccess;
  if (prev === undefined) return undefined;
  const ref = context.ref ? ` on \`${context.ref}\`` : '';
  if (prev === null) return `No successful run of this job${ref} was found in recent pipelines.`;
  const then = prev.commit ? ` at commit ${prev.commit.shortId} “${prev.commit.title}”` : '';
  const now = context.commit
    ? ` This run is at ${context.commit.shortId} “${context.commit.title}” by ${context.commit.author}.`
    : '';
  return (
    `The last successful run of this job${ref} was job #${prev.jobId} in pipeline #${prev.pipelineId}${then}.` +
    (greenOnSameCommit(context)
      ? ' It ran the same commit, so the failure is not caused by a code change: suspect flakiness, the environment or an external service.'
      : now)
  );
}

/** A readable analysis of one failed job, made without any network access. */
export function analyseOffline(distilled: DistilledLog, context?: JobContext): string {
  if (distilled.totalLines === 0) {
    return [
      '**The job log is empty.**',
      '',
      'The job may not have started (stuck in pending, no runner picked it up), its log may have been erased, or the runner failed before printing anything.',
      context?.failureReason ? `GitLab’s failure reason: \`${context.failureReason}\`.` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
  const d = diagnose(distilled, context);
  const lines = [
    `**Failing step:** ${d.failingStep}.`,
    d.generic
      ? `**Root cause category:** ${CATEGORY_LABELS[d.category]}, a fallback: no line here is in words the built-in rules know, so the decisive lines below matter more than the label (a configured AI provider can judge it).`
      : `**Root cause category:** ${CATEGORY_LABELS[d.category]}.`,
  ];
  const facts: string[] = [];
  if (distilled.exitCode !== undefined) facts.push(`exit code ${distilled.exitCode}`);
  if (context?.failureReason) facts.push(`GitLab failure reason \`${context.failureReason}\``);
  if (context?.allowFailure)
    facts.push('this job is allowed to fail, so the pipeline is not blocked by it');
  if (facts.length > 0) lines.push(`**Facts:** ${facts.join('; ')}.`);
  lines.push('', '**Decisive lines:**', quote(d.evidence));
  if (d.locations.length > 0) {
    lines.push('', `**Where:** ${d.locations.map((l) => `\`${l}\``).join(', ')}`);
  }
  if (d.suggestion) lines.push('', `**The tool suggests:** ${d.suggestion}`);
  const changed = describeWhatChanged(context);
  if (changed) lines.push('', `**What changed:** ${changed}`);
  if (context?.flakeHistory?.startsWith('failed and passed'))
    lines.push(
      '',
      `**Flaky:** this job ${context.flakeHistory} — retrying it is likely to pass, but the flake deserves a fix.`,
    );
  lines.push(...pastFixesLines(context));
  lines.push('', '**Next steps:**', ...d.nextSteps.map((s, i) => `${i + 1}. ${s}`));
  lines.push(
    '',
    `_Built-in offline analysis: pattern rules over the log (${distilled.keptLines} of ${distilled.totalLines} lines examined in focus). Configure an AI provider for a deeper explanation._`,
  );
  return lines.join('\n');
}
