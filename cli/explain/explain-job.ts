/**
 * The `explain` use case: find the job, refuse one that did not fail, distil its log for the
 * failing step and the decisive lines (server/ai's distiller, the same one the analysis reads),
 * and get the analysis from the source. The result is what `--json` prints.
 */
import type { JobResponse } from '../../server/contract.ts';
import { distillLog, type DistilledLog } from '../../server/ai/distill/log-distiller.ts';
import { CliError } from '../errors.ts';
import { isUnder, projectOf, type JobRef } from './job-ref.ts';
import type { JobAnalysis, JobSource } from './job-source.ts';

/** Where the job failed, as far as its log says. */
export interface FailingStep {
  /** The GitLab section it failed in (`step_script`, `after_script`…), when the log has sections. */
  section: string | null;
  /** The last command run before the first decisive error, without its `$ `. */
  command: string | null;
  exit_code: number | null;
}

/** The failing step in one line: `$ command · in section · exit code N`, what is known of it. */
export function describeFailingStep(step: FailingStep): string {
  return [
    step.command === null ? undefined : `$ ${step.command}`,
    step.section === null ? undefined : `in ${step.section}`,
    step.exit_code === null ? undefined : `exit code ${step.exit_code}`,
  ]
    .filter((p) => p !== undefined)
    .join(' · ');
}

/** A line of the log that explains the failure. */
export interface DecisiveLine {
  /** 1-based line number in the log read (its tail, when the log was cut). */
  line: number;
  text: string;
  /** How often it (or a near-duplicate) occurred. */
  occurrences: number;
}

/** Everything `explain` found out about one failed job (snake_case, like the service's JSON). */
export interface Explanation {
  /** Who answered: the running service, or GitLab directly. */
  source: 'service' | 'gitlab';
  job: JobResponse;
  failing_step: FailingStep | null;
  decisive_lines: DecisiveLine[];
  log: { lines: number; truncated: boolean; bytes: number | null };
  analysis: JobAnalysis;
}

// Statuses of a job that has not settled yet (doc/api/jobs.md, "scope").
const UNFINISHED = new Set([
  'created',
  'pending',
  'preparing',
  'running',
  'waiting_for_resource',
  'waiting_for_callback',
  'scheduled',
]);

/** The failing step and decisive lines of a distilled log. */
export function evidenceOf(distilled: DistilledLog): {
  failing_step: FailingStep | null;
  decisive_lines: DecisiveLine[];
} {
  const step: FailingStep = {
    section: distilled.failingSection?.name ?? null,
    command: distilled.failingCommand?.replace(/^\$\s*/, '') ?? null,
    exit_code: distilled.exitCode ?? null,
  };
  const known = step.section !== null || step.command !== null || step.exit_code !== null;
  // No rule knew the tool: what the failing command printed last is usually its message.
  const lines = distilled.decisive.length > 0 ? distilled.decisive : distilled.lastWords;
  return {
    failing_step: known ? step : null,
    decisive_lines: lines.map((d) => ({
      line: d.line,
      text: d.message,
      occurrences: d.occurrences,
    })),
  };
}

/** Refuses a job that has nothing to explain, saying what it is instead. */
function assertFailed(job: JobResponse): void {
  if (job.status === 'failed') return;
  const which = `job ${job.id} (${job.name})`;
  throw new CliError(
    'job_not_failed',
    UNFINISHED.has(job.status)
      ? `${which} has not finished (${job.status}): explain it once it has failed`
      : `${which} did not fail: its status is ${job.status}`,
  );
}

/** Explains the job `ref` names, asking `source`; `force` re-analyses a stored analysis. */
export async function explainJob(
  source: JobSource,
  ref: JobRef,
  options: { force?: boolean; onAnalysing?: (job: JobResponse) => void } = {},
): Promise<Explanation> {
  if (ref.kind === 'url' && !isUnder(ref.url, source.gitlabUrl)) {
    throw new CliError(
      'general',
      `${ref.url.origin} is not the GitLab ${source.description} reads (${source.gitlabUrl})`,
    );
  }
  const projectId = await source.projectId(projectOf(ref, source.gitlabUrl));
  const job = await source.job(projectId, ref.jobId);
  assertFailed(job);
  const log = await source.log(projectId, ref.jobId);
  const distilled = distillLog(log.text);
  options.onAnalysing?.(job);
  const analysis = await source.analyse(job, log, { force: options.force ?? false });
  return {
    source: source.kind,
    job,
    ...evidenceOf(distilled),
    log: { lines: distilled.totalLines, truncated: log.truncated, bytes: log.bytes ?? null },
    analysis,
  };
}
