// How far V8 lets the heap grow between full collections, for the long-running service.
import v8 from 'node:v8';

/** Growth over the live heap after a full collection, in percent (V8's own: up to 300). */
export const SERVICE_HEAP_GROWING_PERCENT = 10;

const FLAG = '--heap-growing-percent';

/**
 * Makes V8 grow the heap by 10 % over what survives a full collection instead of up to four
 * times (its default on a machine with memory to spare). The service holds a large, stable set
 * (a week of pipelines, packed jobs) and walks it in bursts that leave only garbage; V8's default
 * headroom made `serve` peak at about 890 MiB on a 2,000-project group with 90 days of history,
 * this at about 620 MiB, with the health views no slower (bench/ten-times.bench.ts; docs/
 * benchmarks.md; `serve` also caps the young generation: cli/serve-heap.ts). `--optimize-for-size` would go under 500 MiB but doubles the health views'
 * time. V8 reads the factor at every full collection, so setting it before the service allocates
 * has the command-line flag's effect; a value given on Node's command line wins (Node refuses the
 * flag in NODE_OPTIONS). Returns whether it was set.
 */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = v8.setFlagsFromString,
): boolean {
  const given = execArgv.some((a) => a.startsWith(FLAG) || a.startsWith('--heap_growing_percent'));
  if (given) return false;
  setFlags(`${FLAG}=${SERVICE_HEAP_GROWING_PERCENT}`);
  return true;
}
