// What the built-in analyser says about a failure that was fixed before: the same failure
// signature on the same project went green after a known commit (issue 27, server/triage/).
import type { JobContext } from '../job-context.ts';

/** The report's lines about past fixes of the same error, or none when none is known. */
export function pastFixesLines(context: Pick<JobContext, 'pastFixes'> | undefined): string[] {
  if (!context?.pastFixes) return [];
  return [
    '',
    `**Fixed before:** ${context.pastFixes} Look at that change first: the same fix, or what undid it, is the likeliest answer.`,
  ];
}
