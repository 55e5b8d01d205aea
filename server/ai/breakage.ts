/**
 * "Who broke it and when did it last pass?": the job's runs on its ref between its last green run
 * and this failure, read from the same pipelines the analysis searched for the last green run.
 * The offline follow-up answers from it and a configured model gets it in the job's facts.
 */
import type { GitLabPipelineListItem } from '../gitlab/wire.ts';

/** A commit as the analysis mentions it (job-context.ts's `CommitRef`; a leaf, so no cycle). */
interface RunCommit {
  sha: string;
  shortId: string;
  title: string;
  author: string;
}

/** One run of the job, as the breakage history names it. */
export interface JobRun {
  jobId: number;
  pipelineId: number;
  /** When the job finished (ISO), null when GitLab did not say. */
  finishedAt: string | null;
  commit: RunCommit | undefined;
}

/** A green run, with its duration (job-context.ts's `PreviousSuccess`). */
export interface GreenRun extends JobRun {
  durationSec: number | null;
}

/** A run of a job as the searches read it, from GitLab's job list or the pipeline history. */
export interface RecordedRun extends GreenRun {
  name: string;
  status: string;
}

/** What `describeBreakage` reads of a job's context (a `JobContext` is one). */
export interface BreakageFacts {
  jobId: number;
  jobName: string;
  pipelineId: number;
  ref: string | undefined;
  commit: RunCommit | undefined;
  previousSuccess: GreenRun | null | undefined;
  breakage?: Breakage | undefined;
}

/** Where the job's failures on its ref began. */
export interface Breakage {
  /** The first failed run after the last green one (this run when it is the first). */
  firstFailure: JobRun;
  /** Failed runs of the job since the last green one, this one included. */
  failedRuns: number;
  /**
   * False when the walk stopped (at `MAX_WALK` pipelines) before it reached the last green run:
   * the failures may have started earlier than `firstFailure`.
   */
  complete: boolean;
}

/** At most this many pipelines between the last green run and this one are read. */
export const MAX_WALK = 8;

/** A recorded run as the breakage history names it. */
export function runOf(run: RecordedRun): JobRun {
  return {
    jobId: run.jobId,
    pipelineId: run.pipelineId,
    finishedAt: run.finishedAt,
    commit: run.commit,
  };
}

/**
 * Walks the ref's pipelines from this one back to the last green run of the job (newest first,
 * at most `MAX_WALK`), the job's latest attempt in each: a failed run moves the first failure
 * back; a green run newer than `green` is the real last green run, returned in `green` and where
 * the walk stops; a run that was skipped, cancelled or absent says nothing.
 */
export async function findBreakage(
  job: RecordedRun,
  green: GreenRun,
  pipelinesOfRef: readonly GitLabPipelineListItem[],
  jobsOf: (pipeline: GitLabPipelineListItem) => Promise<RecordedRun[]>,
): Promise<{ breakage: Breakage; green: GreenRun }> {
  const between = pipelinesOfRef
    .filter((p) => p.id > green.pipelineId && p.id < job.pipelineId)
    .sort((a, b) => b.id - a.id);
  let firstFailure = runOf(job);
  let failedRuns = 1;
  for (const [i, p] of between.entries()) {
    if (i === MAX_WALK) return { breakage: { firstFailure, failedRuns, complete: false }, green };
    const run = (await jobsOf(p)).find((j) => j.name === job.name);
    if (run?.status === 'success') {
      const newer: GreenRun = { ...runOf(run), durationSec: run.durationSec };
      return { breakage: { firstFailure, failedRuns, complete: true }, green: newer };
    }
    if (run?.status === 'failed') {
      firstFailure = runOf(run);
      failedRuns++;
    }
  }
  return { breakage: { firstFailure, failedRuns, complete: true }, green };
}

const at = (iso: string | null) =>
  iso
    ? `, finished ${iso
        .replace(/\.\d{3}Z$/, 'Z')
        .replace('T', ' ')
        .replace('Z', ' UTC')}`
    : '';
const commitText = (c: RunCommit | undefined) =>
  c ? `commit ${c.shortId} “${c.title}” by ${c.author}` : 'a commit GitLab did not name';

/**
 * The answer to "who broke it and when did it last pass?" in Markdown, from the context alone;
 * undefined when earlier runs could not be looked up.
 */
export function describeBreakage(context: BreakageFacts): string | undefined {
  const green = context.previousSuccess;
  if (green === undefined) return undefined;
  const ref = context.ref ? ` on \`${context.ref}\`` : '';
  if (green === null) {
    return `No green run of \`${context.jobName}\`${ref} was found in the recent pipelines searched: it has been failing for longer than that history, so no single commit broke it within it.`;
  }
  const lines = [
    `- **Last green:** job #${green.jobId} in pipeline #${green.pipelineId}${ref}${at(green.finishedAt)}, at ${commitText(green.commit)}.`,
  ];
  const b = context.breakage;
  // Analyses stored before the walk existed know only this run.
  const first: JobRun = b?.firstFailure ?? {
    jobId: context.jobId,
    pipelineId: context.pipelineId,
    finishedAt: null,
    commit: context.commit,
  };
  const isThisRun = first.jobId === context.jobId;
  const label = b && !b.complete ? 'Earliest failure found' : 'First failure after it';
  lines.push(
    `- **${label}:** job #${first.jobId} in pipeline #${first.pipelineId}${at(first.finishedAt)}, at ${commitText(first.commit)}${isThisRun ? ' — this run' : ''}.`,
  );
  if (b && !b.complete) {
    lines.push(
      `- Only the ${MAX_WALK} pipelines before this one were read, so the failures may have started earlier.`,
    );
  } else if (!b && !isThisRun) {
    lines.push('- Earlier failing runs, if any, were not looked up.');
  }
  if (b && b.failedRuns > 1) {
    lines.push(
      `- Since the last green run this job failed ${b.failedRuns} times, this run included.`,
    );
  }
  if (green.commit && first.commit && green.commit.sha === first.commit.sha) {
    lines.push(
      '',
      `**Who broke it:** no commit — the first failing run built the same commit that passed (${green.commit.shortId}), so suspect flakiness, the environment or an external service.`,
    );
  } else if (green.commit && first.commit) {
    lines.push(
      '',
      `**Who broke it:** the failures start at ${first.commit.shortId} by ${first.commit.author}. What came in between is \`git log ${green.commit.shortId}..${first.commit.shortId}\`; start with that commit.`,
    );
  }
  return lines.join('\n');
}
