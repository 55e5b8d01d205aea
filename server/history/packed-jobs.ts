import type { JobHistoryRecord } from './model.ts';

/** Numbers kept per job attempt. */
const STRIDE = 8;
const RETRIED = 1;
const ALLOW_FAILURE = 2;

/** One pipeline's attempts, packed: numbers unboxed in one array, strings shared. */
interface Packed {
  /** Attempts that do not pack (several projects in one list: never from GitLab), kept as given. */
  raw?: readonly JobHistoryRecord[];
  projectId: number;
  /**
   * jobId, createdAt, startedAt, finishedAt, duration, queuedDuration, flags and the code of its
   * name, stage, status and failure reason (see JobWords) per attempt (NaN: null).
   */
  numbers: number[];
  /** Each attempt's web URL, or null when it is `jobsUrl` + its id (GitLab's `/-/jobs/:id`). */
  urls: (string | null)[] | null;
  jobsUrl: string;
}

const orNaN = (n: number | null) => (n === null ? Number.NaN : n);

/**
 * The distinct (name, stage, status, failure reason) of a group's job attempts, each a number: a
 * group has a few thousand, its attempts hundreds of thousands, and four string references per
 * attempt cost 32 bytes where its code costs 8. Never pruned (bounded by the group's job names).
 */
class JobWords {
  /** name, stage, status, failureReason per code. */
  readonly words: (string | null)[] = [];
  private readonly codes = new Map<string, number>();

  codeOf(j: JobHistoryRecord): number {
    // Each word length-prefixed, the last marked null or not: no two tuples share a key.
    const key = `${j.name.length}.${j.name}${j.stage.length}.${j.stage}${j.status.length}.${j.status}${j.failureReason === null ? '-' : `+${j.failureReason}`}`;
    let code = this.codes.get(key);
    if (code === undefined) {
      code = this.words.length / 4;
      this.words.push(j.name, j.stage, j.status, j.failureReason);
      this.codes.set(key, code);
    }
    return code;
  }
}
const orNull = (n: number) => (Number.isNaN(n) ? null : n);

/**
 * Job attempts by pipeline, kept packed: a JavaScript object per attempt costs about 330 bytes
 * (six boxed numbers and its URL string), and a week of a 2,000-project group holds 800,000 of
 * them. Reads build the attempts' records afresh (short-lived: the health computations walk them
 * once); writes pack them. A Map to its readers. `urlOf` gives a project's web URL: an attempt's
 * URL under it is not stored.
 */
export class PackedJobLists extends Map<number, readonly JobHistoryRecord[]> {
  private readonly packed = new Map<number, Packed>();
  private readonly words = new JobWords();

  constructor(private readonly urlOf: (projectId: number) => string | undefined) {
    super();
  }

  override get(pipelineId: number): readonly JobHistoryRecord[] | undefined {
    const p = this.packed.get(pipelineId);
    return p && unpack(pipelineId, p, this.words.words);
  }

  override has(pipelineId: number): boolean {
    return this.packed.has(pipelineId);
  }

  /**
   * Calls `fn` with the job name of each of the pipeline's successful attempts that has a duration,
   * read from the packed numbers: counting runs this way builds no attempt records.
   */
  eachSuccessfulRun(pipelineId: number, fn: (name: string) => void): void {
    const p = this.packed.get(pipelineId);
    if (!p) return;
    if (p.raw) return eachSuccessful(p.raw, fn);
    const { numbers: n } = p;
    const w = this.words.words;
    for (let k = 0; k < n.length; k += STRIDE) {
      const m = n[k + 7]! * 4;
      if (w[m + 2] === 'success' && !Number.isNaN(n[k + 4]!)) fn(w[m]!);
    }
  }

  /**
   * Calls `fn` with each of the pipeline's attempts' name, status, retried flag and id, read from
   * the packed numbers (no records built); false when the pipeline's attempts are not held.
   */
  eachAttempt(pipelineId: number, fn: AttemptVisitor): boolean {
    const p = this.packed.get(pipelineId);
    if (!p) return false;
    if (p.raw) return visitRecords(p.raw, fn);
    const { numbers: n } = p;
    const w = this.words.words;
    for (let k = 0; k < n.length; k += STRIDE) {
      const m = n[k + 7]! * 4;
      fn(w[m]!, w[m + 2]!, (n[k + 6]! & RETRIED) !== 0, n[k]!);
    }
    return true;
  }

  override set(pipelineId: number, jobs: readonly JobHistoryRecord[]): this {
    this.packed.set(pipelineId, pack(jobs, this.urlOf, this.words));
    return this;
  }

  override delete(pipelineId: number): boolean {
    return this.packed.delete(pipelineId);
  }

