import type { GitLabJobStatus, GitLabPipelineStatus } from '../gitlab/wire.ts';

/** What a project builds; picks its CI template, tools and durations. */
export type ProjectKind =
  | 'node-service'
  | 'frontend'
  | 'go-service'
  | 'rust-service'
  | 'python-data'
  | 'java-service'
  | 'terraform'
  | 'helm'
  | 'docs'
  | 'mobile'
  | 'rails-service';

/** The program a job runs; decides its log output and how it can fail. */
export type ToolKind =
  | 'npm-build'
  | 'jest'
  | 'npm-audit'
  | 'eslint'
  | 'tsc'
  | 'go-build'
  | 'go-test'
  | 'golangci-lint'
  | 'docker-build'
  | 'cargo-build'
  | 'cargo-test'
  | 'clippy'
  | 'pytest'
  | 'mypy'
  | 'ruff'
  | 'maven-compile'
  | 'maven-test'
  | 'checkstyle'
  | 'terraform-fmt'
  | 'terraform-validate'
  | 'terraform-plan'
  | 'terraform-apply'
  | 'helm-lint'
  | 'chart-testing'
  | 'mkdocs'
  | 'link-check'
  | 'gradle'
  | 'xcode'
  | 'rspec'
  | 'rubocop'
  | 'deploy';

/** Why a job failed; each has its own realistic log ending. */
export type FailureKind =
  | 'jest-assertion'
  | 'pytest-assertion'
  | 'junit-assertion'
  | 'go-test'
  | 'rspec-failure'
  | 'tsc-error'
  | 'go-compile'
  | 'rust-compile'
  | 'npm-eresolve'
  | 'maven-dependency'
  | 'lint'
  | 'terraform-error'
  | 'rollout'
  | 'oom-killed'
  | 'timeout'
  | 'network'
  /** The container registry answering 503 (a triage scenario only: never drawn at random). */
  | 'registry-outage';

/**
 * What a job did in the earlier pipelines of the same commit: `passed`, `ran` (failed only for a
 * reason outside the code: network, timeout, memory), or the code failure it failed with.
 */
export type PriorRun = 'passed' | 'ran' | FailureKind;

/** Which pipelines a job appears in (GitLab `rules:`). */
export type JobRule = 'always' | 'default-branch' | 'tags' | 'merge-requests' | 'release';

/** One job of a project's CI configuration. */
export interface JobTemplate {
  name: string;
  stage: string;
  tool: ToolKind;
  /** Typical run time in seconds, [min, max]. */
  seconds: readonly [number, number];
  allowFailure?: boolean;
  /** `when: manual`; blocking when allowFailure is false (GitLab's `manual` pipeline status). */
  manual?: boolean;
  rule?: JobRule;
  /** Reports a coverage percentage. */
  coverage?: boolean;
}

/** A user (human or project bot). */
export interface SimUser {
  id: number;
  username: string;
  name: string;
  email: string;
  bot: boolean;
  createdAt: number;
}

/** A group (top-level or subgroup). */
export interface SimGroup {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  description: string;
  parentId: number | null;
  hasAvatar: boolean;
  createdAt: number;
}

/** A feature branch with its open merge request. */
export interface BranchState {
  name: string;
  mrIid: number;
  lastSha: string | null;
}

/** A merge request (its pipelines run on `refs/merge-requests/<iid>/head`). */
export interface SimMergeRequest {
  iid: number;
  title: string;
  sourceBranch: string;
  authorId: number;
  createdAt: number;
}

/** Per-project generator state, carried from history into live mode so refs stay coherent. */
export interface ProjectGenState {
  branches: BranchState[];
  nextMrIid: number;
  minor: number;
  patch: number;
  lastDefaultSha: string;
  nextIid: number;
}

/** A project and its pipelines (ascending id). */
export interface SimProject {
  id: number;
  name: string;
  path: string;
  fullPath: string;
  description: string;
  group: SimGroup;
  kind: ProjectKind;
  defaultBranch: string;
  archived: boolean;
  createdAt: number;
  contributors: number[];
  maintainerId: number;
  pipelines: SimPipeline[];
  /** sha → newest pipeline on it. */
  shaIndex: Map<string, SimPipeline>;
  gen: ProjectGenState;
  /** Every merge request ever opened, by iid (branches leave `gen.branches`, MRs stay). */
  mergeRequests: Map<number, SimMergeRequest>;
  /**
   * Who may read its pipelines: `ci-disabled` (CI/CD turned off) and `guest` (the token's user is
   * a Guest of a private project) both answer 403 on pipeline and job endpoints, as GitLab does.
   */
  pipelineAccess?: 'enabled' | 'ci-disabled' | 'guest';
  /** A job made slower from a point in time on (a health scenario; read by planJobs). */
  slowdown?: { jobName: string; fromCreatedAt: number; factor: number };
  /** JUnit report settings and test scenarios (read by planJobs and the test-report routes). */
  junit?: ProjectJUnit;
  /** Commit titles a scenario gives certain commits (by sha) instead of the derived ones. */
  commitTitles?: Map<string, string>;
}

