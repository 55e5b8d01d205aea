/**
 * The distiller's third stage: the GitLab section the job failed in and the `$ command` that
 * failed, from where the decisive lines are.
 */
import { BOILERPLATE_SECTIONS, type Entry, type LogSection } from './log-entry.ts';
import { COMMAND } from './step-lines.ts';

/** Where a job failed: the section it failed in and the command that failed. */
export interface FailingPlace {
  /** The section the job failed in, when the log has sections. */
  section: LogSection | undefined;
  /** The last `$ command` run before the first decisive error of the failing section. */
  command: string | undefined;
}

/** Whether `e` lies in `section` (never, without one). */
export function isIn(section: LogSection | undefined, e: Entry): boolean {
  return section !== undefined && e.line >= section.startLine && e.line <= section.endLine;
}

/**
 * The failing section: the one whose decisive lines score highest (one the log ends inside counts
 * half again, boilerplate sections only when no script section ran), else the last section left
 * open, else `step_script`; and the command that failed in it.
 */
export function findFailingPlace(entries: Entry[], sections: LogSection[]): FailingPlace {
  const sectionScore = new Map<number, number>();
  for (const e of entries) {
    if (e.score >= 80 && e.section >= 0 && !/^ERROR: Job failed\b/.test(e.bare)) {
      sectionScore.set(e.section, (sectionScore.get(e.section) ?? 0) + e.score);
    }
  }
  // Boilerplate sections (artifact upload, cache) print errors of their own ("No files to
  // upload"); they are the failing section only when the job never reached a script section.
  const hasScript = sections.some((s) => !BOILERPLATE_SECTIONS.has(s.name));
  let failing = -1;
  let bestScore = 0;
  for (const [idx, score] of sectionScore) {
    const s = sections[idx]!;
    if (hasScript && BOILERPLATE_SECTIONS.has(s.name)) continue;
    // A section the log ends inside is where the job died.
    const weighted = s.closed ? score : score * 1.5;
    if (weighted > bestScore) {
      bestScore = weighted;
      failing = idx;
    }
  }
  if (failing === -1) {
    for (let k = sections.length - 1; k >= 0; k--) {
      const s = sections[k]!;
      if (!s.closed && !BOILERPLATE_SECTIONS.has(s.name)) {
        failing = k;
        break;
      }
    }
  }
  if (failing === -1) failing = sections.findIndex((s) => s.name === 'step_script');
  const failingSection = failing >= 0 ? sections[failing] : undefined;
  const inFailing = (e: Entry) => isIn(failingSection, e);

  let failingCommand: string | undefined;
  let firstErrorIdx = -1;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (failingSection && !inFailing(e)) continue;
    if (e.score >= 85 && e.kind === 'error' && !/^ERROR: Job failed\b/.test(e.bare)) {
      firstErrorIdx = i;
      break;
    }
  }
  for (let i = (firstErrorIdx === -1 ? entries.length : firstErrorIdx) - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (failingSection && !inFailing(e)) {
      if (e.line < failingSection.startLine) break;
      continue;
    }
    if (COMMAND.test(e.bare)) {
      failingCommand = e.bare.slice(2).trim();
      break;
    }
  }
  return { section: failingSection, command: failingCommand };
}
