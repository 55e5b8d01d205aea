import { flakeHistory, type FlakeIndex } from '../group-health/flaky-jobs.ts';
import { percent } from '../group-health/stats.ts';
import type { HistorySnapshot, PipelineHistoryRecord } from '../history/model.ts';
import type { EvidencePipeline, TriageEvidence, TriageVerdict } from './contract.ts';
import { agoInWords } from './past-fixes.ts';

/** A failed job to judge: is it this change's doing, the target branch's, or a flake? */
export interface JudgedFailure {
  projectId: number;
  jobName: string;
  /** The commit it failed on. */
  sha: string;
  /** The branch it would merge into (the MR's target, else the project's default branch). */
  targetBranch: string;
}

/** A verdict with its evidence. */
export interface Judgement {
  verdict: TriageVerdict;
  evidence: TriageEvidence;
}

/**
 * The pipeline history by project and ref, newest first, for judging failures against their
 * target branch; built once per history change.
 */
export class TargetBranchIndex {
  private readonly byRef = new Map<string, PipelineHistoryRecord[]>();

  constructor(private readonly snapshot: Pick<HistorySnapshot, 'pipelines' | 'jobs'>) {
    for (let i = snapshot.pipelines.length - 1; i >= 0; i--) {
      const p = snapshot.pipelines[i]!;
      if (p.status !== 'success' && p.status !== 'failed') continue;
      const key = `${p.projectId}:${p.ref}`;
      let list = this.byRef.get(key);
      if (!list) this.byRef.set(key, (list = []));
      list.push(p);
    }
  }

  /** Finished pipelines of a project's ref, newest first. */
  finished(projectId: number, ref: string): readonly PipelineHistoryRecord[] {
    return this.byRef.get(`${projectId}:${ref}`) ?? [];
  }

  /** How the job's latest attempt in a pipeline ended (`success`/`failed`), if it ran there. */
  outcome(pipeline: PipelineHistoryRecord, jobName: string): 'success' | 'failed' | undefined {
    const attempts = this.snapshot.jobs.get(pipeline.pipelineId);
    const latest = attempts?.findLast((j) => j.name === jobName && !j.retried);
    return latest?.status === 'success' || latest?.status === 'failed' ? latest.status : undefined;
  }
}

function evidencePipeline(p: PipelineHistoryRecord): EvidencePipeline {
  return {
    pipeline_id: p.pipelineId,
    sha: p.sha,
    short_sha: p.sha.slice(0, 8),
    commit_title: p.commitTitle,
    commit_author: p.commitAuthor,
    web_url: p.webUrl,
    at: new Date(p.createdAt).toISOString(),
  };
}

function pipelineInWords(p: PipelineHistoryRecord, now: number): string {
  const title = p.commitTitle ? ` '${p.commitTitle}'` : '';
  const by = p.commitAuthor ? ` by ${p.commitAuthor}` : '';
  return `#${p.pipelineId} (${p.sha.slice(0, 8)}${title}${by}, ${agoInWords(now - p.createdAt)})`;
}

const evidence = (text: string, over: Partial<TriageEvidence> = {}): TriageEvidence => ({
  text,
  since: null,
  last_passed: null,
  flakes: null,
  ...over,
});

/**
 * Judges a failed job, in this order: it failed and passed on this very commit (`flaky`); its
 * latest run on the target branch failed too (`broken-on-default`, since the first pipeline of that
 * failing streak); it flaked on other commits this week (`flaky`, with its rate); it passed in its
 * latest run on the target branch (`new`); otherwise `unknown`, saying what history is missing.
 */
export function judgeFailure(
  failure: JudgedFailure,
  targets: TargetBranchIndex,
  flakes: FlakeIndex,
  now: number,
): Judgement {
  const { projectId, jobName, targetBranch } = failure;
  const history = flakeHistory(flakes, projectId, jobName, 'this week');
  const flakeEvidence = {
    flakes: history.flakes,
    runs: history.runs,
    flake_rate: percent(history.flakes, history.runs),
  };
  if (flakes.flakedOn(projectId, jobName, failure.sha))
    return {
      verdict: 'flaky',
      evidence: evidence(
        `\`${jobName}\` failed and passed on this very commit; it ${history.summary}`,
        { flakes: flakeEvidence },
      ),
    };
  const onTarget = targets.finished(projectId, targetBranch);
  let latestRun = -1;
  for (let i = 0; i < onTarget.length && latestRun < 0; i++)
    if (targets.outcome(onTarget[i]!, jobName) !== undefined) latestRun = i;
  if (latestRun >= 0 && targets.outcome(onTarget[latestRun]!, jobName) === 'failed') {
    // Back through the streak: the oldest failing run before the last one that passed.
    let since = onTarget[latestRun]!;
    for (let i = latestRun + 1; i < onTarget.length; i++) {
      const outcome = targets.outcome(onTarget[i]!, jobName);
      if (outcome === 'success') break;
      if (outcome === 'failed') since = onTarget[i]!;
    }
    return {
      verdict: 'broken-on-default',
      evidence: evidence(
        `\`${jobName}\` fails on \`${targetBranch}\` too, since ${pipelineInWords(since, now)}: not this change's doing`,
        { since: evidencePipeline(since) },
      ),
    };
  }
  if (history.flakes > 0)
    return {
      verdict: 'flaky',
      evidence: evidence(`\`${jobName}\` ${history.summary}`, { flakes: flakeEvidence }),
    };
  if (latestRun >= 0) {
    const passed = onTarget[latestRun]!;
    return {
      verdict: 'new',
      evidence: evidence(
        `\`${jobName}\` passed on \`${targetBranch}\` in ${pipelineInWords(passed, now)} and fails here`,
        { last_passed: evidencePipeline(passed) },
      ),
    };
  }
  return {
    verdict: 'unknown',
    evidence: evidence(
      onTarget.length === 0
        ? `no finished pipeline of \`${targetBranch}\` is in the history to compare with`
        : `\`${jobName}\` did not run in the ${onTarget.length} finished pipeline${onTarget.length === 1 ? '' : 's'} of \`${targetBranch}\` in the history`,
    ),
  };
}
