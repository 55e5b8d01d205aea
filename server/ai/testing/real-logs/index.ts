import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import type { FailureCategory } from '../../distill/rules/rule.ts';

/**
 * The real-log corpus: 583 failed CI job logs from public projects (issue 11), kept verbatim (or
 * tail-cut, said in the entry's `note`; logs over 100 KB as `<id>.log.gz`), 36 of them with a green
 * run of the same job (`<id>.green.log`), plus `index.json` (source, licence, decisive lines,
 * category, dev/holdout split) and `second-annotator.json`. The data is not ours, so it is never
 * committed: it lives in `../shared/ci-logs/` beside the repository (its README says how it was
 * collected, annotated and split), or where `CI_LOGS_DIR` points. Without it, the tests and bench
 * rows that need it skip, saying once where they looked.
 *
 * How we use it: `real-corpus-eval.test.ts` and `npm run bench` measure the distiller's recall of
 * the decisive lines and the offline analyser's category and named root cause; `real-logs.test.ts`
 * keeps the corpus honest (decisive lines verbatim, a source and licence on every entry, about a
 * third held out, under 30 MB). Develop rules against the `dev` split only and report both figures:
 * the held-out third is measured, never tuned to, and a rule only one log needs is a smell.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dir = path.resolve(process.env.CI_LOGS_DIR || path.join(repoRoot, '..', 'shared', 'ci-logs'));

/** The root-cause categories an entry may carry: the offline analyser's own set. */
export const REAL_LOG_CATEGORIES = [
  'test_failure',
  'compile_error',
  'dependency_network',
  'oom_killed',
  'timeout',
  'permission_auth',
  'config_yaml',
  'script_error',
] as const satisfies readonly FailureCategory[];

/** One entry of index.json: where a public failed log came from and what an expert points at in it. */
export const RealLogMetaSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
  sourceUrl: z.url(),
  repository: z.url(),
  licence: z.string().min(1),
  ciSystem: z.string().min(1),
  ecosystem: z.string().min(1),
  decisive: z.array(z.string().min(1)).min(1),
  category: z.enum(REAL_LOG_CATEGORIES),
  rootCause: z.string().min(1),
  split: z.enum(['dev', 'holdout']),
  /** Which collection round added the entry (absent: the first); each round is split on its own. */
  batch: z.number().int().min(2).optional(),
  originalJob: z.string().optional(),
  note: z.string().optional(),
  green: z.object({ sourceUrl: z.url(), note: z.string().optional() }).optional(),
});

/** The whole index.json file. */
export const RealLogIndexSchema = z.object({ entries: z.array(RealLogMetaSchema).min(1) });

/** Metadata of one real log, as stored in index.json. */
export type RealLogMeta = z.infer<typeof RealLogMetaSchema>;

/** A real failed CI log with its metadata, and the passing log of the same job when the source had one. */
export interface RealLog extends RealLogMeta {
  /** The failed job's log text, verbatim from the source (possibly tail-trimmed, see `note`). */
  text: string;
  /** The last green run of the same job, when known. */
  greenText?: string;
}

/** Reads and validates index.json; throws a zod error naming the bad field when it is malformed. */
export function readRealLogIndex(): RealLogMeta[] {
  const raw: unknown = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
  return RealLogIndexSchema.parse(raw).entries;
}

/** Loads the real-log corpus; `split` keeps only the development or the held-out third. */
export function loadRealLogs(split?: RealLogMeta['split']): RealLog[] {
  return readRealLogIndex()
    .filter((meta) => split === undefined || meta.split === split)
    .map((meta) => {
      const text = readLogFile(`${meta.id}.log`);
      const greenText = meta.green ? readLogFile(`${meta.id}.green.log`, true) : undefined;
      return greenText === undefined ? { ...meta, text } : { ...meta, text, greenText };
    });
}

// The largest logs are stored gzip-compressed (`<name>.gz`) to keep the corpus under the issue's
// 30 MB with room for new rounds; their text is the same bytes once decompressed.
function readLogFile(name: string): string;
function readLogFile(name: string, optional: true): string | undefined;
function readLogFile(name: string, optional = false): string | undefined {
  const plain = path.join(dir, name);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  const packed = `${plain}.gz`;
  if (existsSync(packed)) return gunzipSync(readFileSync(packed)).toString('utf8');
  if (optional) return undefined;
  throw new Error(`real-log corpus: neither ${name} nor ${name}.gz exists`);
}

/** The folder holding the corpus files: `CI_LOGS_DIR`, else `../shared/ci-logs` beside the repository. */
export const REAL_LOGS_DIR = dir;

/** Whether the corpus is there; the tests and bench rows that need it skip when it is not. */
export const realLogsPresent = existsSync(path.join(dir, 'index.json'));

/** The one line printed by a test file or the bench that skips for want of the corpus. */
export const REAL_LOGS_MISSING = `skipped: real-log corpus not found at ${dir} (set CI_LOGS_DIR to its folder)`;
