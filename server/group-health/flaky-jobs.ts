import type { JobHistoryRecord, PipelineHistoryRecord } from '../history/model.ts';
import { eachAttemptOf } from '../history/packed-jobs.ts';
import type { FlakeKind, FlakyJob, FlakyJobsResponse } from './contract.ts';
import type { HealthIndex } from './health-index.ts';
import { percent } from './stats.ts';

/** One flake: a job name that both failed and passed on one commit of one project. */
export interface FlakeEvent {
  projectId: number;
  jobName: string;
  sha: string;
  kind: FlakeKind;
  /** The newest failed attempt. */
  failedJob: JobHistoryRecord;
  pipeline: PipelineHistoryRecord;
  /** When the last attempt of the pair finished (epoch ms). */
  at: number;
}

/** First index of a pipeline created at or after `from` in a list sorted by creation. */
function firstFrom(pipelines: readonly PipelineHistoryRecord[], from: number): number {
  let lo = 0;
  let hi = pipelines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pipelines[mid]!.createdAt < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The flakes of a window. A job is a flake when, on one commit of one project, an attempt of it
 * failed and another passed: either a retry in the same pipeline (`retry`, seen thanks to
 * `include_retried=true`) or another pipeline on the same SHA (`same-commit`). The code did not
 * change, so the outcome did not depend on it. Each (project, commit, job name) counts once.
 */
export class FlakeIndex {
  /** Newest first. */
  readonly events: FlakeEvent[] = [];
  /** Runs per job name in the window (one per pipeline running it; retries folded). */
  readonly runsByName = new Map<string, number>();
  /** Runs per project and job name in the window. */
  private readonly runsByProject = new Map<number, Map<string, number>>();
  private readonly eventsByProject = new Map<number, Map<string, FlakeEvent[]>>();

  constructor(index: HealthIndex) {
    for (const [projectId, all] of index.pipelinesByProject) {
      const pipelines = all.slice(firstFrom(all, index.from));
      const runs = new Map<string, number>();
      this.runsByProject.set(projectId, runs);
      // Only a failed attempt can start a flake, so commits are grouped only for those.
      const failedOn = new Map<
        string,
        Map<string, { jobId: number; pipeline: PipelineHistoryRecord }>
      >();
      // Read without building a record per attempt (900,000 of them at 2,000 projects): the
      // failed attempt's record is fetched once it makes a flake.
      let pipeline!: PipelineHistoryRecord;
      const visit = (name: string, status: string, retried: boolean, jobId: number) => {
        if (status === 'failed') {
          let names = failedOn.get(pipeline.sha);
          if (!names) failedOn.set(pipeline.sha, (names = new Map()));
          const seen = names.get(name);
          if (!seen || jobId > seen.jobId) names.set(name, { jobId, pipeline });
        } else if (status !== 'success') return;
        if (retried) return;
        runs.set(name, (runs.get(name) ?? 0) + 1);
        this.runsByName.set(name, (this.runsByName.get(name) ?? 0) + 1);
      };
      for (pipeline of pipelines) eachAttemptOf(index.jobsByPipeline, pipeline.pipelineId, visit);
      if (failedOn.size === 0) continue;
      const bySha = new Map<string, PipelineHistoryRecord[]>();
      for (const pipeline of pipelines) {
        if (!failedOn.has(pipeline.sha)) continue;
        let list = bySha.get(pipeline.sha);
        if (!list) bySha.set(pipeline.sha, (list = []));
        list.push(pipeline);
      }
      const events = new Map<string, FlakeEvent[]>();
      for (const [sha, names] of failedOn) {
        const onCommit = bySha.get(sha)!;
        for (const [name, failed] of names) {
          let passed = false;
          let retry = false;
          let at = 0;
          for (const pipeline of onCommit) {
            let failedHere = false;
            let passedHere = false;
            for (const job of index.jobsByPipeline.get(pipeline.pipelineId) ?? []) {
              if (job.name !== name) continue;
              if (job.status === 'failed') failedHere = true;
              else if (job.status === 'success') passedHere = true;
              else continue;
              at = Math.max(at, job.finishedAt ?? job.createdAt);
            }
            passed ||= passedHere;
            retry ||= failedHere && passedHere;
          }
          if (!passed) continue;
          const event: FlakeEvent = {
            projectId,
            jobName: name,
            sha,
            kind: retry ? 'retry' : 'same-commit',
            failedJob: index.jobsByPipeline
              .get(failed.pipeline.pipelineId)!
              .find((j) => j.jobId === failed.jobId)!,
            pipeline: failed.pipeline,
            at,
          };
          this.events.push(event);
          let list = events.get(name);
          if (!list) events.set(name, (list = []));
          list.push(event);
        }
      }
      for (const list of events.values()) list.sort(newestFirst);
      this.eventsByProject.set(projectId, events);
    }
    this.events.sort(newestFirst);
  }

  /** True when the project's job of that name flaked in the window. */
  isFlaky(projectId: number, jobName: string): boolean {
    return this.eventsByProject.get(projectId)?.has(jobName) ?? false;
  }

  /** True when the project's job flaked on this commit (it failed and passed on `sha`). */
  flakedOn(projectId: number, jobName: string, sha: string): boolean {
    return (
      this.eventsByProject
        .get(projectId)
        ?.get(jobName)
        ?.some((e) => e.sha === sha) ?? false
    );
  }

  /** The flakes of one project's job (newest first) and its runs in the window. */
  historyOf(projectId: number, jobName: string): { flakes: FlakeEvent[]; runs: number } {
    return {
      flakes: this.eventsByProject.get(projectId)?.get(jobName) ?? [],
      runs: this.runsByProject.get(projectId)?.get(jobName) ?? 0,
    };
  }
}

const newestFirst = (a: FlakeEvent, b: FlakeEvent) =>
  b.at - a.at || b.failedJob.jobId - a.failedJob.jobId;

/** Flaky job names of the window, most flakes first (then the newest flake first). */
export function flakyJobs(index: HealthIndex, flakes: FlakeIndex): FlakyJobsResponse {
  const byName = new Map<string, FlakeEvent[]>();
  for (const event of flakes.events) {
    let list = byName.get(event.jobName);
    if (!list) byName.set(event.jobName, (list = []));
    list.push(event);
  }
  const jobs: FlakyJob[] = [];
  for (const [name, events] of byName) {
    const last = events[0]!;
    const perProject = new Map<number, number>();
    for (const e of events) perProject.set(e.projectId, (perProject.get(e.projectId) ?? 0) + 1);
    const runs = flakes.runsByName.get(name) ?? 0;
    jobs.push({
      job_name: name,
      flakes: events.length,
      runs,
      flake_rate: percent(events.length, runs),
      last_flake: {
        project_id: last.projectId,
        project_name: index.projectName(last.projectId),
        pipeline_id: last.pipeline.pipelineId,
        job_id: last.failedJob.jobId,
        sha: last.sha,
        kind: last.kind,
        at: new Date(last.at).toISOString(),
        web_url: last.failedJob.webUrl,
      },
      projects: [...perProject]
        .map(([id, n]) => ({ project_id: id, project_name: index.projectName(id), flakes: n }))
        .sort((a, b) => b.flakes - a.flakes || a.project_name.localeCompare(b.project_name)),
    });
  }
  jobs.sort(
    (a, b) =>
      b.flakes - a.flakes ||
      Date.parse(b.last_flake.at) - Date.parse(a.last_flake.at) ||
      a.job_name.localeCompare(b.job_name),
  );
  return { window: index.window, jobs };
}

/** A job's recent flake history in words for the AI prompt, e.g. "failed and passed on retry 4 times this week". */
export interface FlakeHistory {
  flakes: number;
  runs: number;
  lastFlakeAt: string | null;
  summary: string;
}

/** The flake history of one project's job over the index's window, with a sentence for prompts. */
export function flakeHistory(
  flakes: FlakeIndex,
  projectId: number,
  jobName: string,
  windowWords: string,
): FlakeHistory {
  const { flakes: events, runs } = flakes.historyOf(projectId, jobName);
  const retries = events.filter((e) => e.kind === 'retry').length;
  const sameCommit = events.length - retries;
  const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
  const parts: string[] = [];
  if (retries > 0) parts.push(`failed and passed on retry ${times(retries)}`);
  if (sameCommit > 0) parts.push(`failed and passed on the same commit ${times(sameCommit)}`);
  return {
    flakes: events.length,
    runs,
    lastFlakeAt: events[0] ? new Date(events[0].at).toISOString() : null,
    summary:
      events.length === 0
        ? `had no flake in ${runs} runs ${windowWords}`
        : `${parts.join(', and ')} ${windowWords} (${runs} runs)`,
  };
}
