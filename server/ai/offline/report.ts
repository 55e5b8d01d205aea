// The built-in analyser's answer to "why did this job fail", as the Markdown a reader sees.
import type { DistilledLog } from '../distill/log-distiller.ts';
import { failedTestLines } from './test-report.ts';
import { CATEGORY_LABELS } from '../findings.ts';
import { greenOnSameCommit, type JobContext } from '../job-context.ts';
import { quote } from '../markdown.ts';
import { diagnose } from './diagnosis.ts';
import { describeFacts, jobFacts, reasonVerdict } from './facts.ts';
import { describeLocations } from './linked-locations.ts';

const FACTS_HEAD =
  '**Facts** (what GitLab and the runner state; the log’s lines below support or refine them):';
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
  const verdict = reasonVerdict(context);
  const facts = jobFacts(distilled, context);
  if (distilled.totalLines === 0) {
    return [
      '**The job log is empty.**',
      '',
      verdict
        ? verdict.sentence
        : 'The job may not have started (stuck in pending, no runner picked it up), its log may have been erased, or the runner failed before printing anything.',
      ...(facts.length > 0 ? ['', FACTS_HEAD, ...describeFacts(facts)] : []),
      ...(verdict?.advice ? ['', `**Next step:** ${verdict.advice}`] : []),
    ].join('\n');
  }
  const d = diagnose(distilled, context);
  const lines = [
    `**Failing step:** ${d.failingStep}.`,
    d.generic
      ? `**Root cause category:** ${CATEGORY_LABELS[d.category]}, a fallback: no line here is in words the built-in rules know, so the decisive lines below matter more than the label (a configured AI provider can judge it).`
      : `**Root cause category:** ${CATEGORY_LABELS[d.category]}.`,
  ];
  if (verdict) lines.push(`**GitLab’s verdict:** ${verdict.sentence}`);
  if (facts.length > 0) lines.push('', FACTS_HEAD, ...describeFacts(facts));
  lines.push('', ...failedTestLines(context?.failedTests));
  lines.push('**Decisive lines:**', quote(d.evidence));
  if (context?.locations && context.locations.items.length > 0) {
    lines.push('', `**Where:** ${describeLocations(context.locations)}`);
  } else if (d.locations.length > 0) {
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
  const steps = verdict?.advice ? [verdict.advice, ...d.nextSteps] : d.nextSteps;
  lines.push('', '**Next steps:**', ...steps.map((s, i) => `${i + 1}. ${s}`));
  lines.push(
    '',
    `_Built-in offline analysis: pattern rules over the log (${distilled.keptLines} of ${distilled.totalLines} lines examined in focus). Configure an AI provider for a deeper explanation._`,
  );
  return lines.join('\n');
}