  override clear(): void {
    this.packed.clear();
  }

  override get size(): number {
    return this.packed.size;
  }

  override *keys(): MapIterator<number> {
    yield* this.packed.keys();
  }

  override *entries(): MapIterator<[number, readonly JobHistoryRecord[]]> {
    for (const [id, p] of this.packed) yield [id, unpack(id, p, this.words.words)];
  }

  override *values(): MapIterator<readonly JobHistoryRecord[]> {
    for (const [id, p] of this.packed) yield unpack(id, p, this.words.words);
  }

  override [Symbol.iterator](): MapIterator<[number, readonly JobHistoryRecord[]]> {
    return this.entries();
  }

  override forEach(
    fn: (
      value: readonly JobHistoryRecord[],
      key: number,
      map: Map<number, readonly JobHistoryRecord[]>,
    ) => void,
    thisArg?: unknown,
  ): void {
    for (const [id, p] of this.packed) fn.call(thisArg, unpack(id, p, this.words.words), id, this);
  }
}

/**
 * `base` with other lists laid over it: `over` names, per pipeline, the Map holding its attempts
 * (read from the store, a project's cold context). One read-only Map: a snapshot's jobs without
 * copying, or unpacking, any.
 */
export class JobListsOverlay extends Map<number, readonly JobHistoryRecord[]> {
  constructor(
    private readonly base: ReadonlyMap<number, readonly JobHistoryRecord[]>,
    private readonly over: ReadonlyMap<number, ReadonlyMap<number, readonly JobHistoryRecord[]>>,
  ) {
    super();
  }

  override get(pipelineId: number): readonly JobHistoryRecord[] | undefined {
    const source = this.over.get(pipelineId);
    return source ? source.get(pipelineId) : this.base.get(pipelineId);
  }

  /** As `PackedJobLists.eachSuccessfulRun`, for whichever list holds the pipeline's attempts. */
  eachSuccessfulRun(pipelineId: number, fn: (name: string) => void): void {
    const source = this.over.get(pipelineId);
    if (!source && this.base instanceof PackedJobLists)
      return this.base.eachSuccessfulRun(pipelineId, fn);
    eachSuccessful((source ?? this.base).get(pipelineId) ?? [], fn);
  }

  /** As `PackedJobLists.eachAttempt`, for whichever list holds the pipeline's attempts. */
  eachAttempt(pipelineId: number, fn: AttemptVisitor): boolean {
    const source = this.over.get(pipelineId);
    if (!source) return eachAttemptOf(this.base, pipelineId, fn);
    const list = source.get(pipelineId);
    return list ? visitRecords(list, fn) : false;
  }

  override has(pipelineId: number): boolean {
    return this.over.has(pipelineId) || this.base.has(pipelineId);
  }

  override set(): this {
    throw new TypeError('a snapshot’s jobs are read-only');
  }

  override delete(): boolean {
    throw new TypeError('a snapshot’s jobs are read-only');
  }

  override get size(): number {
    let n = this.over.size;
    for (const id of this.base.keys()) if (!this.over.has(id)) n++;
    return n;
  }

  override *keys(): MapIterator<number> {
    yield* this.over.keys();
    for (const id of this.base.keys()) if (!this.over.has(id)) yield id;
  }

  override *entries(): MapIterator<[number, readonly JobHistoryRecord[]]> {
    for (const id of this.keys()) yield [id, this.get(id)!];
  }

  override *values(): MapIterator<readonly JobHistoryRecord[]> {
    for (const id of this.keys()) yield this.get(id)!;
  }

  override [Symbol.iterator](): MapIterator<[number, readonly JobHistoryRecord[]]> {
    return this.entries();
  }

  override forEach(
    fn: (
      value: readonly JobHistoryRecord[],
      key: number,
      map: Map<number, readonly JobHistoryRecord[]>,
    ) => void,
    thisArg?: unknown,
  ): void {
    for (const [id, list] of this.entries()) fn.call(thisArg, list, id, this);
  }
}

/** Receives one attempt's name, status, retried flag and id. */
export type AttemptVisitor = (
  name: string,
  status: string,
  retried: boolean,
  jobId: number,
) => void;

function visitRecords(jobs: readonly JobHistoryRecord[], fn: AttemptVisitor): true {
  for (const j of jobs) fn(j.name, j.status, j.retried, j.jobId);
  return true;
}

/**
 * Visits a pipeline's attempts in any job-list Map: packed lists and overlays without building
 * records, others through their records. False when the pipeline's attempts are not held.
 */
export function eachAttemptOf(
  lists: ReadonlyMap<number, readonly JobHistoryRecord[]>,
  pipelineId: number,
  fn: AttemptVisitor,
): boolean {
  if (lists instanceof PackedJobLists || lists instanceof JobListsOverlay)
    return lists.eachAttempt(pipelineId, fn);
  const list = lists.get(pipelineId);
  return list ? visitRecords(list, fn) : false;
}

