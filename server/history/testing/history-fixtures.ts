import type {
  HistorySnapshot,
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from '../model.ts';
import { markRetried } from '../model.ts';

/** A fixed "now" for history fixtures: 2026-11-21 12:00 UTC. */
export const FIXTURE_NOW = Date.parse('2026-11-21T12:00:00Z');
const MINUTE = 60_000;

/** One job attempt in a fixture pipeline. */
export interface FixtureJob {
  name: string;
  status: string;
  duration?: number | null;
  queued?: number | null;
  stage?: string;
  allowFailure?: boolean;
  failureReason?: string | null;
}

/** A fixture pipeline: what a test states, the rest defaulted. */
export interface FixturePipeline {
  projectId: number;
  status: string;
  /** Minutes before FIXTURE_NOW (or the builder's now). */
  minutesAgo: number;
  ref?: string;
  sha?: string;
  source?: string;
  username?: string;
  commitTitle?: string;
  commitAuthor?: string;
  duration?: number | null;
  queued?: number | null;
  /** Attempts in order; several with one name make the older ones retried. */
  jobs?: FixtureJob[];
}

/** Builds HistorySnapshots by hand for exact tests: ids are handed out in creation order. */
export class HistoryBuilder {
  private readonly projects: ProjectHistoryRecord[] = [];
  private readonly pipelines: PipelineHistoryRecord[] = [];
  private readonly jobs = new Map<number, JobHistoryRecord[]>();
  private nextPipelineId = 1000;
  private nextJobId = 50_000;

  constructor(readonly now: number = FIXTURE_NOW) {}

  /** Adds a project (default branch `main`). */
  project(id: number, name: string, defaultBranch = 'main'): this {
    this.projects.push({
      id,
      name,
      path: `acme/${name}`,
      webUrl: `https://gitlab.example/acme/${name}`,
      defaultBranch,
    });
    return this;
  }

  /** Adds a pipeline with its jobs; returns its id. */
  pipeline(spec: FixturePipeline): number {
    const project = this.projects.find((p) => p.id === spec.projectId);
    if (!project) throw new Error(`unknown fixture project ${spec.projectId}`);
    const pipelineId = this.nextPipelineId++;
    const ref = spec.ref ?? project.defaultBranch;
    const createdAt = this.now - spec.minutesAgo * MINUTE;
    const duration = spec.duration === undefined ? 600 : spec.duration;
    const finished = ['success', 'failed', 'canceled', 'skipped'].includes(spec.status);
    const username = spec.username ?? 'alice';
    this.pipelines.push({
      projectId: spec.projectId,
      pipelineId,
      ref,
      sha: spec.sha ?? `sha${pipelineId}`,
      source:
        spec.source ?? (ref.startsWith('refs/merge-requests/') ? 'merge_request_event' : 'push'),
      status: spec.status,
      defaultBranch: ref === project.defaultBranch,
      user: { id: username.length, username, name: username.toUpperCase(), avatarUrl: '' },
      commitTitle: spec.commitTitle ?? `Commit of pipeline ${pipelineId}`,
      commitAuthor: spec.commitAuthor ?? username.toUpperCase(),
      createdAt,
      startedAt: createdAt + 30_000,
      finishedAt: finished && duration !== null ? createdAt + 30_000 + duration * 1000 : null,
      updatedAt: new Date(createdAt + 60_000).toISOString(),
      duration,
      queuedDuration: spec.queued === undefined ? 30 : spec.queued,
      webUrl: `${project.webUrl}/-/pipelines/${pipelineId}`,
      detailsFor: new Date(createdAt + 60_000).toISOString(),
      jobsFor: new Date(createdAt + 60_000).toISOString(),
    });
    const jobs: JobHistoryRecord[] = (spec.jobs ?? []).map((j) => {
      const jobId = this.nextJobId++;
      return {
        projectId: spec.projectId,
        pipelineId,
        jobId,
        name: j.name,
        stage: j.stage ?? 'test',
        status: j.status,
        retried: false,
        allowFailure: j.allowFailure ?? false,
        failureReason: j.failureReason ?? (j.status === 'failed' ? 'script_failure' : null),
        createdAt,
        startedAt: createdAt + 10_000,
        finishedAt: createdAt + 10_000 + (j.duration ?? 60) * 1000,
        duration: j.duration === undefined ? 60 : j.duration,
        queuedDuration: j.queued === undefined ? 5 : j.queued,
        webUrl: `${project.webUrl}/-/jobs/${jobId}`,
      };
    });
    if (jobs.length > 0) this.jobs.set(pipelineId, markRetried(jobs));
    return pipelineId;
  }

  /** The snapshot built so far. */
  build(): HistorySnapshot {
    return {
      projects: [...this.projects],
      pipelines: [...this.pipelines].sort(
        (a, b) => a.createdAt - b.createdAt || a.pipelineId - b.pipelineId,
      ),
      jobs: new Map(this.jobs),
    };
  }
}

/** A seeded stream in [0, 1) (mulberry32), so generated history is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What to generate: a group's history at scale (benchmarks, store tests). */
export interface GeneratedHistoryOptions {
  projects: number;
  days: number;
  pipelinesPerDay: number;
  jobsPerPipeline: number;
  seed?: number;
  now?: number;
}

/**
 * A seeded group history: default-branch and MR pipelines, jobs that fail, some retried into a
 * pass (flakes), and every fourth project's `build` job twice as slow over the last 36 hours.
 */
export function generateHistory(options: GeneratedHistoryOptions): HistorySnapshot {
  const random = seeded(options.seed ?? 1);
  const now = options.now ?? FIXTURE_NOW;
  const projects: ProjectHistoryRecord[] = [];
  const pipelines: PipelineHistoryRecord[] = [];
  const jobs = new Map<number, JobHistoryRecord[]>();
  const jobNames = Array.from({ length: options.jobsPerPipeline }, (_, i) =>
    i === 0 ? 'build' : `test-${i}`,
  );
  let pipelineId = 1;
  let jobId = 1;
  const step = 86_400_000 / options.pipelinesPerDay;
  for (let p = 0; p < options.projects; p++) {
    const projectId = 100 + p;
    projects.push({
      id: projectId,
      name: `project-${p}`,
      path: `acme/project-${p}`,
      webUrl: `https://gitlab.example/acme/project-${p}`,
      defaultBranch: 'main',
    });
    const total = options.days * options.pipelinesPerDay;
    for (let i = 0; i < total; i++) {
      const createdAt = now - options.days * 86_400_000 + i * step + Math.floor(random() * step);
      const mr = random() < 0.4;
      const ref = mr ? `refs/merge-requests/${1 + Math.floor(random() * 50)}/head` : 'main';
      const slow = p % 4 === 0 && now - createdAt < 36 * 3_600_000;
      const id = pipelineId++;
      let failed = false;
      const attempts: JobHistoryRecord[] = [];
      for (const name of jobNames) {
        const base = name === 'build' && slow ? 240 : 120;
        const roll = random();
        const statuses =
          roll < 0.03 ? ['failed', 'success'] : roll < 0.06 ? ['failed'] : ['success'];
        for (const status of statuses) {
          if (status === 'failed' && statuses.length === 1) failed = true;
          attempts.push({
            projectId,
            pipelineId: id,
            jobId: jobId++,
            name,
            stage: name === 'build' ? 'build' : 'test',
            status,
            retried: false,
            allowFailure: false,
            failureReason: status === 'failed' ? 'script_failure' : null,
            createdAt,
            startedAt: createdAt + 5_000,
            finishedAt: createdAt + 5_000 + base * 1000,
            duration: base * (0.9 + random() * 0.2),
            queuedDuration: 2 + random() * 10,
            webUrl: '',
          });
        }
      }
      jobs.set(id, markRetried(attempts));
      const status = failed ? 'failed' : 'success';
      pipelines.push({
        projectId,
        pipelineId: id,
        ref,
        sha: `sha-${id}`,
        source: mr ? 'merge_request_event' : 'push',
        status,
        defaultBranch: !mr,
        user: { id: 1 + (i % 7), username: `user${i % 7}`, name: `User ${i % 7}`, avatarUrl: '' },
        commitTitle: `Change ${id}`,
        commitAuthor: `User ${i % 7}`,
        createdAt,
        startedAt: createdAt + 5_000,
        finishedAt: createdAt + 600_000,
        updatedAt: new Date(createdAt + 600_000).toISOString(),
        duration: 595,
        queuedDuration: 5,
        webUrl: `https://gitlab.example/acme/project-${p}/-/pipelines/${id}`,
        detailsFor: new Date(createdAt + 600_000).toISOString(),
        jobsFor: new Date(createdAt + 600_000).toISOString(),
      });
    }
  }
  pipelines.sort((a, b) => a.createdAt - b.createdAt || a.pipelineId - b.pipelineId);
  return { projects, pipelines, jobs };
}
