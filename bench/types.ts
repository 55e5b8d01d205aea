/** One row of the `npm run bench` table: a measured figure against a baseline from the same run. */
export interface BenchRow {
  /** What was measured, e.g. "GET /api/pipelines/summary requests/s". */
  name: string;
  /** The figure, with its unit, e.g. "8,412 req/s". */
  value: string;
  /** The baseline measured in the same run, or '' when the target is absolute. */
  baseline: string;
  /** The target in words, e.g. "≥ 0.6× bare node:http". */
  target: string;
  /** Whether the figure meets the target. */
  ok: boolean;
}

/** A benchmark module under bench/: `export const run: BenchSuite`. */
export type BenchSuite = () => Promise<BenchRow[]>;