function pack(
  jobs: readonly JobHistoryRecord[],
  urlOf: (projectId: number) => string | undefined,
  words: JobWords,
): Packed {
  const projectId = jobs[0]?.projectId ?? 0;
  const jobsUrl = `${urlOf(projectId) ?? ''}/-/jobs/`;
  if (jobs.some((j) => j.projectId !== projectId))
    return { raw: jobs, projectId, numbers: [], urls: null, jobsUrl };
  // Sized exactly (an array grown by push keeps up to half again as much room).
  const numbers = new Array<number>(jobs.length * STRIDE).fill(0);
  let urls: (string | null)[] | null = null;
  jobs.forEach((j, i) => {
    const k = i * STRIDE;
    numbers[k] = j.jobId;
    numbers[k + 1] = j.createdAt;
    numbers[k + 2] = orNaN(j.startedAt);
    numbers[k + 3] = orNaN(j.finishedAt);
    numbers[k + 4] = orNaN(j.duration);
    numbers[k + 5] = orNaN(j.queuedDuration);
    numbers[k + 6] = (j.retried ? RETRIED : 0) | (j.allowFailure ? ALLOW_FAILURE : 0);
    numbers[k + 7] = words.codeOf(j);
    if (j.webUrl !== `${jobsUrl}${j.jobId}`) (urls ??= jobs.map(() => null))[i] = j.webUrl;
  });
  return { projectId, numbers, urls, jobsUrl };
}

/** The fields of a job record but its URL, as a packed list gives them back. */
type JobFields = Omit<JobHistoryRecord, 'webUrl'>;

/**
 * A job record whose URL is its project's `/-/jobs/:id`, made when read: building that string for
 * every attempt was half the cost of reading the lists. One class for every project, the prefix a
 * private field (not copied by a spread, not in JSON): a class per project gave the health views
 * 2,000 shapes to read at scale, and their property reads went megamorphic (1.3 s instead of 0.9).
 */
class DerivedJob implements JobHistoryRecord {
  projectId: number;
  pipelineId: number;
  jobId: number;
  name: string;
  stage: string;
  status: string;
  retried: boolean;
  allowFailure: boolean;
  failureReason: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  duration: number | null;
  queuedDuration: number | null;
  readonly #jobsUrl: string;
  constructor(f: JobFields, jobsUrl: string) {
    this.projectId = f.projectId;
    this.pipelineId = f.pipelineId;
    this.jobId = f.jobId;
    this.name = f.name;
    this.stage = f.stage;
    this.status = f.status;
    this.retried = f.retried;
    this.allowFailure = f.allowFailure;
    this.failureReason = f.failureReason;
    this.createdAt = f.createdAt;
    this.startedAt = f.startedAt;
    this.finishedAt = f.finishedAt;
    this.duration = f.duration;
    this.queuedDuration = f.queuedDuration;
    this.#jobsUrl = jobsUrl;
  }
  get webUrl(): string {
    return `${this.#jobsUrl}${this.jobId}`;
  }
  toJSON(): JobHistoryRecord {
    return { ...this, webUrl: this.webUrl };
  }
}

function eachSuccessful(jobs: readonly JobHistoryRecord[], fn: (name: string) => void): void {
  for (const job of jobs) if (job.status === 'success' && job.duration !== null) fn(job.name);
}

function unpack(pipelineId: number, p: Packed, s: readonly (string | null)[]): JobHistoryRecord[] {
  if (p.raw) return [...p.raw];
  const out: JobHistoryRecord[] = [];
  const { numbers: n, urls } = p;
  for (let i = 0, k = 0; k < n.length; i++, k += STRIDE) {
    const flags = n[k + 6]!;
    const m = n[k + 7]! * 4;
    const fields: JobFields = {
      projectId: p.projectId,
      pipelineId,
      jobId: n[k]!,
      name: s[m]!,
      stage: s[m + 1]!,
      status: s[m + 2]!,
      retried: (flags & RETRIED) !== 0,
      allowFailure: (flags & ALLOW_FAILURE) !== 0,
      failureReason: s[m + 3] ?? null,
      createdAt: n[k + 1]!,
      startedAt: orNull(n[k + 2]!),
      finishedAt: orNull(n[k + 3]!),
      duration: orNull(n[k + 4]!),
      queuedDuration: orNull(n[k + 5]!),
    };
    const url = urls?.[i];
    out.push(url == null ? new DerivedJob(fields, p.jobsUrl) : { ...fields, webUrl: url });
  }
  return out;
}
