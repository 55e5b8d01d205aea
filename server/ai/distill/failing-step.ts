/** The GitHub Actions step that failed, from its header to the runner's verdict. */
import type { Entry } from './log-entry.ts';
import { COMMAND_VERDICT } from './step-lines.ts';

/** The header GitHub Actions prints when a step starts: `##[group]Run <command>`. */
export const GHA_STEP_START = /^##\[group\]Run /;

/**
 * The entries of the GitHub Actions step that failed: its `##[group]Run …` header and the runner's
 * verdict that ends it (the first failed-command verdict in the log).
 */
export function failingStepOf(entries: Entry[]): { header: number; verdict: number } | undefined {
  const verdict = entries.findIndex((e) => COMMAND_VERDICT.test(e.bare));
  if (verdict === -1) return undefined;
  for (let i = verdict; i >= 0; i--) {
    if (GHA_STEP_START.test(entries[i]!.bare)) return { header: i, verdict };
  }
  return undefined;
}