/** How a project's test jobs report (server/simulator/test-reports/). */
export interface ProjectJUnit {
  /** `artifacts:expire_in` of its test jobs, in days. */
  expireDays: number;
  /** Tests per job report (default: 24–90, drawn per job). */
  testsPerReport?: number;
  /** Its jobs upload no JUnit report (a benchmark's share of projects without reports). */
  none?: boolean;
  /**
   * Pipelines (by creation time) whose `jobName` fails with exactly the test at `testIndex` of its
   * suite: the test scenarios' consistent and flaky failures.
   */
  forced: Map<number, { jobName: string; testIndex: number }>;
}

/** Kind of ref a pipeline runs for. */
export type RefKind = 'default' | 'branch' | 'merge-request' | 'tag';

/** How a pipeline is meant to end (the job plan follows from it). */
export type Outcome = 'success' | 'failed' | 'canceled' | 'skipped';

/** A pipeline. Jobs of finished historical pipelines are re-derived from `seed` on demand. */
export interface SimPipeline {
  id: number;
  iid: number;
  projectId: number;
  sha: string;
  beforeSha: string;
  ref: string;
  refKind: RefKind;
  /** The branch behind a merge-request pipeline (or the ref itself). */
  branch: string;
  tag: boolean;
  source: string;
  name: string | null;
  userId: number;
  seed: number;
  outcome: Outcome;
  status: GitLabPipelineStatus;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  duration: number | null;
  queuedDuration: number | null;
  coverage: string | null;
  firstJobId: number;
  jobCount: number;
  /** Materialised jobs: set for pipelines that are (or were) live or forced by a test helper. */
  jobs: SimJob[] | null;
  /** Steps taken since going live (drives planned cancellation). */
  liveSteps: number;
  /** Step at which a live pipeline planned to be canceled is canceled. */
  cancelAtStep: number | null;
  /** Earlier attempts of retried jobs (GitLab's `include_retried=true`). */
  retriedJobs: SimJob[];
  /** Trigger jobs: listed at /pipelines/:id/bridges, never among /pipelines/:id/jobs. */
  bridges: SimBridge[];
  /** Deleted by a user or GitLab's cleanup: gone from every endpoint. */
  deleted: boolean;
  /** The pipeline whose trigger job created this one (a downstream pipeline). */
  upstream?: { pipelineId: number };
  /**
   * Why GitLab could not build the pipeline from its CI configuration: such a pipeline is saved
   * failed, with no jobs (doc/api/pipelines.md `yaml_errors`). Absent for a valid configuration.
   */
  yamlErrors?: string;
  /**
   * What each job did in the earlier pipelines of the same commit (a schedule, a tag or a
   * re-run MR pipeline builds a commit again), by job name; absent on a commit's first pipeline.
   * Fixed at creation: planJobs reads it so a job that passed on this commit cannot fail there
   * with a compile error, and a code failure repeats the same way.
   */
  priorRuns?: ReadonlyMap<string, PriorRun>;
  /**
   * Jobs a later pipeline of the seeded history passes on the same commit: they fail here only
   * for a reason outside the code (green again on a commit with a compile error cannot happen).
   */
  runsLater?: ReadonlySet<string>;
}

/** A trigger (bridge) job and the downstream pipeline it created. */
export interface SimBridge {
  id: number;
  name: string;
  stage: string;
  createdAt: number;
  downstream: { projectId: number; pipelineId: number } | null;
  /**
   * `trigger: strategy: depend` (doc/ci/yaml/_index.md `trigger:strategy`): the trigger job takes
   * the downstream pipeline's outcome, so a failed child fails the parent. Absent: the trigger job
   * succeeds once the downstream pipeline is created.
   */
  strategy?: 'depend';
}

/** A job, with its plan (what it will do) next to its state (what it has done). */
export interface SimJob {
  id: number;
  name: string;
  stage: string;
  stageIndex: number;
  template: JobTemplate;
  status: GitLabJobStatus;
  allowFailure: boolean;
  manual: boolean;
  createdAt: number;
  queuedAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** The failure this job has (finished) or will have (running). */
  failure: FailureKind | null;
  plannedStatus: 'success' | 'failed';
  plannedDurationMs: number;
  /** Live progress: steps the run takes and steps done (trace growth follows it). */
  steps: number;
  stepsDone: number;
  coverage: number | null;
}
