import type { FailureKind, SimJob, SimPipeline, SimProject, ToolKind } from '../model.ts';
import type { Rng } from '../random.ts';

/** What a trace is rendered from. */
export interface TraceContext {
  seed: number;
  project: SimProject;
  pipeline: SimPipeline;
  job: SimJob;
}

/** A script command and what it prints when it succeeds. */
export interface Command {
  cmd: string;
  out: string[];
}

/** The tail of a failing run: what the tool printed when it failed. */
export interface FailureText {
  /** Fail during dependency setup instead of the main command. */
  early: boolean;
  lines: string[];
  exit: 'exit code 1' | 'exit code 137' | 'timeout';
}

/** Where a failure points: drawn once per failing job, in this order, before any writer runs. */
export interface FailureSpot {
  tool: ToolKind;
  ctx: TraceContext;
  rng: Rng;
  /** The project's topic words. */
  ws: string[];
  /** The word the failure is about (file, package, test). */
  w: string;
  line: number;
  col: number;
}

/** Writes the end of a failing log for one failure kind. */
export type FailureWriter = (spot: FailureSpot) => FailureText;

/** The failure writers a family contributes, by kind. */
export type FailureWriters = Partial<Record<FailureKind, FailureWriter>>;

/** Where a filler line sits: its timestamp, topic word and index in the run. */
export interface FillerSpot {
  ts: string;
  w: string;
  i: number;
  /** The project's path (its last URL segment), what a deploy names its release after. */
  project: string;
}

/**
 * The programs of one ecosystem and how their logs read. Hooks a family leaves out fall back to
 * the runner's generic text (see registry.ts). Methods, not properties, so a family of a few tools
 * fits the registry's `ToolFamily<ToolKind>`.
 */
export interface ToolFamily<T extends ToolKind = ToolKind> {
  readonly tools: readonly T[];
  /** Dependency setup commands. */
  setup(tool: T, ctx: TraceContext, rng: Rng): Command[];
  /** The main command and its successful output. */
  main(tool: T, ctx: TraceContext, rng: Rng): Command;
  /** What the linter prints when a `lint` failure hits this tool; undefined = generic. */
  lint?(tool: T, spot: FailureSpot): string[] | undefined;
  /** What a download failure looks like for this tool; undefined = generic git/curl. */
  network?(tool: T, ctx: TraceContext, rng: Rng): string[] | undefined;
  /**
   * Whether a download failure hits the main command (an image build pulling its base image)
   * rather than the dependency setup before it; undefined = the setup.
   */
  downloadsInMain?(tool: T): boolean;
  /** One debug line of a chatty run; undefined = generic console.log line. */
  fillerLine?(tool: T, at: FillerSpot, rng: Rng): string | undefined;
  /** What the runtime prints before the kernel kills it for memory; undefined = nothing. */
  outOfMemory?(tool: T, rng: Rng): string[] | undefined;
}

/**
 * Declares a family: its tools once (their union becomes the type every hook's `tool` takes, so a
 * `switch (tool)` must cover exactly them) and its hooks.
 */
export function defineFamily<const T extends ToolKind>(
  tools: readonly T[],
  hooks: Omit<ToolFamily<T>, 'tools'>,
): ToolFamily<T> {
  return { tools, ...hooks };
}
