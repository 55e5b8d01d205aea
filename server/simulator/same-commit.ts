import { FAILURES } from './ci-templates.ts';
import type {
  FailureKind,
  JobTemplate,
  Outcome,
  PriorRun,
  RefKind,
  SimJob,
  SimProject,
} from './model.ts';
import { hashSeed } from './random.ts';

/**
 * Failures the code itself causes: the same commit fails the same way every time it is built
 * (a compile error, a lint finding, a failing assertion, a bad Terraform reference, a crashing
 * rollout, a dependency that does not resolve). The other kinds (network, timeout, memory, an
 * outage) come from the machine or the world around it and may hit any run.
 */
const CODE_FAILURES: ReadonlySet<FailureKind> = new Set<FailureKind>([
  'jest-assertion',
  'pytest-assertion',
  'rspec-failure',
  'junit-assertion',
  'go-test',
  'tsc-error',
  'go-compile',
  'rust-compile',
  'npm-eresolve',
  'maven-dependency',
  'lint',
  'terraform-error',
  'rollout',
]);

/** Whether a failure kind comes from the code (and so repeats on every build of the commit). */
export function isCodeFailure(kind: FailureKind): boolean {
  return CODE_FAILURES.has(kind);
}

/**
 * What the jobs of a commit's pipelines did up to and including `jobs`: a pass wins over
 * everything (the code is fine), then the first code failure, then `ran` (failed only for a reason
 * outside the code). Jobs that never ran (skipped, canceled, manual) add nothing.
 */
export function priorRunsAfter(
  before: ReadonlyMap<string, PriorRun> | undefined,
  jobs: readonly Pick<SimJob, 'name' | 'status' | 'plannedStatus' | 'failure'>[],
): ReadonlyMap<string, PriorRun> {
  const runs = new Map(before);
  for (const job of jobs) {
    const outcome = outcomeOf(job);
    if (outcome === null) continue;
    const prior = runs.get(job.name);
    if (prior === 'passed') continue;
    if (outcome === 'passed' || prior === undefined || prior === 'ran') runs.set(job.name, outcome);
  }
  return runs;
}

function outcomeOf(job: Pick<SimJob, 'status' | 'plannedStatus' | 'failure'>): PriorRun | null {
  // A running job counts by its plan: a pipeline created while it runs comes after it in time.
  const status =
    job.status === 'success' || job.status === 'failed'
      ? job.status
      : ['created', 'pending', 'running', 'preparing', 'waiting_for_resource'].includes(job.status)
        ? job.plannedStatus
        : null;
  if (status === 'success') return 'passed';
  if (status === 'failed') return job.failure && isCodeFailure(job.failure) ? job.failure : 'ran';
  return null;
}

/**
 * The failure a job gets on a commit built before, given the kind drawn for it: once the job ran
 * on this commit, a code failure either repeats the one it had (same kind) or, when the job passed
 * or failed only for outside reasons there, becomes one of the tool's outside failures (network,
 * timeout, memory). Chosen from a hash, not the plan's random stream, so every other draw of the
 * seeded dataset stays where it was.
 */
export function failureOnSameCommit(
  drawn: FailureKind,
  template: JobTemplate,
  prior: PriorRun | undefined,
  seed: number,
): FailureKind {
  if (prior === undefined || !isCodeFailure(drawn)) return drawn;
  if (prior !== 'passed' && prior !== 'ran') return prior;
  const outside = FAILURES[template.tool].filter(([kind]) => !isCodeFailure(kind));
  // A tool whose every failure comes from the code (a linter) still fails to fetch its sources.
  if (outside.length === 0) return 'network';
  const total = outside.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = hashSeed(seed, template.name, 'same-commit') % total;
  for (const [kind, weight] of outside) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return outside[0]![0];
}

/**
 * The jobs a pipeline of this outcome runs before it ends: a green one runs all but the manual
 * ones; a failed or canceled one surely runs only what precedes its failure, unknown before its
 * plan, so only its allowed-to-fail jobs count (they never end it, and whether they ran is
 * unknown: counting them can only turn a code failure into an outside one, never the reverse).
 */
export function jobsRunBy(templates: readonly JobTemplate[], outcome: Outcome): string[] {
  if (outcome === 'skipped') return [];
  return templates
    .filter((t) => !t.manual && (outcome === 'success' || t.allowFailure))
    .map((t) => t.name);
}

/** What laterRunsOf needs of a draft. */
export interface CommitDraft {
  project: SimProject;
  sha: string;
  refKind: RefKind;
  outcome: Outcome;
}

/**
 * For each draft of a seeded history (oldest first, outcomes final), the jobs a later pipeline
 * runs (or may run) on the same commit, as `runs` names them for a draft. Such a job passes there,
 * or fails for an outside reason, so it fails earlier on that commit only for an outside reason too:
 * green again on a commit with a compile error cannot happen.
 */
export function laterRunsOf<D extends CommitDraft>(
  drafts: readonly D[],
  runs: (draft: D) => readonly string[],
): Map<D, ReadonlySet<string>> {
  const out = new Map<D, ReadonlySet<string>>();
  const later = new Map<string, ReadonlySet<string>>();
  for (let i = drafts.length - 1; i >= 0; i--) {
    const draft = drafts[i]!;
    const key = `${draft.project.id} ${draft.sha}`;
    const known = later.get(key);
    if (known) out.set(draft, known);
    const names = runs(draft);
    if (names.length > 0) later.set(key, new Set([...(known ?? []), ...names]));
  }
  return out;
}
