import { TOPICS } from './commit-words.ts';
import type { BranchState, Outcome, RefKind, SimProject, SimUser } from './model.ts';
import type { Rng } from './random.ts';

/** The null SHA GitLab reports as `before_sha` for new refs and merge-request pipelines. */
export const NULL_SHA = '0000000000000000000000000000000000000000';

/** A pipeline's creation data before ids are given out. */
export interface PipelineDraft {
  project: SimProject;
  createdAt: number;
  iid: number;
  sha: string;
  beforeSha: string;
  ref: string;
  refKind: RefKind;
  branch: string;
  source: string;
  name: string | null;
  userId: number;
  outcome: Outcome;
  seed: number;
  /** The commit was drafted before (a schedule, tag or MR pipeline building it again). */
  rebuild: boolean;
  /** Jobs a later green pipeline of the history passes on this commit (see laterRunsOf). */
  runsLater?: ReadonlySet<string>;
}

/** The people a draft may name: the project bot runs api/trigger pipelines, engineers own branches. */
export interface DraftPeople {
  users: readonly SimUser[];
  userById: ReadonlyMap<number, SimUser>;
  /** The dataset's "now" (ms): when a new branch's merge request was opened. */
  now: number;
}

/**
 * Fresh branch/MR/tag/sha for a new pipeline of `project`, advancing the project's refs. The order
 * of `rng` draws is part of the seeded dataset: same seed, same pipelines.
 */
export function draftPipeline(
  people: DraftPeople,
  project: SimProject,
  rng: Rng,
  createdAt: number,
  forced: Outcome | null,
): PipelineDraft {
  const gen = project.gen;
  const humans = project.contributors;
  const source = rng.weighted([
    ['push', 46],
    ['merge_request_event', 30],
    ['schedule', 7],
    ['web', 7],
    ['trigger', 5],
    ['api', 5],
  ] as const);
  let refKind: RefKind = 'default';
  if (source === 'push') {
    const r = rng.next();
    refKind = r < 0.5 ? 'default' : r < 0.57 ? 'tag' : 'branch';
  } else if (source === 'merge_request_event') refKind = 'merge-request';
  else if (source === 'web') refKind = rng.chance(0.6) ? 'default' : 'branch';
  let outcome: Outcome =
    forced ??
    rng.weighted([
      ['success', 76],
      ['failed', 15],
      ['canceled', 5],
      ['skipped', 2],
    ] as const);
  if (outcome === 'skipped' && !(source === 'push' && refKind !== 'tag')) outcome = 'success';

  let userId = rng.pick(humans);
  let name: string | null = null;
  let ref = project.defaultBranch;
  let branchName = project.defaultBranch;
  let sha: string;
  let beforeSha = NULL_SHA;
  let rebuild = false;
  if (source === 'schedule') {
    userId = project.maintainerId;
    name = rng.pick(['Nightly build', 'Nightly dependency scan', 'Weekly full test suite']);
  } else if (source === 'trigger' || source === 'api') {
    userId = people.users.find((u) => u.bot)?.id ?? userId;
  }
  switch (refKind) {
    case 'default':
      if (source === 'push') {
        sha = rng.hex(40);
        beforeSha = gen.lastDefaultSha;
        gen.lastDefaultSha = sha;
      } else {
        sha = gen.lastDefaultSha;
        rebuild = true;
      }
      break;
    case 'tag':
      if (rng.chance(0.15)) {
        gen.minor++;
        gen.patch = 0;
      } else gen.patch++;
      ref = `v1.${gen.minor}.${gen.patch}`;
      branchName = ref;
      sha = gen.lastDefaultSha;
      rebuild = true;
      break;
    default: {
      const branch = pickBranch(people, project, rng);
      branchName = branch.name;
      if (refKind === 'merge-request') {
        ref = `refs/merge-requests/${branch.mrIid}/head`;
        rebuild = branch.lastSha !== null && rng.chance(0.3);
        sha = rebuild ? branch.lastSha! : rng.hex(40);
      } else {
        ref = branch.name;
        beforeSha = branch.lastSha ?? NULL_SHA;
        sha = rng.hex(40);
      }
      branch.lastSha = sha;
    }
  }
  return {
    project,
    createdAt,
    iid: gen.nextIid++,
    sha,
    beforeSha,
    ref,
    refKind,
    branch: branchName,
    source,
    name,
    userId,
    outcome,
    seed: rng.int(0, 0x7fffffff),
    rebuild,
  };
}

/** One of the project's open branches, or a new one with its merge request (the oldest drops off). */
function pickBranch(people: DraftPeople, project: SimProject, rng: Rng): BranchState {
  const gen = project.gen;
  if (gen.branches.length < 2 || rng.chance(0.18)) {
    const subject = rng.pick(TOPICS[project.kind]);
    const topic = slug(subject);
    const prefix = rng.weighted([
      ['feat/', 5],
      ['fix/', 4],
      ['chore/', 1],
      [`${people.userById.get(rng.pick(project.contributors))?.username ?? 'dev'}/`, 2],
    ] as const);
    const mrIid = gen.nextMrIid++;
    gen.branches.push({ name: `${prefix}${topic}`, mrIid, lastSha: null });
    const verb = prefix === 'fix/' ? 'Fix' : prefix === 'chore/' ? 'Tidy up' : 'Add';
    project.mergeRequests.set(mrIid, {
      iid: mrIid,
      title: `${verb} ${subject}`,
      sourceBranch: `${prefix}${topic}`,
      authorId: project.contributors[mrIid % project.contributors.length]!,
      createdAt: people.now,
    });
    if (gen.branches.length > 6) gen.branches.shift();
    return gen.branches[gen.branches.length - 1]!;
  }
  return rng.pick(gen.branches);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
